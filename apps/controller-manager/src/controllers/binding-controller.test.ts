// The binding controller against an in-process API server, when an OverridePolicy does not apply for one target
// cluster of three. Karmada f8fdd02df3760fd9521624f284877fa84e7be6ef, syncBinding (pkg/controllers/binding/
// binding_controller.go): removeOrphanWorks first, then ensureWork (common.go), which skips the failing cluster
// and writes the others' Works, then SyncWorkFailed on the binding and the template with the aggregate error;
// the override manager adds ApplyOverridePolicyFailed on the template. No condition is set on the binding; the
// error requeues it with backoff. The failing cluster's existing Work is neither updated nor deleted.
import { BuiltinResources, KarmadaResources, workName } from '@warmstart/api';
import { FakeApiServer, type RecordedRequest } from '@warmstart/informer-cache/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { bindingControllers } from './binding-controller.js';
import { fakeServerContext } from './testing/fake-server-context.js';
import { cluster } from './testing/fixtures.js';

const { Deployment, Event } = BuiltinResources;
const { ResourceBinding, ClusterResourceBinding, Work, Cluster, OverridePolicy, ClusterOverridePolicy } =
  KarmadaResources;
const NAME = workName('Deployment', 'nginx', 'default');
const ID = { 'resourcebinding.karmada.io/permanent-id': 'rb-id-1' };
const REFERENCE = {
  'resourcebinding.karmada.io/namespace': 'default',
  'resourcebinding.karmada.io/name': 'nginx-deployment',
};

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const existingWork = (namespace: string) => ({
  apiVersion: 'work.karmada.io/v1alpha1',
  kind: 'Work',
  metadata: { name: NAME, namespace, labels: ID, annotations: REFERENCE },
  spec: {
    workload: { manifests: [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'stale' } }] },
  },
});

async function start(before: (server: FakeApiServer) => void = () => {}) {
  const server = await FakeApiServer.start();
  cleanup.push(() => server.close());
  for (const gvr of [
    Deployment,
    ResourceBinding,
    ClusterResourceBinding,
    Work,
    Cluster,
    OverridePolicy,
    ClusterOverridePolicy,
    Event,
  ])
    server.addResource(gvr);
  for (const name of ['member1', 'member2', 'member3']) server.create(Cluster, cluster(name));
  server.create(Deployment, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx', namespace: 'default', uid: 'template-uid' },
    spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
  });
  server.create(OverridePolicy, {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'OverridePolicy',
    metadata: { name: 'broken', namespace: 'default' },
    spec: {
      overrideRules: [
        {
          targetCluster: { clusterNames: ['member2'] },
          overriders: { plaintext: [{ path: '/spec/nothing/here', operator: 'replace', value: 1 }] },
        },
      ],
    },
  });
  // member2's Work from before the policy broke it, and a Work on a cluster the binding no longer targets.
  server.create(Work, existingWork('karmada-es-member2'));
  server.create(Work, existingWork('karmada-es-gone'));
  server.create(ResourceBinding, {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'nginx-deployment', namespace: 'default', labels: ID },
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'nginx' },
      clusters: [{ name: 'member3' }, { name: 'member2' }, { name: 'member1' }],
    },
  });

  before(server);
  const { ctx, manager } = fakeServerContext(server);
  // The detector registers the template's informer in the manager; here the test does.
  manager.informers.forResource(Deployment);
  bindingControllers(ctx);
  const stop = new AbortController();
  const running = manager.run(stop.signal);
  cleanup.push(async () => {
    stop.abort();
    await running;
  });
  return server;
}

const eventCreate = (kind: string, reason: string) => (r: RecordedRequest) =>
  r.method === 'POST' &&
  r.resource === 'core/v1/events' &&
  (JSON.parse(r.body) as { involvedObject: { kind: string }; reason: string }).involvedObject.kind === kind &&
  (JSON.parse(r.body) as { reason: string }).reason === reason;
const workWrite = (r: RecordedRequest) =>
  r.resource === 'work.karmada.io/v1alpha1/works' && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method);

/** The first round's Work writes and its SyncWorkFailed Event on `kind`, in the order sent, as `METHOD namespace`. */
async function firstRound(server: FakeApiServer, kind: string): Promise<string[]> {
  await server.waitForRequest(eventCreate(kind, 'SyncWorkFailed'));
  return server
    .requestsWhere((r) => workWrite(r) || eventCreate(kind, 'SyncWorkFailed')(r))
    .slice(0, 4)
    .map((r) => `${r.method} ${r.namespace ?? ''}`);
}
const ROUND = [
  'DELETE karmada-es-gone',
  'POST karmada-es-member1',
  'POST karmada-es-member3',
  'POST default',
];

