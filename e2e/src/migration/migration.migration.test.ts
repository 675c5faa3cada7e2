// Issue 15 item 5, the migration a platform team makes: Karmada's own controller-manager, scheduler and webhook (built
// from Karmada's source at KARMADA_COMMIT) propagate a few hundred Deployments on the local control plane, are
// stopped, and warmstart's manager is started on the state they left. From the host's audit log: what the new
// manager read directly (must be nothing) and what it wrote (must be exactly the known list below, each entry
// with its reason). Then the same load again under other namespaces, propagated by warmstart alone, compared
// field for field with what Karmada wrote for the same workload: the differences are the conformance findings.
//
// Run: pnpm vitest run --project migration (needs Karmada's binaries; skipped with the reason otherwise).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crds, workName } from '@warmstart/api';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { type ClassifiedEvent, readAuditLog } from '../audit/audit-log.js';
import { freePort } from '../cluster/local-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { ensure, installCrds, joinMember } from '../karmada/join.js';
import { workloadName } from '../load/workloads.js';
import { type ManagerProcess, startManager } from '../manager/manager-process.js';
import { auditBarrier, waitDrained } from '../restart/scenario.js';
import { findKarmadaBinaries, KARMADA_COMMIT, type KarmadaBinaries } from './karmada-binaries.js';
import { type KarmadaProcess, startKarmadaProcess } from './karmada-process.js';
import { type KarmadaWebhook, startKarmadaWebhook } from './karmada-webhook.js';
import { writeMigrationLoad } from './load.js';
import {
  canonicalizer,
  diffSnapshots,
  listAll,
  type Snapshot,
  snapshotClusters,
  snapshotLoad,
  withoutUuids,
} from './snapshot.js';

const WORKLOADS = Number(process.env.WARMSTART_MIGRATION_WORKLOADS ?? 300);
const NAMESPACES = 3;
const KARMADA_PREFIX = 'mig-karmada';
const WARMSTART_PREFIX = 'mig-warmstart';

/**
 * Karmada's controllers that do what warmstart does: the detector (always on), `cluster` (execution namespaces,
 * finalizer, taints), `clusterStatus` (the Ready condition, which the scheduler needs), `binding` (Works),
 * `execution` (applies Works, the Applied condition), `workStatus` (a Work's manifestStatuses) and
 * `bindingStatus` (a binding's aggregatedStatus and FullyApplied, the template's status). Off, because warmstart
 * does not implement them (yet): namespace (namespace propagation), the MCS/ServiceExport/EndpointSlice family,
 * unifiedAuth, federatedResourceQuota*, gracefulEviction, applicationFailover, (cron)FHPA, remedy,
 * workloadRebalancer, agentcsrapproving, clustertaintpolicy.
 */
const KARMADA_CONTROLLERS = 'cluster,clusterStatus,binding,execution,workStatus,bindingStatus';

const found = findKarmadaBinaries();
const binaries: KarmadaBinaries | undefined = 'missing' in found ? undefined : found;
if (!binaries) process.stderr.write(`[migration] skipped: ${'missing' in found ? found.missing : ''}\n`);

