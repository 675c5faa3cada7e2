// Issue 15, status aggregation. A Deployment propagated with a Divided policy (static weights 1:2) shows on the host
// the members' summed status, as Karmada's default interpreter aggregates it. The members here run
// kube-controller-manager's deployment, replicaset and serviceaccount controllers, so their Deployments report real
// replicas, updatedReplicas and observedGeneration; there is no scheduler or kubelet, so no pod ever becomes
// ready: readyReplicas and availableReplicas stay 0 (and the members' Deployments Unhealthy) by construction, and
// the test asserts that too. The host runs only garbagecollector and namespace, so the template's status is
// written by the manager alone, as with Karmada.
// A LoadBalancer Service propagated to both members: no member runs a cloud provider, so the test writes each
// member Service's status.loadBalancer itself (status subresource), and the host Service's status becomes the
// members' ingresses deduplicated and sorted, as Karmada's aggregateServiceStatus makes it. Then the manager is
// restarted on unchanged state, and the host's audit log must show it wrote nothing.
import { workName } from '@warmstart/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { describeWrites, isLeaseWrite, writesBy } from '../ha/audit-writes.js';
import { waitReady } from '../ha/leadership.js';
import { adminCall, deploymentBody, ensureNamespace, prepareHost } from '../ha/workload.js';
import { auditBarrier } from '../restart/scenario.js';
import { type ManagerProcess, metricValue, startManager } from './manager-process.js';

interface DeploymentStatus {
  readonly observedGeneration?: number;
  readonly replicas?: number;
  readonly updatedReplicas?: number;
  readonly readyReplicas?: number;
  readonly availableReplicas?: number;
  readonly unavailableReplicas?: number;
}
interface Deployment {
  readonly metadata: { readonly generation?: number };
  readonly status?: DeploymentStatus;
}
interface AggregatedItem {
  readonly clusterName: string;
  readonly status?: Record<string, number>;
  readonly applied?: boolean;
  readonly health?: string;
}
interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message?: string;
}
interface Binding {
  readonly metadata: { readonly resourceVersion: string };
  readonly status?: {
    readonly aggregatedStatus?: readonly AggregatedItem[];
    readonly conditions?: readonly { type: string; status: string; reason: string }[];
  };
}

const COUNTERS = [
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
] as const;

