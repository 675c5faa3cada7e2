import {
  type OverridePolicy,
  type Placement,
  type UnstructuredObject,
  type Work,
  workName,
} from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import type { Binding } from './binding.js';
import { isRecord } from './json.js';
import {
  cluster,
  clusterResourceBinding,
  deepFreeze,
  deploymentTemplate,
  resourceBinding,
  work as workFixture,
} from './testing/fixtures.js';
import {
  type DesiredWorksResult,
  desiredWorks,
  mergeWork,
  orphanWorks,
  type WorkOverrides,
  workNeedsUpdate,
  workTargetClusters,
} from './work-builder.js';

const divided: Placement = {
  replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
};
const NAME = workName('Deployment', 'nginx', 'default');

const worksOf = (r: DesiredWorksResult): readonly Work[] => {
  if (r.kind !== 'Works') throw new Error(r.message);
  return r.works;
};
const manifestOf = (w: Readonly<Work> | undefined): Record<string, unknown> => {
  const m = w?.spec.workload?.manifests?.[0];
  if (!isRecord(m)) throw new Error('no manifest');
  return m;
};
const metaOf = (
  m: Record<string, unknown>,
): { labels: Record<string, string>; annotations: Record<string, string> } =>
  m.metadata as { labels: Record<string, string>; annotations: Record<string, string> };

const dividedBinding = resourceBinding({
  placement: divided,
  replicas: 9,
  clusters: [
    { name: 'member2', replicas: 6 },
    { name: 'member1', replicas: 3 },
  ],
});