/** Karmada's CRDs for the groups warmstart's packages/api does not ship (Karmada's binaries watch them). */
async function installKarmadaOnlyCrds(host: ClusterInfo, dir: string): Promise<string[]> {
  const ours = new Set(crds.map((c) => c.metadata.name));
  const installed: string[] = [];
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml'));
  for (const f of files) {
    const crd = parse(readFileSync(join(dir, f), 'utf8')) as { metadata: { name: string } };
    if (ours.has(crd.metadata.name)) continue;
    await ensure(host, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    installed.push(crd.metadata.name);
  }
  return installed;
}

interface Condition {
  type: string;
  status: string;
}
interface BindingItem {
  metadata: { name: string; namespace: string };
  spec?: { clusters?: { name: string }[]; resource?: { name: string; namespace: string } };
  status?: { conditions?: Condition[] };
}
interface WorkItem {
  metadata: { annotations?: Record<string, string> };
  status?: { conditions?: Condition[] };
}

async function listBindings(host: ClusterInfo, prefix: string): Promise<BindingItem[]> {
  let bindings: BindingItem[] = [];
  for (let n = 0; n < NAMESPACES; n++)
    bindings = bindings.concat(
      await listAll<BindingItem>(
        host,
        `/apis/work.karmada.io/v1alpha2/namespaces/${prefix}-${n}/resourcebindings`,
      ),
    );
  return bindings;
}

/** Every binding of the copy scheduled, and one Applied Work per scheduled cluster. */
async function propagated(host: ClusterInfo, prefix: string): Promise<string | undefined> {
  const bindings = await listBindings(host, prefix);
  const works = (await listAll<WorkItem>(host, '/apis/work.karmada.io/v1alpha1/works')).filter((w) =>
    w.metadata.annotations?.['resourcebinding.karmada.io/namespace']?.startsWith(`${prefix}-`),
  );
  const scheduled = bindings.filter((b) =>
    b.status?.conditions?.some((c) => c.type === 'Scheduled' && c.status === 'True'),
  ).length;
  const want = bindings.reduce((s, b) => s + (b.spec?.clusters?.length ?? 0), 0);
  const applied = works.filter((w) =>
    w.status?.conditions?.some((c) => c.type === 'Applied' && c.status === 'True'),
  ).length;
  const line = `${bindings.length}/${WORKLOADS} bindings, ${scheduled} scheduled, ${works.length}/${want} Works, ${applied} Applied`;
  if (bindings.length === WORKLOADS && scheduled === WORKLOADS && works.length === want && applied === want)
    return line;
  process.stderr.write(`[migration ${prefix}] ${line}\n`);
  return undefined;
}

/** Waits until Karmada has sent no write for `quietMs` (its requests carry its binaries' user agents). */
async function waitKarmadaQuiet(host: ClusterInfo, quietMs: number, timeoutMs: number): Promise<void> {
  const since = Date.now();
  await waitFor(
    `Karmada quiet for ${quietMs} ms`,
    async () => {
      const events = await readAuditLog(host.auditLogPath!, { user: host.adminUser, since });
      const last = events
        .filter(
          (e) =>
            e.class === 'write' && e.userAgent?.startsWith('karmada') && e.objectRef?.resource !== 'events',
        )
        .reduce((t, e) => Math.max(t, Date.parse(e.requestReceivedTimestamp)), since);
      return Date.now() - last >= quietMs;
    },
    { timeoutMs, intervalMs: 1000 },
  );
}

/** The user warmstart and Karmada act as on a member: the ServiceAccount the join created (karmada/join.ts). */
const MEMBER_USER = 'system:serviceaccount:karmada-cluster:warmstart-member';

const describeEvent = (e: ClassifiedEvent): string =>
  `${e.verb} ${e.resourceKey}${e.objectRef?.namespace ? ` ${e.objectRef.namespace}/` : ' '}${e.objectRef?.name ?? ''}`;

/**
 * What warmstart writes to the host when it takes over Karmada's state, `<verb> <resource>` -> why. Empty: on
 * the first run (300 workloads) it wrote nothing, and any write now is a conformance bug.
 */
const EXPECTED_TAKEOVER_WRITES: Readonly<Record<string, string>> = {};

/**
 * Where warmstart's objects still differ from Karmada's for the same workload (JSON path per kind), each with
 * why. Anything else is a conformance bug this test reports.
 */
const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {
  'policy .spec.resourceSelectors[0].namespace':
    "Karmada's webhook writes its defaults into the user's policy; warmstart applies the same defaults in memory and leaves the policy as written",
  'policy .spec.placement.replicaScheduling.replicaDivisionPreference':
    'the same (Divided defaults to Weighted)',
  'member .metadata.annotations.warmstart.io/applied-from-work':
    "warmstart's own record of the Work generation a member object was applied from (Karmada keeps that in memory)",
};

describe.skipIf(binaries === undefined)(
  `migration from Karmada ${KARMADA_COMMIT.slice(0, 7)} (${WORKLOADS} Deployments)`,
  () => {
    const [host0, m1, m2] = inject('clusters');
    if (!host0 || !m1 || !m2)
      throw new Error('needs the shared set of 3 clusters (WARMSTART_TEST_CLUSTERS=3)');
    const host = host0;
    const members = [m1, m2];
    const workDir = inject('workDir');
    const timings: Record<string, number> = {};
    const karmada: KarmadaProcess[] = [];
    let webhook: KarmadaWebhook | undefined;
    let manager: ManagerProcess | undefined;
    let karmadaState: Snapshot;
    let karmadaClusters: Snapshot;
    let karmadaBindings: BindingItem[];
    let takeover: ClassifiedEvent[];
    const memberTakeover: (ClassifiedEvent & { cluster: string })[] = [];
    const report: string[] = [];

    const phase = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
      const t0 = Date.now();
      try {
        return await f();
      } finally {
        timings[name] = Date.now() - t0;
        process.stderr.write(`[migration] ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
      }
    };

    beforeAll(async () => {
      if (!binaries) throw new Error('unreachable: the suite is skipped without binaries');
      await phase('setup (CRDs, joins, load)', async () => {
        await installCrds(host);
        const extra = await installKarmadaOnlyCrds(host, binaries.crdDir);
        report.push(`Karmada-only CRDs installed next to ours: ${extra.join(', ')}`);
        for (const name of extra)
          await waitFor(
            `CRD ${name} Established`,
            async () =>
              (
                await listAll<{ status?: { conditions?: Condition[] } }>(
                  host,
                  `/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldSelector=metadata.name=${name}`,
                )
              )[0]?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'),
            { timeoutMs: 30_000 },
          );
        await joinMember(host, m1, { region: 'east' });
        await joinMember(host, m2, { region: 'west' });
        await ensure(host, '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'karmada-system' },
        });
        // Karmada's webhook admits the load's policies, as it would on a Karmada control plane.
        webhook = await startKarmadaWebhook(host, binaries.webhook, workDir);
        await writeMigrationLoad(host, members, {
          workloads: WORKLOADS,
          namespaces: NAMESPACES,
          prefix: KARMADA_PREFIX,
        });
      });
      await phase('Karmada propagates', async () => {
        const common = [
          '--kubeconfig',
          host.adminKubeconfig,
          '--leader-elect=false',
          '--kube-api-qps=200',
          '--kube-api-burst=400',
        ];
        karmada.push(
          startKarmadaProcess(
            'karmada-controller-manager',
            binaries.controllerManager,
            [
              ...common,
              `--controllers=${KARMADA_CONTROLLERS}`,
              '--cluster-api-qps=200',
              '--cluster-api-burst=400',
              '--cluster-status-update-frequency=2s',
              `--metrics-bind-address=127.0.0.1:${await freePort()}`,
              `--health-probe-bind-address=127.0.0.1:${await freePort()}`,
            ],
            join(workDir, 'karmada-controller-manager.log'),
          ),
        );
        // The scheduler starts once Karmada reports both members Ready with their APIs: started earlier, it
        // places Divided workloads on whichever member was ready first and does not move them afterwards.
        await waitFor(
          'both Clusters Ready with their API enablements (Karmada clusterStatus)',
          async () => {
            const clusters = await listAll<{
              status?: { conditions?: Condition[]; apiEnablements?: unknown[] };
            }>(host, '/apis/cluster.karmada.io/v1alpha1/clusters');
            return (
              clusters.length === 2 &&
              clusters.every(
                (c) =>
                  (c.status?.apiEnablements?.length ?? 0) > 0 &&
                  c.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'),
              )
            );
          },
          { timeoutMs: 120_000, intervalMs: 500 },
        );
        karmada.push(
          startKarmadaProcess(
            'karmada-scheduler',
            binaries.scheduler,
            [
              ...common,
              `--metrics-bind-address=127.0.0.1:${await freePort()}`,
              `--health-probe-bind-address=127.0.0.1:${await freePort()}`,
            ],
            join(workDir, 'karmada-scheduler.log'),
          ),
        );
        const settled = await waitFor(
          'Karmada to propagate the load',
          async () => {
            for (const p of karmada) if (p.hasExited()) throw new Error(`${p.name} exited:\n${p.tail()}`);
            return propagated(host, KARMADA_PREFIX);
          },
          { timeoutMs: 900_000, intervalMs: 2000 },
        );
        report.push(`Karmada: ${settled}`);
        await waitKarmadaQuiet(host, 5_000, 120_000);
        for (const p of karmada) await p.stop();
        await webhook?.remove();
        await auditBarrier(host);
      });
      karmadaState = await snapshotLoad(host, members, KARMADA_PREFIX, NAMESPACES);
      karmadaClusters = await snapshotClusters(host);
      karmadaBindings = await listBindings(host, KARMADA_PREFIX);
      await phase('warmstart takes over', async () => {
        const since = Date.now();
        manager = await startManager({
          kubeconfig: host.managerKubeconfig,
          identity: 'warmstart-manager-0',
          args: ['--cache-sync-strategy=block-reads', '--kube-api-qps=1000', '--kube-api-burst=2000'],
          logPath: join(workDir, 'warmstart-takeover.log'),
        });
        await waitFor('the manager to be ready', async () => (await manager!.readyz()).status === 200, {
          timeoutMs: 120_000,
          intervalMs: 200,
        });
        await waitDrained(manager, 300_000);
        await auditBarrier(host);
        takeover = await readAuditLog(host.auditLogPath!, { user: host.managerUser, since });
        // On the members the manager acts as the joined ServiceAccount, which Karmada used too: Karmada is
        // stopped by now, so everything that user sent since is warmstart's.
        for (const m of members) {
          await auditBarrier(m);
          memberTakeover.push(
            ...(await readAuditLog(m.auditLogPath!, { user: MEMBER_USER, since })).map((e) => ({
              ...e,
              cluster: m.name,
            })),
          );
        }
      });
    }, 1_800_000);

    afterAll(async () => {
      for (const p of karmada) await p.stop();
      await manager?.stop('SIGTERM');
      process.stderr.write(`[migration] timings (ms): ${JSON.stringify(timings)}\n${report.join('\n')}\n`);
      writeFileSync(join(workDir, 'migration-report.md'), `${report.join('\n')}\n`);
    });

    it("Karmada's Work names are the ones warmstart computes", () => {
      const missing: string[] = [];
      for (const b of karmadaBindings) {
        const r = b.spec?.resource;
        for (const c of b.spec?.clusters ?? []) {
          const want = `work/karmada-es-${c.name}/${workName('Deployment', r?.name ?? '', r?.namespace)}`;
          if (!karmadaState.has(want)) missing.push(want);
        }
      }
      expect(missing).toEqual([]);
    });

    it('takeover: no write and no direct read on the members', () => {
      const sent = memberTakeover
        .filter((e) => e.class === 'write' || e.class === 'direct-get' || e.class === 'direct-list')
        .map((e) => `${e.cluster}: ${describeEvent(e)}`);
      report.push(`takeover on the members: ${sent.length} writes or direct reads`);
      for (const line of sent.slice(0, 10)) report.push(`  ${line}`);
      expect(sent).toEqual([]);
    });

    it('takeover: no direct reads', () => {
      const reads = takeover
        .filter((e) => e.class === 'direct-get' || e.class === 'direct-list')
        .map(describeEvent);
      expect(reads).toEqual([]);
    });

    it('takeover: no write on the host (Leases excepted)', async () => {
      const writes = takeover.filter((e) => e.class === 'write' && e.objectRef?.resource !== 'leases');
      const byKind: Record<string, number> = {};
      for (const e of writes)
        byKind[`${e.verb} ${e.resourceKey}`] = (byKind[`${e.verb} ${e.resourceKey}`] ?? 0) + 1;
      report.push(`takeover writes (leases excepted): ${writes.length} ${JSON.stringify(byKind)}`);
      for (const e of writes.slice(0, 30)) report.push(`  ${describeEvent(e)}`);
      const after = await snapshotLoad(host, members, KARMADA_PREFIX, NAMESPACES);
      const changed = diffSnapshots(karmadaState, after);
      const clusterChanges = diffSnapshots(karmadaClusters, await snapshotClusters(host));
      report.push("what the takeover changed in Karmada's objects:");
      for (const [what, d] of [...changed, ...clusterChanges])
        report.push(`  ${d.count}x ${what} (e.g. ${d.objects.join(', ')})`);
      expect(Object.keys(byKind).sort()).toEqual(Object.keys(EXPECTED_TAKEOVER_WRITES).sort());
    });

    it('warmstart writes what Karmada wrote for the same workload, field for field', async () => {
      await phase('warmstart propagates its own copy', async () => {
        await writeMigrationLoad(host, members, {
          workloads: WORKLOADS,
          namespaces: NAMESPACES,
          prefix: WARMSTART_PREFIX,
        });
        const settled = await waitFor(
          'warmstart to propagate its copy',
          () => propagated(host, WARMSTART_PREFIX),
          {
            timeoutMs: 900_000,
            intervalMs: 2000,
          },
        );
        report.push(`warmstart: ${settled}`);
        await waitDrained(manager!, 300_000);
      });
      const ours = await snapshotLoad(host, members, WARMSTART_PREFIX, NAMESPACES);
      const karmadaNow = await snapshotLoad(host, members, KARMADA_PREFIX, NAMESPACES);
      const canon = canonicalizer(
        WARMSTART_PREFIX,
        KARMADA_PREFIX,
        Array.from({ length: WORKLOADS }, (_, i) => ({
          name: workloadName(i),
          namespaceIndex: i % NAMESPACES,
        })),
      );
      const theirs = new Map([...karmadaNow].map(([k, v]) => [k, withoutUuids(v)]));
      const findings = diffSnapshots(theirs, ours, canon.key, canon.value);
      report.push('Karmada (before) vs warmstart (after) for the same workload:');
      for (const [what, d] of findings) report.push(`  ${d.count}x ${what} (e.g. ${d.objects.join(', ')})`);
      const where = [...new Set([...findings.values()].map((d) => d.example.where))].sort();
      expect(where).toEqual(Object.keys(KNOWN_DIFFERENCES).sort());
    });
  },
);
