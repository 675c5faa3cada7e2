import {
  Annotations,
  BuiltinResources,
  type ClusterPropagationPolicy,
  type ClusterResourceBinding,
  Finalizers,
  KarmadaResources,
  Labels,
  type PropagationPolicy,
  type ResourceBinding,
  type UnstructuredObject,
} from '@warmstart/api';
import type { FakeObjectInput } from '@warmstart/informer-cache/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DetectorStateError } from './errors.js';
import { EventReasons } from './events.js';
import { DetectorFixture, discovered } from './testing/detector-fixture.js';
import { all, byLabels, byName, clusterRole, cpp, deployment, pp } from './testing/fixtures.js';

const { Deployment, ConfigMap, ClusterRole } = BuiltinResources;
const { PropagationPolicy: PP, ClusterPropagationPolicy: CPP, ResourceBinding: RB } = KarmadaResources;
const CRB = KarmadaResources.ClusterResourceBinding;

let f: DetectorFixture;
beforeEach(async () => {
  f = await DetectorFixture.start();
});
afterEach(async () => {
  await f.close();
});

const input = (o: object): FakeObjectInput => o as unknown as FakeObjectInput;

function createDeployment(name: string, options: Parameters<typeof deployment>[1] = {}): UnstructuredObject {
  const { uid: _u, resourceVersion: _rv, ...metadata } = deployment(name, options).metadata;
  return f.server.create(
    Deployment,
    input({ ...deployment(name, options), metadata }),
  ) as unknown as UnstructuredObject;
}

/** A policy as a user creates it: no permanent id, no finalizer (there is no webhook). */
function createPolicy(policy: PropagationPolicy): PropagationPolicy {
  return f.server.create(PP, input(policy)) as unknown as PropagationPolicy;
}

function createClusterPolicy(policy: ClusterPropagationPolicy): ClusterPropagationPolicy {
  return f.server.create(CPP, input(policy)) as unknown as ClusterPropagationPolicy;
}

function updateSpec<T extends PropagationPolicy | ClusterPropagationPolicy>(
  gvr: typeof PP | typeof CPP,
  key: string,
  change: (spec: T['spec']) => T['spec'],
): void {
  const current = f.object<T>(gvr, key)!;
  f.server.update(gvr, input({ ...current, spec: change(current.spec) }));
}

const binding = (key: string) => f.object<ResourceBinding>(RB, key);
const template = (key: string) => f.object<UnstructuredObject>(Deployment, key);
const policy = (key: string) => f.object<PropagationPolicy>(PP, key);

