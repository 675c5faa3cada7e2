// Issue 19, churn without conflicts against the built manager on the shared set: 200 changes of one template in
// 10 s end with the last change on every member, and under 5% of the manager's writes (host and members, from
// their audit logs) are rejected with 409 Conflict.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readAuditLog } from '../audit/audit-log.js';
import {
  type BadInputSet,
  deployment,
  deployments,
  type KubeObject,
  policies,
  prepareSet,
  propagationPolicy,
  removeNamespaces,
  startReadyManager,
  uniqueNamespace,
  waitQueuesDrained,
} from '../badinput/fixture.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import type { ManagerProcess } from '../manager/manager-process.js';

const IDENTITY = 'convergence-churn';
const MEMBER_USER = 'system:serviceaccount:karmada-cluster:warmstart-member';
const CHANGES = 200;
const WINDOW_MS = 10_000;

interface Deployment extends KubeObject {
  readonly spec: {
    readonly replicas: number;
    readonly template: { metadata: { annotations?: Record<string, string> } };
  };
}

interface Write {
  readonly verb: string;
  readonly resource: string;
  /** The controller that sent it, from the User-Agent `warmstart/<version> (<source>)`. */
  readonly source: string;
  readonly code: number | undefined;
}

/** The writes `user` sent to one cluster since `since`, from its audit log. */
async function writes(auditLogPath: string, user: string, since: number): Promise<Write[]> {
  return (await readAuditLog(auditLogPath, { user, since }))
    .filter((e) => e.class === 'write')
    .map((e) => ({
      verb: e.verb,
      resource: e.resourceKey,
      source: /\(([^)]*)\)\s*$/.exec(e.userAgent ?? '')?.[1] ?? '?',
      code: e.responseStatus?.code,
    }));
}

function breakdown(writes: readonly Write[]): string {
  const rows = new Map<string, { writes: number; conflicts: number }>();
  for (const w of writes) {
    const key = `${w.source}: ${w.verb} ${w.resource}`;
    const row = rows.get(key) ?? { writes: 0, conflicts: 0 };
    row.writes++;
    if (w.code === 409) row.conflicts++;
    rows.set(key, row);
  }
  return [...rows].map(([k, r]) => `${k}: ${r.writes} (${r.conflicts} x 409)`).join('; ');
}

describe('churn on one template', () => {
  let set: BadInputSet;
  let manager: ManagerProcess;
  let infos: readonly ClusterInfo[];
  const created: string[] = [];

  beforeAll(async () => {
    infos = inject('clusters');
    set = await prepareSet(infos);
    manager = await startReadyManager(set, IDENTITY);
  });

  afterAll(async () => {
    if (manager && set) await removeNamespaces(set, created, 60_000);
    await manager?.stop('SIGTERM');
  }, 120_000);

  it(`${CHANGES} changes in ${WINDOW_MS / 1000} s end correct on every member with under 5% 409s`, async () => {
    const ns = await uniqueNamespace(set, 'churn', created);
    await set.host.create(deployments(ns), deployment(ns, 'web', 1));
    await set.host.create(
      policies(ns),
      propagationPolicy(
        ns,
        'web',
        [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        set.memberNames,
        {
          placement: {
            clusterAffinity: { clusterNames: [...set.memberNames] },
            replicaScheduling: { replicaSchedulingType: 'Duplicated' },
          },
        },
      ),
    );
    for (const m of set.members)
      await waitFor(
        `web in ${m.cluster.name}`,
        async () => (await m.get(`${deployments(ns)}/web`)) !== undefined,
        {
          timeoutMs: 60_000,
          intervalMs: 100,
        },
      );
    await waitQueuesDrained(manager);

    const since = Date.now();
    // Alternate replicas and a pod-template annotation, so both the binding's replicas and the Work's manifest move.
    for (let i = 1; i <= CHANGES; i++) {
      await set.host.mergePatch(`${deployments(ns)}/web`, {
        spec: { replicas: (i % 7) + 1, template: { metadata: { annotations: { change: String(i) } } } },
      });
      const due = since + (i * WINDOW_MS) / CHANGES;
      if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now())); // pacing the changes
    }
    const changedMs = Date.now() - since;
    const last = { replicas: (CHANGES % 7) + 1, change: String(CHANGES) };
    for (const m of set.members)
      await waitFor(
        `the last change on ${m.cluster.name}`,
        async () => {
          const d = await m.get<Deployment>(`${deployments(ns)}/web`);
          return (
            d?.spec.replicas === last.replicas && d.spec.template.metadata.annotations?.change === last.change
          );
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );
    const convergedMs = Date.now() - since;
    await waitQueuesDrained(manager);

    const host = (await writes(infos[0]!.auditLogPath!, infos[0]!.managerUser, since)).filter(
      (w) => w.resource !== 'coordination.k8s.io/leases' && w.resource !== 'core/events',
    );
    const members = (
      await Promise.all(infos.slice(1).map((c) => writes(c.auditLogPath!, MEMBER_USER, since)))
    ).flat();
    const all = [...host, ...members];
    const conflicts = all.filter((w) => w.code === 409).length;
    console.log(
      `[churn] ${CHANGES} changes in ${changedMs} ms, converged on both members after ${convergedMs} ms; ` +
        `${all.length} writes, ${conflicts} x 409 (${((100 * conflicts) / all.length).toFixed(1)}%)\n` +
        `  host: ${breakdown(host)}\n  members: ${breakdown(members)}`,
    );
    expect(conflicts / all.length).toBeLessThan(0.05);
    // The Works and member objects change by patch only: none of their writes may conflict.
    expect(
      all.filter(
        (w) =>
          w.code === 409 && (w.resource === 'work.karmada.io/works' || w.resource === 'apps/deployments'),
      ),
    ).toEqual([]);
  }, 180_000);
});