describe('desiredWorks', () => {
  it("gives a new Work a permanent id on itself and in its manifest, as Karmada's Work webhook does; an existing Work keeps its own", () => {
    let n = 0;
    const fresh = worksOf(
      desiredWorks({
        binding: dividedBinding,
        template: deploymentTemplate(),
        newWorkId: () => `work-id-${++n}`,
      }),
    );
    const ids = fresh.map((w) => w.metadata.labels?.['work.karmada.io/permanent-id']);
    expect([...ids].sort()).toEqual(['work-id-1', 'work-id-2']);
    expect(metaOf(manifestOf(fresh[0])).labels).toMatchObject({ 'work.karmada.io/permanent-id': ids[0] });
    const again = worksOf(
      desiredWorks({
        binding: dividedBinding,
        template: deploymentTemplate(),
        existingWorks: fresh,
        newWorkId: () => 'never-used',
      }),
    );
    expect(again.map((w) => w.metadata.labels?.['work.karmada.io/permanent-id'])).toEqual(ids);
  });

  it('builds the Work Karmada builds for a Divided Deployment', () => {
    const works = worksOf(desiredWorks({ binding: dividedBinding, template: deploymentTemplate() }));
    expect(works.map((w) => w.metadata.namespace)).toEqual(['karmada-es-member1', 'karmada-es-member2']);
    expect(works[0]).toEqual({
      apiVersion: 'work.karmada.io/v1alpha1',
      kind: 'Work',
      metadata: {
        name: NAME,
        namespace: 'karmada-es-member1',
        labels: { 'resourcebinding.karmada.io/permanent-id': 'rb-id-1' },
        annotations: {
          'resourcebinding.karmada.io/namespace': 'default',
          'resourcebinding.karmada.io/name': 'nginx-deployment',
          'work.karmada.io/conflict-resolution': 'abort',
        },
        finalizers: ['karmada.io/execution-controller'],
      },
      spec: {
        workload: {
          manifests: [
            {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              metadata: {
                name: 'nginx',
                namespace: 'default',
                labels: {
                  app: 'nginx',
                  'propagationpolicy.karmada.io/permanent-id': 'pp-id-1',
                  'resourcebinding.karmada.io/permanent-id': 'rb-id-1',
                  'karmada.io/managed': 'true',
                },
                annotations: {
                  'propagationpolicy.karmada.io/namespace': 'default',
                  'propagationpolicy.karmada.io/name': 'nginx-pp',
                  'resourcetemplate.karmada.io/generation': '3',
                  'resourcebinding.karmada.io/namespace': 'default',
                  'resourcebinding.karmada.io/name': 'nginx-deployment',
                  'resourcetemplate.karmada.io/uid': 'template-uid',
                  'work.karmada.io/name': NAME,
                  'work.karmada.io/namespace': 'karmada-es-member1',
                  'work.karmada.io/conflict-resolution': 'abort',
                  'resourcetemplate.karmada.io/managed-annotations': [
                    'propagationpolicy.karmada.io/name',
                    'propagationpolicy.karmada.io/namespace',
                    'resourcebinding.karmada.io/name',
                    'resourcebinding.karmada.io/namespace',
                    'resourcetemplate.karmada.io/generation',
                    'resourcetemplate.karmada.io/managed-annotations',
                    'resourcetemplate.karmada.io/managed-labels',
                    'resourcetemplate.karmada.io/uid',
                    'work.karmada.io/conflict-resolution',
                    'work.karmada.io/name',
                    'work.karmada.io/namespace',
                  ].join(','),
                  'resourcetemplate.karmada.io/managed-labels':
                    'app,karmada.io/managed,propagationpolicy.karmada.io/permanent-id,resourcebinding.karmada.io/permanent-id',
                },
              },
              spec: {
                replicas: 3,
                selector: { matchLabels: { app: 'nginx' } },
                template: {
                  metadata: { labels: { app: 'nginx' } },
                  spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
                },
              },
            },
          ],
        },
        suspendDispatching: false,
        preserveResourcesOnDeletion: false,
      },
    });
    expect((manifestOf(works[1]).spec as { replicas: number }).replicas).toBe(6);
  });

  const cases: Array<{
    name: string;
    binding: Binding;
    template?: UnstructuredObject;
    existingWorks?: Work[];
    check: (works: readonly Work[]) => void;
  }> = [
    {
      name: 'Duplicated: each cluster gets the scheduled replicas',
      binding: resourceBinding({
        replicas: 9,
        clusters: [
          { name: 'member1', replicas: 9 },
          { name: 'member2', replicas: 9 },
        ],
      }),
      check: (works) =>
        expect(works.map((w) => (manifestOf(w).spec as { replicas: number }).replicas)).toEqual([9, 9]),
    },
    {
      name: 'a non-workload binding (replicas 0) leaves spec.replicas alone',
      binding: resourceBinding({ replicas: 0, clusters: [{ name: 'member1' }] }),
      check: (works) => expect((manifestOf(works[0]).spec as { replicas: number }).replicas).toBe(9),
    },
    {
      name: 'the template’s valid conflict-resolution annotation wins over the policy',
      binding: resourceBinding({ clusters: [{ name: 'member1' }], spec: { conflictResolution: 'Abort' } }),
      template: deploymentTemplate({ annotations: { 'work.karmada.io/conflict-resolution': 'overwrite' } }),
      check: (works) => {
        expect(works[0]?.metadata.annotations?.['work.karmada.io/conflict-resolution']).toBe('overwrite');
        expect(metaOf(manifestOf(works[0])).annotations['work.karmada.io/conflict-resolution']).toBe(
          'overwrite',
        );
      },
    },
    {
      name: 'an invalid template value is ignored; the policy’s Overwrite applies',
      binding: resourceBinding({
        clusters: [{ name: 'member1' }],
        spec: { conflictResolution: 'Overwrite' },
      }),
      template: deploymentTemplate({ annotations: { 'work.karmada.io/conflict-resolution': 'Overwrite' } }),
      check: (works) =>
        expect(works[0]?.metadata.annotations?.['work.karmada.io/conflict-resolution']).toBe('overwrite'),
    },
    {
      name: 'suspension on one cluster suspends only its Work; preserveResourcesOnDeletion is copied',
      binding: resourceBinding({
        clusters: [{ name: 'member1' }, { name: 'member2' }],
        spec: {
          suspension: { dispatchingOnClusters: { clusterNames: ['member2'] } },
          preserveResourcesOnDeletion: true,
        },
      }),
      check: (works) => {
        expect(works.map((w) => w.spec.suspendDispatching)).toEqual([false, true]);
        expect(works.map((w) => w.spec.preserveResourcesOnDeletion)).toEqual([true, true]);
      },
    },
    {
      name: 'the Work’s own permanent id (from Karmada’s webhook) is stamped into its manifest',
      binding: resourceBinding({ clusters: [{ name: 'member1' }] }),
      existingWorks: [workFixture({ name: NAME, labels: { 'work.karmada.io/permanent-id': 'work-id-7' } })],
      check: (works) => {
        const meta = metaOf(manifestOf(works[0]));
        expect(meta.labels['work.karmada.io/permanent-id']).toBe('work-id-7');
        expect(meta.annotations['resourcetemplate.karmada.io/managed-labels']).toContain(
          'work.karmada.io/permanent-id',
        );
      },
    },
    {
      name: 'clusters of the bindings that require this one get Works too',
      binding: resourceBinding({
        clusters: [{ name: 'member1' }],
        spec: {
          requiredBy: [
            { name: 'app', namespace: 'default', clusters: [{ name: 'member3' }, { name: 'member1' }] },
          ],
        },
      }),
      check: (works) =>
        expect(works.map((w) => w.metadata.namespace)).toEqual(['karmada-es-member1', 'karmada-es-member3']),
    },
    {
      name: 'no target clusters, no Works',
      binding: resourceBinding({}),
      check: (works) => expect(works).toEqual([]),
    },
  ];

  it.each(cases)('$name', (c) => {
    c.check(
      worksOf(
        desiredWorks({
          binding: c.binding,
          template: c.template ?? deploymentTemplate(),
          ...(c.existingWorks ? { existingWorks: c.existingWorks } : {}),
        }),
      ),
    );
  });

  it('uses the ClusterResourceBinding keys for cluster-scoped templates', () => {
    const template = deepFreeze({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'reader', uid: 'cr-uid' },
      rules: [],
    });
    const [w] = worksOf(
      desiredWorks({ binding: clusterResourceBinding({ clusters: [{ name: 'm1' }] }), template }),
    );
    expect(w?.metadata.name).toBe(workName('ClusterRole', 'reader', undefined));
    expect(w?.metadata.labels).toEqual({ 'clusterresourcebinding.karmada.io/permanent-id': 'crb-id-1' });
    expect(w?.metadata.annotations).toEqual({
      'clusterresourcebinding.karmada.io/name': 'reader-clusterrole',
      'work.karmada.io/conflict-resolution': 'abort',
    });
    expect(metaOf(manifestOf(w)).labels['clusterresourcebinding.karmada.io/permanent-id']).toBe('crb-id-1');
  });

  it('refuses a template that is not the one the binding points at', () => {
    const other = deepFreeze({ ...deploymentTemplate(), metadata: { name: 'other', namespace: 'default' } });
    const result = desiredWorks({ binding: dividedBinding, template: other });
    expect(result.kind).toBe('Invalid');
    if (result.kind === 'Invalid')
      expect(result.message).toMatch(/not the one ResourceBinding default\/nginx-deployment points at/);
  });
});