describe('binding controller: a Work write that fails for one cluster', () => {
  it('still writes the other clusters’ Works and reports the refused write as SyncWorkFailed', async () => {
    // Karmada's ensureWork appends CreateOrUpdateWork's error and continues with the next cluster. Here member1's
    // Work create is refused; member3's must still be created in the same round.
    const server = await start((s) =>
      s.fault(
        { verb: 'create', match: (r) => r.namespace === 'karmada-es-member1' },
        { code: 500, message: 'etcd is down', times: Number.POSITIVE_INFINITY },
      ),
    );
    const onBinding = JSON.parse(
      (await server.waitForRequest(eventCreate('ResourceBinding', 'SyncWorkFailed'))).body,
    ) as { type: string; message: string };
    expect(await firstRound(server, 'ResourceBinding')).toEqual(ROUND);
    expect(server.get(Work, `karmada-es-member3/${NAME}`)).toBeDefined();
    // Both causes in one aggregate, the override's first: Karmada's errors.NewAggregate.
    expect(onBinding.type).toBe('Warning');
    expect(onBinding.message).toMatch(
      /^\[cannot apply override policy default\/broken for cluster member2: .*etcd is down.*\]$/,
    );
  });
});

describe('binding controller: an override that fails for one cluster of three', () => {
  it('deletes the orphan first, writes the other clusters’ Works, leaves the failing one’s, and warns', async () => {
    const server = await start();
    const onTemplate = JSON.parse(
      (await server.waitForRequest(eventCreate('Deployment', 'SyncWorkFailed'))).body,
    ) as { type: string; message: string };
    const onBinding = JSON.parse(
      (await server.waitForRequest(eventCreate('ResourceBinding', 'SyncWorkFailed'))).body,
    ) as { type: string; message: string };

    // Up to the first SyncWorkFailed, in the order sent: Karmada's removeOrphanWorks, then ensureWork's writes.
    expect(await firstRound(server, 'Deployment')).toEqual(ROUND);
    // member2 targeted, its Work never written nor deleted.
    expect(server.requestsWhere((r) => workWrite(r) && r.namespace === 'karmada-es-member2')).toEqual([]);
    expect(server.get(Work, `karmada-es-member2/${NAME}`)).toMatchObject(existingWork('karmada-es-member2'));

    const applyFailed = JSON.parse(
      (await server.waitForRequest(eventCreate('Deployment', 'ApplyOverridePolicyFailed'), 2_000)).body,
    ) as { type: string; message: string };
    expect(applyFailed).toMatchObject({
      type: 'Warning',
      message: 'Apply override policy(default/broken) for cluster(member2) failed.',
    });
    const want = {
      type: 'Warning',
      message: expect.stringMatching(/^cannot apply override policy default\/broken for cluster member2: /),
    };
    expect(onTemplate).toMatchObject(want);
    expect(onBinding).toMatchObject(want);
    expect(onBinding.message).toBe(onTemplate.message);

    // No condition: nothing writes the binding (Karmada's binding controller has none to set).
    expect(
      server.requestsWhere(
        (r) => r.resource === 'work.karmada.io/v1alpha2/resourcebindings' && r.method !== 'GET',
      ),
    ).toEqual([]);
  });

  it('an orphan that cannot be deleted: CleanupWorkFailed on the binding, and no Work written', async () => {
    // Karmada's syncBinding returns when removeOrphanWorks fails, before ensureWork.
    const server = await start((s) =>
      s.fault(
        { verb: 'delete', match: (r) => r.namespace === 'karmada-es-gone' },
        { code: 500, message: 'etcd is down', times: Number.POSITIVE_INFINITY },
      ),
    );
    const event = JSON.parse(
      (await server.waitForRequest(eventCreate('ResourceBinding', 'CleanupWorkFailed'), 3_000)).body,
    ) as { type: string; message: string };
    expect(event).toMatchObject({ type: 'Warning', message: expect.stringContaining('etcd is down') });
    expect(server.requestsWhere((r) => workWrite(r) && r.method !== 'DELETE')).toEqual([]);
    expect(server.requestsWhere(eventCreate('Deployment', 'SyncWorkFailed'))).toEqual([]);
  });
});