describe('ResourceDetector', () => {
  it('claims a template and writes its binding, whichever of template and policy comes first', async () => {
    const running = await f.run();
    createDeployment('early', { labels: { app: 'web' } });
    await running.idle();
    createPolicy(
      pp('web', [byLabels({ matchLabels: { app: 'web' } })], {
        id: null,
        spec: { placement: { clusterAffinity: { clusterNames: ['member1'] } } },
      }),
    );
    const early = await f.eventually(() => binding('default/early-deployment'), 5_000, 'binding of early');
    createDeployment('late', { labels: { app: 'web' } });
    await f.eventually(() => binding('default/late-deployment'), 5_000, 'binding of late');
    await running.idle();

    const stored = policy('default/web')!;
    const id = stored.metadata.labels?.[Labels.PropagationPolicyPermanentId];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.metadata.finalizers).toEqual([Finalizers.PropagationPolicy]);

    const claimed = template('default/early')!;
    expect(claimed.metadata.labels).toEqual({ app: 'web', [Labels.PropagationPolicyPermanentId]: id });
    expect(claimed.metadata.annotations).toEqual({
      [Annotations.PropagationPolicyNamespace]: 'default',
      [Annotations.PropagationPolicyName]: 'web',
    });
    const final = binding('default/early-deployment')!;
    // The binding's own permanent id, as Karmada's binding webhook sets it on create.
    expect(final.metadata.labels).toEqual({
      [Labels.PropagationPolicyPermanentId]: id,
      [Labels.ResourceBindingPermanentId]: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(final.metadata.annotations).toEqual(claimed.metadata.annotations);
    expect(final.metadata.finalizers).toEqual([Finalizers.ResourceBinding]);
    expect(final.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'early',
        uid: claimed.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(final.spec).toEqual({
      resource: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'default',
        name: 'early',
        uid: claimed.metadata.uid,
        resourceVersion: claimed.metadata.resourceVersion,
      },
      replicas: 2,
      placement: { clusterAffinity: { clusterNames: ['member1'] } },
    });
    expect(early.metadata.name).toBe('early-deployment');

    // Template metadata is written as a merge patch of only the claim keys, conditional on the resourceVersion.
    const claimPatch = f.server.requests.find(
      (r) => r.verb === 'patch' && r.resource === 'apps/v1/deployments' && r.name === 'late',
    )!;
    expect(claimPatch.headers['content-type']).toBe('application/merge-patch+json');
    const body = JSON.parse(claimPatch.body) as { metadata: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['metadata']);
    expect(Object.keys(body.metadata).sort()).toEqual(['annotations', 'labels', 'resourceVersion']);
    expect(f.server.requests.filter((r) => r.verb === 'get')).toEqual([]);
  });

  it('updates the binding when the policy changes, leaving spec.clusters and status alone', async () => {
    const running = await f.run();
    createDeployment('web');
    createPolicy(pp('web', [byName('web')], { id: null }));
    const first = await f.eventually(() => binding('default/web-deployment'));
    // What the scheduler and the binding controller write.
    f.server.update(
      RB,
      input({
        ...first,
        spec: { ...first.spec, clusters: [{ name: 'member1', replicas: 2 }] },
        status: { schedulerObservedGeneration: 1 },
      }),
    );
    await running.idle();
    updateSpec<PropagationPolicy>(PP, 'default/web', (spec) => ({
      ...spec,
      placement: { clusterAffinity: { clusterNames: ['member2'] } },
      conflictResolution: 'Overwrite',
    }));
    const updated = await f.eventually(() => {
      const b = binding('default/web-deployment');
      return b?.spec.conflictResolution === 'Overwrite' ? b : undefined;
    });
    expect(updated.spec.placement).toEqual({ clusterAffinity: { clusterNames: ['member2'] } });
    expect(updated.spec.clusters).toEqual([{ name: 'member1', replicas: 2 }]);
    expect(updated.status).toEqual({ schedulerObservedGeneration: 1 });
  });

  it('on policy deletion releases the binding, then the template, then drops its finalizer', async () => {
    const running = await f.run();
    createDeployment('web');
    createPolicy(pp('web', [all()], { id: null }));
    await f.eventually(() => binding('default/web-deployment'));
    await running.idle();
    const before = f.server.requests.length;
    const stored = policy('default/web')!;
    f.server.update(
      PP,
      input({ ...stored, metadata: { ...stored.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }),
    );
    await f.eventually(() => (policy('default/web')?.metadata.finalizers ?? []).length === 0);

    const order = f.writesSince(before).map((r) => `${r.verb} ${r.resource} ${r.name}`);
    expect(order).toEqual([
      'patch work.karmada.io/v1alpha2/resourcebindings web-deployment',
      'patch apps/v1/deployments web',
      'patch policy.karmada.io/v1alpha1/propagationpolicies web',
    ]);
    // Released: the policy's claim is gone; the binding keeps its own permanent id.
    expect(binding('default/web-deployment')!.metadata.labels ?? {}).toEqual({
      [Labels.ResourceBindingPermanentId]: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(binding('default/web-deployment')!.metadata.annotations ?? {}).toEqual({});
    expect(template('default/web')!.metadata.labels ?? {}).toEqual({});
  });

  it('keeps a template waiting until a policy matches it, then binds it (cluster policy, ClusterResourceBinding)', async () => {
    const running = await f.run();
    f.server.create(ClusterRole, input({ ...clusterRole('reader'), metadata: { name: 'reader' } }));
    await running.idle();
    expect(running.detector.waitingTemplates).toBe(1);
    createClusterPolicy(
      cpp('roles', [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }], { id: null }),
    );
    const crb = await f.eventually(() => f.object<ClusterResourceBinding>(CRB, 'reader-clusterrole'));
    expect(crb.metadata.finalizers).toEqual([Finalizers.ClusterResourceBinding]);
    expect(crb.metadata.labels?.[Labels.ClusterPropagationPolicyPermanentId]).toBeTruthy();
    expect(crb.spec.resource).toMatchObject({ kind: 'ClusterRole', name: 'reader' });
    expect(crb.spec.resource.namespace).toBeUndefined();
    await running.idle();
    expect(running.detector.waitingTemplates).toBe(0);
  });

  it('lets a higher-priority policy with preemption take a template from a weaker one', async () => {
    const running = await f.run();
    createDeployment('web');
    createPolicy(pp('low', [all()], { id: null }));
    await f.eventually(() => binding('default/web-deployment'));
    await running.idle();
    createPolicy(
      pp('high', [byName('web')], {
        id: null,
        priority: 10,
        spec: { preemption: 'Always', placement: { clusterAffinity: { clusterNames: ['member2'] } } },
      }),
    );
    const highId = await f.eventually(
      () => policy('default/high')?.metadata.labels?.[Labels.PropagationPolicyPermanentId],
    );
    const taken = await f.eventually(() => {
      const b = binding('default/web-deployment');
      return b?.metadata.labels?.[Labels.PropagationPolicyPermanentId] === highId ? b : undefined;
    });
    expect(taken.metadata.annotations?.[Annotations.PropagationPolicyName]).toBe('high');
    expect(taken.spec.placement).toEqual({ clusterAffinity: { clusterNames: ['member2'] } });
    expect(template('default/web')!.metadata.annotations?.[Annotations.PropagationPolicyName]).toBe('high');
    await running.events.waitFor((e) => e.reason === EventReasons.PreemptPolicySucceed);
  });

  it('with a Lazy policy, a policy change reaches the binding only after the template changes', async () => {
    const running = await f.run();
    createDeployment('web');
    await running.idle();
    expect(running.detector.waitingTemplates).toBe(1);
    // A Lazy policy that arrives after the template claims it but does not bind it yet.
    createPolicy(pp('lazy', [all()], { id: null, spec: { activationPreference: 'Lazy' } }));
    await f.eventually(() => template('default/web')?.metadata.labels?.[Labels.PropagationPolicyPermanentId]);
    await running.idle();
    expect(binding('default/web-deployment')).toBeUndefined();

    const current = template('default/web')!;
    f.server.update(Deployment, input({ ...current, spec: { ...(current.spec as object), replicas: 3 } }));
    const bound = await f.eventually(() => binding('default/web-deployment'));
    expect(bound.spec.replicas).toBe(3);
    await running.idle();

    updateSpec<PropagationPolicy>(PP, 'default/lazy', (spec) => ({
      ...spec,
      conflictResolution: 'Overwrite',
    }));
    await running.idle();
    expect(binding('default/web-deployment')!.spec.conflictResolution).toBeUndefined();

    const again = template('default/web')!;
    f.server.update(Deployment, input({ ...again, spec: { ...(again.spec as object), replicas: 4 } }));
    const synced = await f.eventually(() => {
      const b = binding('default/web-deployment');
      return b?.spec.conflictResolution === 'Overwrite' ? b : undefined;
    });
    expect(synced.spec.replicas).toBe(4);
  });

  it('reports an invalid policy with a Warning, matches nothing with it, and keeps serving the others', async () => {
    const running = await f.run();
    createPolicy(
      pp('broken', [byLabels({ matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] })], {
        id: null,
        priority: 100,
      }),
    );
    createPolicy(pp('unknown', [{ apiVersion: 'example.com/v1', kind: 'Gadget' }], { id: null }));
    createPolicy(pp('good', [all()], { id: null }));
    createDeployment('web', { labels: { app: 'x' } });
    const bound = await f.eventually(() => binding('default/web-deployment'));
    expect(bound.metadata.annotations?.[Annotations.PropagationPolicyName]).toBe('good');
    const invalid = await running.events.waitFor((e) => e.reason === EventReasons.InvalidResourceSelector);
    expect(invalid).toMatchObject({ type: 'Warning', kind: 'PropagationPolicy', name: 'broken' });
    expect(invalid.message).toContain('"Near" is not a valid label selector operator');
    const unknown = await running.events.waitFor((e) => e.reason === EventReasons.UnknownResourceKind);
    expect(unknown).toMatchObject({ type: 'Warning', name: 'unknown' });
    expect(unknown.message).toContain('example.com/v1/Gadget');
    await running.idle();
    // Reported once per generation, not on every reconcile.
    expect(running.events.count((e) => e.reason === EventReasons.InvalidResourceSelector)).toBe(1);
  });

  it('ignores templates in skipped and reserved namespaces', async () => {
    const running = await f.run({ skippedPropagatingNamespaces: ['skip-.*'] });
    createPolicy(pp('all', [all({ namespace: '' })], { id: null, namespace: 'skip-me' }));
    createDeployment('web', { namespace: 'skip-me' });
    createPolicy(pp('all', [all()], { id: null, namespace: 'karmada-es-member1' }));
    createDeployment('web', { namespace: 'karmada-es-member1' });
    await f.eventually(() => policy('skip-me/all')?.metadata.finalizers);
    await f.eventually(() => policy('karmada-es-member1/all')?.metadata.finalizers);
    await running.idle();
    expect(f.server.list(RB)).toEqual([]);
    expect(running.detector.waitingTemplates).toBe(0);
  });

  it('watches a resource a later discovery pass finds', async () => {
    f.discovery.splice(
      f.discovery.findIndex((d) => d.resource === 'configmaps'),
      1,
    );
    const running = await f.run({ discoveryIntervalMs: 20 });
    expect(running.detector.watchedResources()).not.toContain('core/v1/configmaps');
    createPolicy(pp('cms', [{ apiVersion: 'v1', kind: 'ConfigMap' }], { id: null }));
    f.server.create(ConfigMap, { metadata: { name: 'settings', namespace: 'default' }, data: { a: '1' } });
    f.discovery.push(discovered(ConfigMap));
    const bound = await f.eventually(() => binding('default/settings-configmap'));
    expect(bound.spec.resource).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' });
    expect(running.detector.watchedResources()).toContain('core/v1/configmaps');
  });

  it('supersedes an UnknownResourceKind Warning with a Normal Event once a later discovery pass finds the kind', async () => {
    f.discovery.splice(
      f.discovery.findIndex((d) => d.resource === 'configmaps'),
      1,
    );
    const running = await f.run({ discoveryIntervalMs: 20 });
    createPolicy(pp('cms', [{ apiVersion: 'v1', kind: 'ConfigMap' }], { id: null }));
    const unknown = await running.events.waitFor((e) => e.reason === EventReasons.UnknownResourceKind);
    expect(unknown).toMatchObject({ type: 'Warning', name: 'cms' });
    f.discovery.push(discovered(ConfigMap));
    const served = await running.events.waitFor((e) => e.reason === EventReasons.ResourceKindServed);
    expect(served).toMatchObject({ type: 'Normal', kind: 'PropagationPolicy', name: 'cms' });
    expect(served.message).toContain('v1/ConfigMap is served now');
    await running.idle();
    expect(running.events.count((e) => e.reason === EventReasons.ResourceKindServed)).toBe(1);
  });

  it('a new detector over the same state writes nothing and never reads around its cache', async () => {
    const first = await f.run();
    createDeployment('a', { labels: { app: 'web' } });
    createDeployment('b');
    createPolicy(
      pp('web', [byLabels({ matchLabels: { app: 'web' } })], { id: null, spec: { placement: {} } }),
    );
    createClusterPolicy(cpp('everything', [all()], { id: null, priority: -1 }));
    f.server.create(ClusterRole, input({ ...clusterRole('orphan'), metadata: { name: 'orphan' } }));
    await f.eventually(() => binding('default/a-deployment'));
    await f.eventually(() => binding('default/b-deployment'));
    await first.idle();
    await first.stop();

    const second = await f.run();
    await second.idle();
    expect(f.writesSince(second.firstRequest)).toEqual([]);
    const reads = f.server.requests.slice(second.firstRequest);
    expect(reads.filter((r) => r.verb === 'get')).toEqual([]);
    for (const r of reads.filter((r) => r.verb === 'list')) expect(r.query.has('resourceVersion')).toBe(true);
    expect(second.detector.waitingTemplates).toBe(1);
  });

  it('reports a failing reconcile in status and succeeds once the server recovers', async () => {
    const running = await f.run();
    f.server.fault(
      { verb: 'create', resource: 'work.karmada.io/v1alpha2/resourcebindings' },
      { code: 500, times: 2 },
    );
    createDeployment('web');
    createPolicy(pp('web', [all()], { id: null }));
    await f.eventually(() => binding('default/web-deployment'));
    const templates = running.detector.status().find((q) => q.name === 'resource-detector')!;
    expect(templates.lastError?.key).toBe('apps/v1/Deployment/default/web');
    expect(templates.lastError?.message).toMatch(/500/);
    await running.events.waitFor((e) => e.reason === EventReasons.ApplyPolicyFailed);
    expect(running.detector.status().map((q) => q.name)).toEqual([
      'resource-detector',
      'propagation-policy-reconciler',
      'cluster-propagation-policy-reconciler',
    ]);
  });

  it('reports no ApplyPolicyFailed for a 409 from a cache behind its own write, and binds on the retry', async () => {
    const running = await f.run();
    f.server.fault(
      { verb: 'create', resource: 'work.karmada.io/v1alpha2/resourcebindings' },
      { code: 409, reason: 'AlreadyExists', times: 1 },
    );
    createDeployment('web');
    createPolicy(pp('web', [all()], { id: null }));
    await f.eventually(() => binding('default/web-deployment'));
    await running.events.waitFor((e) => e.reason === EventReasons.ApplyPolicySucceed);
    expect(running.events.values.filter((e) => e.reason === EventReasons.ApplyPolicyFailed)).toEqual([]);
    const templates = running.detector.status().find((q) => q.name === 'resource-detector')!;
    expect(templates.lastError?.message).toMatch(/409/);
  });

  it('reads its own binding before the informer has it: one create; without read-your-writes, a second one', async () => {
    // A create is a POST to the collection: the binding's name is in the body.
    const bindingCreates = (name: string) =>
      f.server.requests.filter(
        (r) =>
          r.verb === 'create' &&
          r.resource === 'work.karmada.io/v1alpha2/resourcebindings' &&
          r.body.includes(`"name":"${name}"`),
      ).length;
    createPolicy(pp('web', [byLabels({ matchLabels: { app: 'web' } })], { id: null }));
    const own = await f.run();
    await own.idle();
    // The binding informer hears of nothing more; the template informer still sees the claim come back, which
    // queues the template again while its binding is only known from the create's answer.
    await f.server.waitForWatch(RB);
    f.server.stallWatches(RB);
    createDeployment('own', { labels: { app: 'web' } });
    await f.eventually(() => binding('default/own-deployment'));
    await own.idle();
    expect(bindingCreates('own-deployment')).toBe(1);
    await own.stop();

    const blind = await f.run({ readYourWrites: false });
    await blind.idle();
    await f.server.waitForWatch(RB);
    f.server.stallWatches(RB);
    createDeployment('blind', { labels: { app: 'web' } });
    await f.eventually(
      () => bindingCreates('blind-deployment') >= 2,
      5_000,
      'a second create of the binding',
    );
  });

  it("binds a re-created template as soon as its predecessor's binding is deleted, not after the backoff", {
    timeout: 15_000,
  }, async () => {
    const running = await f.run();
    // The binding of a deleted "web" still waits for its Works to go (finalizer) when "web" is created again.
    f.server.create(
      RB,
      input({
        apiVersion: 'work.karmada.io/v1alpha2',
        kind: 'ResourceBinding',
        metadata: {
          name: 'web-deployment',
          namespace: 'default',
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'predecessor', controller: true },
          ],
        },
        spec: {
          resource: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            namespace: 'default',
            name: 'web',
            uid: 'predecessor',
          },
        },
      }),
    );
    createDeployment('web');
    createPolicy(pp('web', [all()], { id: null }));
    const failures = () =>
      running.events.values.filter((e) => e.reason === EventReasons.ApplyPolicyFailed).length;
    // Nine failures in: the next retry is 5 ms x 2^9 = 2.56 s away.
    await f.eventually(() => failures() >= 9, 10_000, 'nine failed attempts');
    expect(binding('default/web-deployment')?.metadata.ownerReferences?.[0]?.uid).toBe('predecessor');
    const removedAt = Date.now();
    f.server.remove(RB, 'default/web-deployment');
    const bound = await f.eventually(
      () => {
        const b = binding('default/web-deployment');
        return b?.metadata.ownerReferences?.[0]?.uid === template('default/web')?.metadata.uid
          ? b
          : undefined;
      },
      1_500,
      'the new binding',
    );
    expect(bound.spec.resource.uid).toBe(template('default/web')?.metadata.uid);
    expect(Date.now() - removedAt).toBeLessThan(1_500);
  });

  it('stops once: a stopped detector cannot start again, and its handlers are gone', async () => {
    const running = await f.run();
    const informer = running.manager.informer(PP)!;
    expect(informer.hasHandler('resource-detector')).toBe(true);
    await running.detector.stop(AbortSignal.timeout(1_000));
    expect(informer.hasHandler('resource-detector')).toBe(false);
    await expect(running.detector.start(new AbortController().signal)).rejects.toThrow(DetectorStateError);
  });
});