describe('desiredWorks prunes what the API server set', () => {
  const bindingFor = (apiVersion: string, kind: string, name: string): Binding =>
    resourceBinding({
      clusters: [{ name: 'member1' }],
      spec: { resource: { apiVersion, kind, namespace: 'default', name } },
    });
  // Frozen, as the cache holds it: the prune copies what it changes and must not touch the template.
  const build = (template: UnstructuredObject): Record<string, unknown> =>
    manifestOf(
      worksOf(
        desiredWorks({
          binding: bindingFor(template.apiVersion, template.kind, template.metadata.name ?? ''),
          template: deepFreeze(template),
        }),
      )[0],
    );

  it.each<[string, UnstructuredObject, (m: Record<string, unknown>) => void]>([
    [
      'server-set metadata and status',
      deploymentTemplate(),
      (m) => {
        expect(Object.keys(m.metadata as object).sort()).toEqual([
          'annotations',
          'labels',
          'name',
          'namespace',
        ]);
        expect(m.status).toBeUndefined();
      },
    ],
    [
      'an allocated Service clusterIP',
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's', namespace: 'default' },
        spec: { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], ports: [] },
      },
      (m) => expect(m.spec).toEqual({ ports: [] }),
    ],
    [
      'but not a headless Service’s None',
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's', namespace: 'default' },
        spec: { clusterIP: 'None' },
      },
      (m) => expect(m.spec).toEqual({ clusterIP: 'None' }),
    ],
    [
      'a Job’s generated selector labels and TTL',
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j', namespace: 'default' },
        spec: {
          ttlSecondsAfterFinished: 100,
          selector: { matchLabels: { 'controller-uid': 'u', 'batch.kubernetes.io/controller-uid': 'u' } },
          template: {
            metadata: {
              labels: {
                'controller-uid': 'u',
                'job-name': 'j',
                'batch.kubernetes.io/job-name': 'j',
                app: 'x',
              },
            },
          },
        },
      },
      (m) =>
        expect(m.spec).toEqual({
          selector: { matchLabels: {} },
          template: { metadata: { labels: { app: 'x' } } },
        }),
    ],
    [
      'a ServiceAccount’s generated token secrets',
      {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'sa', namespace: 'default' },
        secrets: [{ name: 'sa-token-abcde' }, { name: 'mine' }],
      },
      (m) => expect(m.secrets).toEqual([{ name: 'mine' }]),
    ],
  ])('%s', (_name, template, check) => {
    check(build(deepFreeze(template)));
  });
});

