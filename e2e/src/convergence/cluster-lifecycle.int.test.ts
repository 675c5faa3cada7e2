// Issue 19, the Cluster lifecycle against the built manager on the shared set: a Cluster whose apiEndpoint does
// not parse gets Ready=False with a reason and a Warning Event (no stack trace, no retry loop); a deleted member
// Cluster leaves nothing behind (execution namespace, Works, the workload on the member) and its binding moves
// to the other member; a member that cannot be reached while its Cluster is removed is reported, and the
// removal still ends. The removed member is joined again at the end, for the files that run after this one.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type BadInputSet,
  bindings,
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
  waitForEvent,
} from '../badinput/fixture.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { PausableProxy } from '../informer/pausable-proxy.js';
import { CLUSTER_SECRET_NAMESPACE, joinMember } from '../karmada/join.js';
import type { ManagerProcess } from '../manager/manager-process.js';

const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const IDENTITY = 'convergence-clusters';

interface ClusterObject extends KubeObject {
  readonly metadata: KubeObject['metadata'] & { readonly finalizers?: readonly string[] };
  readonly status?: {
    readonly conditions?: readonly { type: string; status: string; reason: string; message: string }[];
  };
}

interface Binding extends KubeObject {
  readonly spec: { readonly clusters?: readonly { name: string; replicas?: number }[] };
}

/** What a removal that did not end left behind, for the assertion message. */
async function removalState(set: BadInputSet, manager: ManagerProcess, name: string): Promise<string> {
  const es = `karmada-es-${name}`;
  const cluster = await set.host.get<ClusterObject>(`${CLUSTERS}/${name}`);
  const ns = await set.host.get<KubeObject & { status?: unknown }>(`/api/v1/namespaces/${es}`);
  const works = ns
    ? await set.host.list<KubeObject>(`/apis/work.karmada.io/v1alpha1/namespaces/${es}/works`)
    : [];
  const events = (await set.host.list<KubeEvent>('/api/v1/namespaces/default/events')).filter(
    (e) => e.involvedObject.name === name,
  );
  const logs = manager.logs().filter((l) => l.includes(name) || l.includes('"level":50'));
  return JSON.stringify(
    {
      cluster: cluster && { metadata: cluster.metadata, status: cluster.status },
      namespace: ns && { metadata: ns.metadata, status: ns.status },
      works: works.map((w) => w.metadata),
      events: events.map((e) => `${e.type} ${e.reason}: ${e.message}`),
      logs: logs.slice(-30),
    },
    null,
    1,
  );
}

const ready = (c: ClusterObject | undefined) => c?.status?.conditions?.find((x) => x.type === 'Ready');