describe('status aggregation: the host Deployment shows the members’ sum', () => {
  let set: LocalClusterSet;
  let host: ClusterInfo;
  let members: ClusterInfo[];
  let manager: ManagerProcess | undefined;

  beforeAll(async () => {
    set = await new LocalProvider().up({
      clusters: 3,
      kubeControllers: (name) =>
        name === 'host'
          ? ['garbagecollector', 'namespace']
          : ['garbagecollector', 'namespace', 'deployment', 'replicaset', 'serviceaccount'],
    });
    host = set.cluster('host');
    members = [set.cluster('member1'), set.cluster('member2')];
    await prepareHost(host, members);
    manager = await startManager({
      kubeconfig: host.managerKubeconfig,
      args: ['--cluster-status-update-frequency=2s'],
    });
    await waitReady(manager, 90_000, 'the manager');
  }, 240_000);

  afterAll(async () => {
    await manager?.stop('SIGTERM');
    await set?.down();
  });

  const deploymentPath = (ns: string, name: string) => `/apis/apps/v1/namespaces/${ns}/deployments/${name}`;
  const read = async (c: ClusterInfo, ns: string, name: string) =>
    (await adminCall(c, 'GET', deploymentPath(ns, name), undefined, [200, 404])) as Deployment | undefined;

  /** The members' Deployments summed, and whether each member's controller observed its generation. */
  async function memberSum(ns: string, name: string): Promise<Record<string, number> & { observed: number }> {
    const sum = {
      replicas: 0,
      updatedReplicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      unavailableReplicas: 0,
      observed: 0,
    };
    for (const m of members) {
      const d = await read(m, ns, name);
      for (const k of COUNTERS) sum[k] += d?.status?.[k] ?? 0;
      if (d && (d.status?.observedGeneration ?? 0) >= (d.metadata.generation ?? 1)) sum.observed++;
    }
    return sum;
  }

  /** Waits until the host Deployment's status is the members' sum at `replicas`, and returns both. */
  async function waitAggregated(ns: string, name: string, replicas: number) {
    let last: { host?: DeploymentStatus; generation?: number | undefined; members?: Record<string, number> } =
      {};
    await waitFor(
      `host ${ns}/${name} status = sum of the members at ${replicas} replicas`,
      async () => {
        const sum = await memberSum(ns, name);
        const template = await read(host, ns, name);
        last = { host: template?.status ?? {}, generation: template?.metadata.generation, members: sum };
        if (sum.replicas !== replicas || sum.observed !== members.length) return false;
        const s = template?.status ?? {};
        return (
          COUNTERS.every((k) => (s[k] ?? 0) === sum[k]) &&
          s.observedGeneration === template?.metadata.generation
        );
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    ).catch((error: unknown) => {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}; last seen ${JSON.stringify(last)}`,
      );
    });
    return last;
  }

  it('Divided 1:2, 9 replicas: host status = member1 (3) + member2 (6); the binding and the Works record each member', async () => {
    const ns = `status-${Date.now().toString(36)}`;
    for (const c of [host, ...members]) await ensureNamespace(c, ns);
    await adminCall(host, 'POST', `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies`, {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'api', namespace: ns },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }],
        placement: {
          clusterAffinity: { clusterNames: members.map((m) => m.name) },
          replicaScheduling: {
            replicaSchedulingType: 'Divided',
            replicaDivisionPreference: 'Weighted',
            weightPreference: {
              staticWeightList: [
                { targetCluster: { clusterNames: [members[0]!.name] }, weight: 1 },
                { targetCluster: { clusterNames: [members[1]!.name] }, weight: 2 },
              ],
            },
          },
        },
      },
    });
    await adminCall(
      host,
      'POST',
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      deploymentBody({ namespace: ns, name: 'api', replicas: 9 }),
    );

    const first = await waitAggregated(ns, 'api', 9);
    // Real member controllers counted 3 and 6 replicas, all updated; with no kubelet none is ready or available.
    expect(first.host).toMatchObject({
      replicas: 9,
      updatedReplicas: 9,
      unavailableReplicas: 9,
      observedGeneration: first.generation,
    });
    expect(first.host?.readyReplicas ?? 0).toBe(0);
    expect(first.host?.availableReplicas ?? 0).toBe(0);

    // The binding: one item per member, sorted, with the member's reflected status; FullyApplied.
    const binding = (await adminCall(
      host,
      'GET',
      `/apis/work.karmada.io/v1alpha2/namespaces/${ns}/resourcebindings/api-deployment`,
    )) as Binding;
    const items = binding.status?.aggregatedStatus ?? [];
    expect(items.map((i) => i.clusterName)).toEqual(members.map((m) => m.name));
    expect(items.map((i) => i.status?.replicas)).toEqual([3, 6]);
    for (const item of items) {
      expect(item).toMatchObject({ applied: true, health: 'Unhealthy' });
      // The member's controller observed the member's generation; the member was applied from the template's
      // current generation (the detector's claim annotations moved it past 1: a Deployment's annotations count).
      expect(item.status?.observedGeneration).toBe(item.status?.generation);
      expect(item.status?.resourceTemplateGeneration).toBe(first.generation);
    }
    // Both writers' conditions, in Karmada's order: neither write dropped the other's.
    expect(binding.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['Scheduled', 'True', 'Success'],
      ['FullyApplied', 'True', 'FullyAppliedSuccess'],
    ]);

    // What the controllers' conditions writes rely on: the API server refuses a /status merge patch that names
    // a resourceVersion the binding has moved past, so a list computed from a stale cache never lands.
    const bindingStatusPath = `/apis/work.karmada.io/v1alpha2/namespaces/${ns}/resourcebindings/api-deployment/status`;
    const stale = String(Number(binding.metadata.resourceVersion) - 1);
    await adminCall(
      host,
      'PATCH',
      bindingStatusPath,
      {
        metadata: { resourceVersion: stale },
        status: { conditions: binding.status?.conditions?.slice(0, 1) },
      },
      [409],
      'application/merge-patch+json',
    );
    const kept = (await adminCall(host, 'GET', bindingStatusPath)) as Binding;
    expect(kept.status?.conditions?.map((c) => c.type)).toEqual(['Scheduled', 'FullyApplied']);

    // Each member's Work: Karmada's identifier (resource left empty) and the reflected status.
    const name = workName('Deployment', 'api', ns);
    for (const [i, m] of members.entries()) {
      const work = (await adminCall(
        host,
        'GET',
        `/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-${m.name}/works/${name}`,
      )) as {
        status?: {
          conditions?: Condition[];
          manifestStatuses?: { identifier: unknown; status?: Record<string, number>; health?: string }[];
        };
      };
      // Karmada's two Work conditions, Dispatching first (the execution controller writes it before applying).
      expect(
        work.status?.conditions?.map(({ type, status, reason, message }) => ({
          type,
          status,
          reason,
          message,
        })),
      ).toEqual([
        {
          type: 'Dispatching',
          status: 'True',
          reason: 'Dispatching',
          message: 'Work is being dispatched to member clusters.',
        },
        {
          type: 'Applied',
          status: 'True',
          reason: 'AppliedSuccessful',
          message: 'Manifest has been successfully applied',
        },
      ]);
      expect(work.status?.manifestStatuses).toEqual([
        {
          identifier: {
            ordinal: 0,
            group: 'apps',
            version: 'v1',
            kind: 'Deployment',
            resource: '',
            namespace: ns,
            name: 'api',
          },
          status: expect.objectContaining({ replicas: [3, 6][i], updatedReplicas: [3, 6][i] }),
          health: 'Unhealthy',
        },
      ]);
    }

    // A change on the host: 12 replicas at 1:2 are 4 and 8; the sum and observedGeneration follow.
    await adminCall(
      host,
      'PATCH',
      deploymentPath(ns, 'api'),
      { spec: { replicas: 12 } },
      [200],
      'application/merge-patch+json',
    );
    const second = await waitAggregated(ns, 'api', 12);
    expect(second.generation).toBeGreaterThan(first.generation ?? 0);
    expect(second.host).toMatchObject({
      replicas: 12,
      updatedReplicas: 12,
      observedGeneration: second.generation,
    });
  });

  it('suspended dispatching: each Work says Dispatching=False (SuspendDispatching) and keeps Applied; resumed, True again', async () => {
    const ns = `suspend-${Date.now().toString(36)}`;
    for (const c of [host, ...members]) await ensureNamespace(c, ns);
    const policyPath = `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies`;
    await adminCall(host, 'POST', policyPath, {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'web', namespace: ns },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        placement: {
          clusterAffinity: { clusterNames: members.map((m) => m.name) },
          replicaScheduling: { replicaSchedulingType: 'Duplicated' },
        },
      },
    });
    await adminCall(
      host,
      'POST',
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      deploymentBody({ namespace: ns, name: 'web', replicas: 1 }),
    );
    const name = workName('Deployment', 'web', ns);
    const conditionsOf = async (m: ClusterInfo) => {
      const w = (await adminCall(
        host,
        'GET',
        `/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-${m.name}/works/${name}`,
        undefined,
        [200, 404],
      )) as { status?: { conditions?: Condition[] } } | undefined;
      return (w?.status?.conditions ?? []).map((c) => `${c.type}=${c.status}/${c.reason}`);
    };
    const waitConditions = async (want: readonly string[]) => {
      let last: string[][] = [];
      await waitFor(
        `the Works of ${ns}/web to have ${want.join(', ')}`,
        async () => {
          last = await Promise.all(members.map(conditionsOf));
          return last.every((l) => JSON.stringify(l) === JSON.stringify(want));
        },
        { timeoutMs: 60_000, intervalMs: 250 },
      ).catch((error: unknown) => {
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}; last ${JSON.stringify(last)}`,
        );
      });
    };
    await waitConditions(['Dispatching=True/Dispatching', 'Applied=True/AppliedSuccessful']);

    const suspend = async (dispatching: boolean) =>
      adminCall(
        host,
        'PATCH',
        `${policyPath}/web`,
        { spec: { suspension: dispatching ? { dispatching: true } : null } },
        [200],
        'application/merge-patch+json',
      );
    await suspend(true);
    await waitConditions(['Dispatching=False/SuspendDispatching', 'Applied=True/AppliedSuccessful']);
    await suspend(false);
    await waitConditions(['Dispatching=True/Dispatching', 'Applied=True/AppliedSuccessful']);
  });

  it('a LoadBalancer Service: the host status is the members’ ingresses, deduplicated and sorted; a no-change restart writes nothing', async () => {
    const started = Date.now();
    const ns = `lb-${Date.now().toString(36)}`;
    for (const c of [host, ...members]) await ensureNamespace(c, ns);
    await adminCall(host, 'POST', `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies`, {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'lb', namespace: ns },
      spec: {
        resourceSelectors: [{ apiVersion: 'v1', kind: 'Service', name: 'lb' }],
        placement: { clusterAffinity: { clusterNames: members.map((m) => m.name) } },
      },
    });
    await adminCall(host, 'POST', `/api/v1/namespaces/${ns}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'lb', namespace: ns },
      spec: { type: 'LoadBalancer', selector: { app: 'lb' }, ports: [{ port: 80, protocol: 'TCP' }] },
    });
    const servicePath = `/api/v1/namespaces/${ns}/services/lb`;
    type Service = { status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } } };
    // A 404 answers a Status object: only a Service counts as found.
    const readService = async (c: ClusterInfo) => {
      const body = (await adminCall(c, 'GET', servicePath, undefined, [200, 404])) as
        | (Service & { kind?: string })
        | undefined;
      return body?.kind === 'Service' ? body : undefined;
    };
    const addresses = (s: Service | undefined) =>
      (s?.status?.loadBalancer?.ingress ?? []).map((i) => i.hostname ?? i.ip ?? '');
    const setMemberIngress = async (m: ClusterInfo, ingress: { ip?: string; hostname?: string }[]) => {
      await adminCall(
        m,
        'PATCH',
        `${servicePath}/status`,
        { status: { loadBalancer: { ingress } } },
        [200],
        'application/merge-patch+json',
      );
    };
    const waitHost = async (want: string[]) => {
      let seen: string[] = [];
      await waitFor(
        `host Service ${ns}/lb ingress = ${JSON.stringify(want)}`,
        async () => {
          seen = addresses(await readService(host));
          return JSON.stringify(seen) === JSON.stringify(want);
        },
        { timeoutMs: 60_000, intervalMs: 300 },
      ).catch((error: unknown) => {
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}; last seen ${JSON.stringify(seen)}`,
        );
      });
    };

    for (const m of members) {
      await waitFor(`Service ${ns}/lb on ${m.name}`, async () => (await readService(m)) !== undefined, {
        timeoutMs: 60_000,
        intervalMs: 300,
      });
    }
    // Before any member has an address the host shows none (and both members' Services are Unhealthy).
    await setMemberIngress(members[0]!, [{ ip: '192.0.2.20' }]);
    await setMemberIngress(members[1]!, [
      { ip: '192.0.2.10' },
      { ip: '192.0.2.20' },
      { hostname: 'lb.m2.example' },
    ]);
    // Hostnames first, then IPs in order; 192.0.2.20, reported by both members, once.
    await waitHost(['lb.m2.example', '192.0.2.10', '192.0.2.20']);

    type Aggregated = { clusterName: string; status?: Service['status']; health?: string };
    const aggregated = async (): Promise<Aggregated[]> =>
      (
        (await adminCall(
          host,
          'GET',
          `/apis/work.karmada.io/v1alpha2/namespaces/${ns}/resourcebindings/lb-service`,
        )) as { status?: { aggregatedStatus?: Aggregated[] } }
      ).status?.aggregatedStatus ?? [];
    // The host list above is already complete with member2's ingresses alone (it reports 192.0.2.20 too), so
    // member1's item may still be on its way: wait for both members' items to carry an address.
    const items = await waitFor(
      'both members Healthy in the binding',
      async () => {
        const now = await aggregated();
        return now.length === members.length && now.every((i) => i.health === 'Healthy') ? now : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 300 },
    ).catch(async (error: unknown) => {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}; last: ${JSON.stringify(await aggregated())}`,
      );
    });
    expect(items.map((i) => i.clusterName)).toEqual(members.map((m) => m.name));
    expect(items.map((i) => i.health)).toEqual(['Healthy', 'Healthy']);
    // The reflected status is status.loadBalancer alone, as the member has it.
    expect(items.map((i) => addresses({ status: i.status ?? {} }))).toEqual([
      ['192.0.2.20'],
      ['192.0.2.10', '192.0.2.20', 'lb.m2.example'],
    ]);

    // A member's address changes: the host status is replaced, the old entries gone.
    await setMemberIngress(members[1]!, [{ ip: '192.0.2.30' }]);
    await waitHost(['192.0.2.20', '192.0.2.30']);

    // Restart on unchanged state: once the status controllers have gone over every binding and Work again, the
    // host's audit log holds no write by the manager but its Lease.
    // The audit query sees the manager's writes: before the restart it patched the host Service's status.
    await auditBarrier(host);
    const before = await writesBy(host.auditLogPath!, host.managerUser, started);
    expect(
      before.filter((w) => w.resource.endsWith('services/status') && w.name === 'lb').length,
    ).toBeGreaterThan(0);
    await manager?.stop('SIGTERM');
    const since = Date.now();
    manager = await startManager({
      kubeconfig: host.managerKubeconfig,
      args: ['--cluster-status-update-frequency=2s'],
    });
    await waitReady(manager, 90_000, 'the restarted manager');
    const restarted = manager;
    await waitFor(
      'the status controllers to go over both bindings and the four Works, and the queues to drain',
      async () => {
        const text = await restarted.metrics();
        const reconciles = (controller: string) =>
          metricValue(text, 'controller_runtime_reconcile_total', { controller });
        return (
          reconciles('resource-binding-status') >= 2 &&
          reconciles('work-status') >= 4 &&
          metricValue(text, 'workqueue_depth') === 0
        );
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    await auditBarrier(host);
    const writes = (await writesBy(host.auditLogPath!, host.managerUser, since)).filter(
      (w) => !isLeaseWrite(w),
    );
    expect(writes, describeWrites(writes)).toEqual([]);
    expect(addresses(await readService(host))).toEqual(['192.0.2.20', '192.0.2.30']);
  });
});