// What the API server hands back for a Work we wrote: keys in another order, server metadata, a webhook id.
/** The stored Work with its one manifest replaced by what `change` makes of a copy of it. */
function withManifest(w: Work, change: (m: Record<string, unknown>) => Record<string, unknown>): Work {
  const manifest = JSON.parse(JSON.stringify(manifestOf(w))) as Record<string, unknown>;
  return deepFreeze({ ...w, spec: { ...w.spec, workload: { manifests: [change(manifest)] } } });
}

function setImage(m: Record<string, unknown>, image: string): Record<string, unknown> {
  (m.spec as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec
    .containers[0]!.image = image;
  return m;
}

function asStored(w: Work, extra: { labels?: Record<string, string>; finalizers?: string[] } = {}): Work {
  const sortKeys = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sortKeys)
      : isRecord(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .reverse()
              .map((k) => [k, sortKeys(v[k])]),
          )
        : v;
  const stored = sortKeys(JSON.parse(JSON.stringify(w))) as Work;
  return deepFreeze({
    ...stored,
    metadata: {
      ...stored.metadata,
      uid: 'work-uid',
      resourceVersion: '42',
      generation: 1,
      creationTimestamp: '2026-01-01T00:00:00Z',
      managedFields: [{ manager: 'x' }],
      labels: { ...stored.metadata.labels, ...extra.labels },
      finalizers: [...(stored.metadata.finalizers ?? []), ...(extra.finalizers ?? [])],
    },
    status: { conditions: [] },
  });
}