describe('Cluster lifecycle', () => {
  let set: BadInputSet;
  let manager: ManagerProcess;
  let livez: LivezWatch;
  let infos: readonly ClusterInfo[];
  const created: string[] = [];
  const extraClusters: string[] = [];
  let proxy: PausableProxy | undefined;

  beforeAll(async () => {
    infos = inject('clusters');
    set = await prepareSet(infos);
    // A member cut off is marked not Ready after 3 s of failed checks, not Karmada's default 30 s.
    manager = await startReadyManager(set, IDENTITY, ['--cluster-failure-threshold=3s']);
    livez = new LivezWatch(manager);
  });

  afterAll(async () => {
    livez?.stop();
    await proxy?.close();
    for (const name of extraClusters) await set.host.delete(`${CLUSTERS}/${name}`);
    // The removed member comes back for the files that run after this one.
    await joinMember(infos[0]!, infos[2]!);
    if (manager) {
      await waitFor(
        `${infos[2]!.name} Ready again`,
        async () =>
          ready(await set.host.get<ClusterObject>(`${CLUSTERS}/${infos[2]!.name}`))?.status === 'True',
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      await removeNamespaces(set, created, 60_000);
      for (const name of extraClusters)
        await waitFor(`Cluster ${name} gone`, async () => !(await set.host.get(`${CLUSTERS}/${name}`)), {
          timeoutMs: 60_000,
          intervalMs: 250,
        });
    }
    await manager?.stop('SIGTERM');
  }, 240_000);

  it('gives a Cluster whose apiEndpoint does not parse Ready=False, a reason and a Warning Event, and no stack trace', async () => {
    const name = 'bad-endpoint';
    extraClusters.push(name);
    await set.host.create(CLUSTERS, {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: {
        syncMode: 'Push',
        apiEndpoint: 'https://[member-with-a-typo:6443',
        secretRef: { namespace: CLUSTER_SECRET_NAMESPACE, name: infos[1]!.name },
      },
    });
    const condition = await waitFor(
      'Ready=False on the Cluster',
      async () => ready(await set.host.get<ClusterObject>(`${CLUSTERS}/${name}`)),
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(condition).toMatchObject({ status: 'False', reason: 'InvalidAPIEndpoint' });
    expect(condition.message).toContain('"https://[member-with-a-typo:6443" is not a URL');
    const event = await waitForEvent(set.host, 'default', {
      kind: 'Cluster',
      name,
      reason: 'ClusterNotUsable',
    });
    expect(event.type).toBe('Warning');
    expect(event.message).toBe(condition.message);
    // The finalizer is there, as on every Cluster the manager looks after.
    expect((await set.host.get<ClusterObject>(`${CLUSTERS}/${name}`))?.metadata.finalizers).toContain(
      'karmada.io/cluster-controller',
    );
    // No retry loop: the manager does not reconcile it again while nothing changes, and logs no stack trace.
    const before = manager.logs().length;
    await new Promise((r) => setTimeout(r, 3_000)); // an observation window, not a synchronisation
    const lines = manager
      .logs()
      .slice(before)
      .filter((l) => l.includes(name));
    expect(lines).toEqual([]);
    expect(manager.logs().filter((l) => l.includes('Invalid URL') || l.includes('TypeError'))).toEqual([]);
  });

  it('names a fieldSelector key that is not a Cluster field in a ScheduleBindingFailed Event', async () => {
    const ns = await uniqueNamespace(set, 'fieldsel', created);
    await set.host.create(deployments(ns), deployment(ns, 'web', 1));
    await set.host.create(
      policies(ns),
      propagationPolicy(ns, 'web', [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], [], {
        placement: {
          clusterAffinity: {
            fieldSelector: { matchExpressions: [{ key: 'regoin', operator: 'In', values: ['east'] }] },
          },
        },
      }),
    );
    const event = await waitForEvent(set.host, ns, {
      kind: 'Deployment',
      name: 'web',
      reason: 'ScheduleBindingFailed',
    });
    expect(event.type).toBe('Warning');
    expect(event.message).toContain('key "regoin" is not a Cluster field');
  });

  it('removes a deleted member Cluster: namespace, Works and the member workload go, and the binding moves', async () => {
    const [m1, m2] = [infos[1]!, infos[2]!];
    const ns = await uniqueNamespace(set, 'remove', created);
    await set.host.create(deployments(ns), deployment(ns, 'web', 4));
    await set.host.create(
      policies(ns),
      propagationPolicy(
        ns,
        'web',
        [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        [m1.name, m2.name],
        {
          placement: {
            clusterAffinity: { clusterNames: [m1.name, m2.name] },
            replicaScheduling: {
              replicaSchedulingType: 'Divided',
              replicaDivisionPreference: 'Weighted',
              weightPreference: {
                staticWeightList: [
                  { targetCluster: { clusterNames: [m1.name] }, weight: 1 },
                  { targetCluster: { clusterNames: [m2.name] }, weight: 1 },
                ],
              },
            },
          },
        },
      ),
    );
    const replicasOn = async (i: number) =>
      (await set.members[i]!.get<KubeObject & { spec: { replicas: number } }>(`${deployments(ns)}/web`))?.spec
        .replicas;
    await waitFor(
      'web split 2/2 over both members',
      async () => (await replicasOn(0)) === 2 && (await replicasOn(1)) === 2,
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    );
    const esNamespace = `karmada-es-${m2.name}`;
    const started = Date.now();
    await set.host.delete(`${CLUSTERS}/${m2.name}`);
    await waitFor(`Cluster ${m2.name} gone`, async () => !(await set.host.get(`${CLUSTERS}/${m2.name}`)), {
      timeoutMs: 90_000,
      intervalMs: 250,
    }).catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await removalState(set, manager, m2.name)}`);
    });
    const removalMs = Date.now() - started;
    console.log(`[cluster-removal] ${m2.name} removed in ${(removalMs / 1000).toFixed(1)} s`);
    expect(await set.host.get(`/api/v1/namespaces/${esNamespace}`)).toBeUndefined();
    expect(await set.host.count(`/apis/work.karmada.io/v1alpha1/namespaces/${esNamespace}/works`)).toBe(0);
    expect(await replicasOn(1)).toBeUndefined();
    // The binding moved: it targets member1 only, which now runs all 4 replicas.
    const binding = await set.host.get<Binding>(`${bindings(ns)}/web-deployment`);
    expect(binding?.spec.clusters).toEqual([{ name: m1.name, replicas: 4 }]);
    await waitFor('4 replicas on the remaining member', async () => (await replicasOn(0)) === 4, {
      timeoutMs: 30_000,
      intervalMs: 250,
    });
  });

  it('reports a member that cannot be reached while its Cluster is removed, and still ends the removal', async () => {
    const m1 = infos[1]!;
    proxy = await PausableProxy.start(m1.server);
    const name = `${m1.name}-via-proxy`;
    extraClusters.push(name);
    await set.host.create(CLUSTERS, {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name },
      spec: {
        syncMode: 'Push',
        apiEndpoint: proxy.url,
        secretRef: { namespace: CLUSTER_SECRET_NAMESPACE, name: m1.name },
      },
    });
    await waitFor(
      'the proxied Cluster Ready',
      async () => ready(await set.host.get<ClusterObject>(`${CLUSTERS}/${name}`))?.status === 'True',
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    );
    const ns = await uniqueNamespace(set, 'unreach', created);
    await set.host.create(deployments(ns), deployment(ns, 'job', 1));
    await set.host.create(
      policies(ns),
      propagationPolicy(ns, 'job', [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'job' }], [name]),
    );
    await waitFor(
      'job on member1 through the proxy',
      async () => (await set.members[0]!.get(`${deployments(ns)}/job`)) !== undefined,
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    );
    proxy.cut();
    const started = Date.now();
    await set.host.delete(`${CLUSTERS}/${name}`);
    await waitForEvent(
      set.host,
      'default',
      { kind: 'Cluster', name, reason: 'MemberUnreachableDuringRemoval' },
      60_000,
    );
    await waitFor(`Cluster ${name} gone`, async () => !(await set.host.get(`${CLUSTERS}/${name}`)), {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    console.log(
      `[cluster-removal] unreachable ${name} removed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(await set.host.get(`/api/v1/namespaces/karmada-es-${name}`)).toBeUndefined();
    // As the Event says: what could not be reached is left on the member.
    expect(await set.members[0]!.get(`${deployments(ns)}/job`)).toBeDefined();
    await set.members[0]!.delete(`${deployments(ns)}/job`);
  });
});
