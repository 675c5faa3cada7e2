// Issue 19, drift repair against the built manager on the shared set: a propagated Deployment whose replicas are
// patched on member1 and which is deleted on member2 is put right from its Work within seconds, with nothing
// touched on the host; a member-side actor that changes the object back after every repair meets a back-off and
// a Warning Event, not a write loop. Member writes are counted from the member's audit log (the manager's member
// identity is the ServiceAccount karmadactl-style join created).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type BadInputSet,
  deployment,
  deployments,
  type KubeEvent,
  type KubeObject,
  LivezWatch,
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
import { writesBy } from '../ha/audit-writes.js';
import type { ManagerProcess } from '../manager/manager-process.js';

const IDENTITY = 'convergence-drift';
const MEMBER_USER = 'system:serviceaccount:karmada-cluster:warmstart-member';

interface Deployment extends KubeObject {
  readonly spec: { readonly replicas: number };
}

describe('drift repair on members', () => {
  let set: BadInputSet;
  let manager: ManagerProcess;
  let livez: LivezWatch;
  let infos: readonly ClusterInfo[];
  const created: string[] = [];

  beforeAll(async () => {
    infos = inject('clusters');
    set = await prepareSet(infos);
    manager = await startReadyManager(set, IDENTITY);
    livez = new LivezWatch(manager);
  });

  afterAll(async () => {
    livez?.stop();
    if (manager && set) await removeNamespaces(set, created, 60_000);
    await manager?.stop('SIGTERM');
  }, 120_000);

  async function propagated(prefix: string, replicas: number): Promise<string> {
    const ns = await uniqueNamespace(set, prefix, created);
    await set.host.create(deployments(ns), deployment(ns, 'web', replicas));
    await set.host.create(
      policies(ns),
      propagationPolicy(
        ns,
        'web',
        [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        set.memberNames,
      ),
    );
    for (const m of set.members)
      await waitFor(
        `web in ${m.cluster.name}`,
        async () => (await m.get<Deployment>(`${deployments(ns)}/web`))?.spec.replicas === replicas,
        { timeoutMs: 60_000, intervalMs: 100 },
      );
    return ns;
  }

  it('reverts replicas patched on member1 and re-creates the Deployment deleted on member2, within seconds', async () => {
    const ns = await propagated('drift', 2);
    await waitQueuesDrained(manager);
    const [m1, m2] = set.members as [BadInputSet['members'][0], BadInputSet['members'][0]];
    const hostWritesSince = Date.now();
    const started = Date.now();
    await m1.mergePatch(`${deployments(ns)}/web`, { spec: { replicas: 9 } });
    await m2.delete(`${deployments(ns)}/web`);
    const healed = await Promise.all([
      waitFor(
        'replicas back to 2 on member1',
        async () =>
          (await m1.get<Deployment>(`${deployments(ns)}/web`))?.spec.replicas === 2 ? Date.now() : undefined,
        { timeoutMs: 15_000, intervalMs: 50 },
      ),
      waitFor(
        'web back on member2',
        async () =>
          (await m2.get<Deployment>(`${deployments(ns)}/web`))?.spec.replicas === 2 ? Date.now() : undefined,
        { timeoutMs: 15_000, intervalMs: 50 },
      ),
    ]);
    const [patchMs, deleteMs] = healed.map((t) => t - started);
    console.log(
      `[drift] patched replicas reverted in ${patchMs} ms, deleted Deployment re-created in ${deleteMs} ms`,
    );
    expect(patchMs).toBeLessThan(5_000);
    expect(deleteMs).toBeLessThan(5_000);
    // The repair came from the Works as they were: the manager wrote nothing on the host but Events and the
    // member status it reflects (the patched and re-created Deployments' status: Work and binding status, as
    // Karmada's work status and binding status controllers write it). No Work spec, binding spec or template.
    await waitQueuesDrained(manager);
    const STATUS = new Set(['work.karmada.io/works/status', 'work.karmada.io/resourcebindings/status']);
    const hostWrites = (
      await writesBy(infos[0]!.auditLogPath!, infos[0]!.managerUser, hostWritesSince)
    ).filter(
      (w) =>
        w.resource !== 'coordination.k8s.io/leases' &&
        w.resource !== 'core/events' &&
        !STATUS.has(w.resource),
    );
    expect(hostWrites).toEqual([]);
    // One write per repair on each member.
    for (const [i, m] of [m1, m2].entries()) {
      const writes = (await writesBy(infos[i + 1]!.auditLogPath!, MEMBER_USER, hostWritesSince)).filter(
        (w) => w.resource === 'apps/deployments' && w.namespace === ns,
      );
      expect(writes.length, `${m.cluster.name}: ${JSON.stringify(writes)}`).toBe(1);
    }
  });

  it('backs off and warns when a member-side actor changes the object back after every repair', async () => {
    const ns = await propagated('fight', 2);
    await waitQueuesDrained(manager);
    const m1 = set.members[0]!;
    const since = Date.now();
    const until = since + 25_000;
    // The "member controller": sets replicas to 7 whenever it sees anything else, for 25 s.
    let fights = 0;
    while (Date.now() < until) {
      const d = await m1.get<Deployment>(`${deployments(ns)}/web`);
      if (d && d.spec.replicas !== 7) {
        await m1.mergePatch(`${deployments(ns)}/web`, { spec: { replicas: 7 } });
        fights++;
      }
      await new Promise((r) => setTimeout(r, 50)); // the actor's own poll period
    }
    const event = await waitFor(
      'a DriftRepairBackoff Event on the Work',
      async () =>
        (await set.host.list<KubeEvent>(`/api/v1/namespaces/karmada-es-${m1.cluster.name}/events`)).find(
          (e) => e.reason === 'DriftRepairBackoff' && e.message.includes(`${ns}/web`),
        ),
      { timeoutMs: 10_000, intervalMs: 250 },
    );
    expect(event.type).toBe('Warning');
    expect(event.involvedObject.kind).toBe('Work');
    expect(event.message).toContain(`Deployment ${ns}/web in cluster ${m1.cluster.name}`);
    const repairs = (await writesBy(infos[1]!.auditLogPath!, MEMBER_USER, since)).filter(
      (w) => w.resource === 'apps/deployments' && w.namespace === ns,
    );
    console.log(`[drift] fighting actor: ${fights} changes, ${repairs.length} repairs in 25 s`);
    // Three repairs at once, then 5 s and 10 s apart: 5 in 25 s (a write loop would be hundreds).
    expect(repairs.length).toBeGreaterThanOrEqual(3);
    expect(repairs.length).toBeLessThanOrEqual(6);
  }, 60_000);
});