describe('desiredWorks copies only what it changes', () => {
  const image = (w: Work | undefined): unknown =>
    (manifestOf(w).spec as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec
      .containers[0]?.image;
  const policy = (targets?: string[]): OverridePolicy =>
    deepFreeze({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'OverridePolicy',
      metadata: { name: 'mirror', namespace: 'default' },
      spec: {
        overrideRules: [
          {
            ...(targets ? { targetCluster: { clusterNames: targets } } : {}),
            overriders: {
              imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'mirror.example' }],
              plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 42 }],
            },
          },
        ],
      },
    });
  const overrides = (p: OverridePolicy): WorkOverrides => ({
    clusterOverridePolicies: [],
    overridePolicies: [p],
    clusters: new Map(['member1', 'member2', 'member3'].map((n) => [n, cluster(n)])),
  });
  const duplicated = resourceBinding({
    replicas: 9,
    clusters: [
      { name: 'member1', replicas: 9 },
      { name: 'member2', replicas: 9 },
    ],
  });

  it('writes a manifest byte for byte as the deep-copying build did (key order included)', () => {
    // The JSON the build wrote before it stopped deep-copying templates (commit 49bc398), for a frozen Job.
    const job: UnstructuredObject = deepFreeze({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'job',
        namespace: 'default',
        uid: 'job-uid',
        generation: 2,
        resourceVersion: '5',
        labels: { app: 'x' },
      },
      spec: {
        ttlSecondsAfterFinished: 10,
        selector: { matchLabels: { 'controller-uid': 'job-uid', keep: 'k' } },
        template: {
          metadata: { labels: { 'job-name': 'job', 'controller-uid': 'job-uid', app: 'x' } },
          spec: { restartPolicy: 'Never' },
        },
      },
      status: { active: 1 },
    });
    const binding = resourceBinding({
      clusters: [{ name: 'member1' }],
      spec: { resource: { apiVersion: 'batch/v1', kind: 'Job', namespace: 'default', name: 'job' } },
    });
    const [w] = worksOf(desiredWorks({ binding, template: job, newWorkId: () => 'wid' }));
    expect(JSON.stringify(w)).toBe(
      '{"apiVersion":"work.karmada.io/v1alpha1","kind":"Work","metadata":{"name":"job-6f87bd7978","namespace":"karmada-es-member1","labels":{"resourcebinding.karmada.io/permanent-id":"rb-id-1","work.karmada.io/permanent-id":"wid"},"annotations":{"resourcebinding.karmada.io/namespace":"default","resourcebinding.karmada.io/name":"nginx-deployment","work.karmada.io/conflict-resolution":"abort"},"finalizers":["karmada.io/execution-controller"]},"spec":{"workload":{"manifests":[{"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"job","namespace":"default","labels":{"app":"x","resourcebinding.karmada.io/permanent-id":"rb-id-1","karmada.io/managed":"true","work.karmada.io/permanent-id":"wid"},"annotations":{"resourcetemplate.karmada.io/generation":"2","resourcebinding.karmada.io/namespace":"default","resourcebinding.karmada.io/name":"nginx-deployment","resourcetemplate.karmada.io/uid":"job-uid","work.karmada.io/name":"job-6f87bd7978","work.karmada.io/namespace":"karmada-es-member1","work.karmada.io/conflict-resolution":"abort","resourcetemplate.karmada.io/managed-annotations":"resourcebinding.karmada.io/name,resourcebinding.karmada.io/namespace,resourcetemplate.karmada.io/generation,resourcetemplate.karmada.io/managed-annotations,resourcetemplate.karmada.io/managed-labels,resourcetemplate.karmada.io/uid,work.karmada.io/conflict-resolution,work.karmada.io/name,work.karmada.io/namespace","resourcetemplate.karmada.io/managed-labels":"app,karmada.io/managed,resourcebinding.karmada.io/permanent-id,work.karmada.io/permanent-id"}},"spec":{"selector":{"matchLabels":{"keep":"k"}},"template":{"metadata":{"labels":{"app":"x"}},"spec":{"restartPolicy":"Never"}}}}]},"suspendDispatching":false,"preserveResourcesOnDeletion":false}}',
    );
  });

  it('an override every cluster shares still leaves each manifest its own stamps', () => {
    const works = worksOf(
      desiredWorks({ binding: duplicated, template: deploymentTemplate(), overrides: overrides(policy()) }),
    );
    expect(works.map(image)).toEqual(['mirror.example/nginx:1.27', 'mirror.example/nginx:1.27']);
    expect(works.map((w) => (manifestOf(w).spec as { replicas: number }).replicas)).toEqual([42, 42]);
    expect(works.map((w) => metaOf(manifestOf(w)).annotations['work.karmada.io/namespace'])).toEqual([
      'karmada-es-member1',
      'karmada-es-member2',
    ]);
    expect(works.every((w) => w.metadata.annotations?.['policy.karmada.io/applied-overrides'])).toBe(true);
  });

  it('an override that targets one cluster of a Duplicated binding changes only that cluster’s Work', () => {
    const plain = worksOf(desiredWorks({ binding: duplicated, template: deploymentTemplate() }));
    const works = worksOf(
      desiredWorks({
        binding: duplicated,
        template: deploymentTemplate(),
        overrides: overrides(policy(['member1'])),
      }),
    );
    expect(works.map(image)).toEqual(['mirror.example/nginx:1.27', 'nginx:1.27']);
    expect((manifestOf(works[0]).spec as { replicas: number }).replicas).toBe(42);
    expect(JSON.stringify(works[1])).toBe(JSON.stringify(plain[1]));
    expect(works[1]?.metadata.annotations).not.toHaveProperty('policy.karmada.io/applied-overrides');
  });

  it('Divided: clusters with equal replicas share a revision, an override still reaches only its target', () => {
    const binding = resourceBinding({
      placement: divided,
      replicas: 9,
      clusters: [
        { name: 'member1', replicas: 3 },
        { name: 'member2', replicas: 3 },
        { name: 'member3', replicas: 3 },
      ],
    });
    const works = worksOf(
      desiredWorks({ binding, template: deploymentTemplate(), overrides: overrides(policy(['member2'])) }),
    );
    expect(works.map((w) => (manifestOf(w).spec as { replicas: number }).replicas)).toEqual([3, 42, 3]);
    expect(works.map(image)).toEqual(['nginx:1.27', 'mirror.example/nginx:1.27', 'nginx:1.27']);
  });
});

describe('workNeedsUpdate', () => {
  const [desired] = worksOf(desiredWorks({ binding: dividedBinding, template: deploymentTemplate() }));
  if (desired === undefined) throw new Error('no desired Work');
  const stored = asStored(desired, { labels: { team: 'a' }, finalizers: ['example.com/other'] });

  it.each<[string, Work, boolean]>([
    ['the Work as stored: nothing to write', stored, false],
    ['spec differs', deepFreeze({ ...stored, spec: { ...stored.spec, suspendDispatching: true } }), true],
    [
      'the manifest differs in one nested field',
      withManifest(stored, (m) => setImage(m, 'nginx:1.28')),
      true,
    ],
    ['the manifest has one key more', withManifest(stored, (m) => ({ ...m, extra: {} })), true],
    ['the manifest has one key less', withManifest(stored, ({ spec: _s, ...m }) => m), true],
    [
      'an explicit false equals an absent switch',
      deepFreeze({ ...stored, spec: { workload: stored.spec.workload ?? {} } }),
      false,
    ],
    [
      'our label changed',
      deepFreeze({
        ...stored,
        metadata: { ...stored.metadata, labels: { 'resourcebinding.karmada.io/permanent-id': 'old' } },
      }),
      true,
    ],
    [
      'our finalizer missing',
      deepFreeze({ ...stored, metadata: { ...stored.metadata, finalizers: ['example.com/other'] } }),
      true,
    ],
    [
      'a Work being deleted is never updated',
      deepFreeze({
        ...stored,
        spec: {},
        metadata: { ...stored.metadata, deletionTimestamp: '2026-01-02T00:00:00Z' },
      }),
      false,
    ],
  ])('%s', (_name, existing, want) => {
    expect(workNeedsUpdate(existing, desired)).toBe(want);
  });

  it('a Work whose webhook id is in its manifest rebuilds to the same Work', () => {
    const withId = asStored(desired, { labels: { 'work.karmada.io/permanent-id': 'wid' } });
    const [first] = worksOf(
      desiredWorks({ binding: dividedBinding, template: deploymentTemplate(), existingWorks: [withId] }),
    );
    const written = asStored(first!, { labels: { 'work.karmada.io/permanent-id': 'wid' } });
    const [again] = worksOf(
      desiredWorks({ binding: dividedBinding, template: deploymentTemplate(), existingWorks: [written] }),
    );
    expect(workNeedsUpdate(written, again!)).toBe(false);
  });

  it('mergeWork keeps others’ labels and finalizers and the resourceVersion, and sets our spec', () => {
    const existing = deepFreeze({
      ...stored,
      spec: {},
      metadata: {
        ...stored.metadata,
        labels: { team: 'a', 'resourcebinding.karmada.io/permanent-id': 'old' },
      },
    });
    const merged = mergeWork(existing, desired);
    expect(merged.metadata.resourceVersion).toBe('42');
    expect(merged.metadata.labels).toEqual({
      team: 'a',
      'resourcebinding.karmada.io/permanent-id': 'rb-id-1',
    });
    expect(merged.metadata.finalizers).toEqual(['karmada.io/execution-controller', 'example.com/other']);
    expect(merged.spec).toEqual(desired.spec);
    expect(workNeedsUpdate(merged, desired)).toBe(false);
  });
});

describe('orphanWorks', () => {
  const binding = resourceBinding({ clusters: [{ name: 'member1' }] });
  const ours = { 'resourcebinding.karmada.io/permanent-id': 'rb-id-1' };

  it.each<[string, Work, boolean]>([
    [
      'ours, in a cluster still targeted',
      workFixture({ namespace: 'karmada-es-member1', labels: ours }),
      false,
    ],
    [
      'ours, in a cluster no longer targeted',
      workFixture({ namespace: 'karmada-es-member2', labels: ours }),
      true,
    ],
    [
      'ours, already being deleted',
      workFixture({ namespace: 'karmada-es-member2', labels: ours, deleting: true }),
      false,
    ],
    [
      'another binding’s',
      workFixture({
        namespace: 'karmada-es-member2',
        labels: { 'resourcebinding.karmada.io/permanent-id': 'x' },
      }),
      false,
    ],
    ['not in an execution namespace', workFixture({ namespace: 'default', labels: ours }), false],
  ])('%s', (_name, existing, orphan) => {
    expect(orphanWorks([existing], binding)).toEqual(orphan ? [existing] : []);
  });

  it('without a permanent id, matches by the binding’s name annotations, not by an empty label', () => {
    const noId = resourceBinding({ id: '', clusters: [] });
    const mine = workFixture({
      namespace: 'karmada-es-member2',
      labels: { 'resourcebinding.karmada.io/permanent-id': '' },
      annotations: {
        'resourcebinding.karmada.io/namespace': 'default',
        'resourcebinding.karmada.io/name': 'nginx-deployment',
      },
    });
    const someoneElses = workFixture({
      namespace: 'karmada-es-member2',
      name: 'other',
      labels: { 'resourcebinding.karmada.io/permanent-id': '' },
      annotations: {
        'resourcebinding.karmada.io/namespace': 'default',
        'resourcebinding.karmada.io/name': 'other-deployment',
      },
    });
    expect(orphanWorks([mine, someoneElses], noId)).toEqual([mine]);
  });
});

describe('workTargetClusters', () => {
  it('lists spec.clusters first, then required-by clusters not already there', () => {
    const binding = resourceBinding({
      clusters: [{ name: 'b', replicas: 1 }],
      spec: { requiredBy: [{ name: 'x', clusters: [{ name: 'a' }, { name: 'b' }] }] },
    });
    expect(workTargetClusters(binding)).toEqual([{ name: 'b', replicas: 1 }, { name: 'a' }]);
  });
});
