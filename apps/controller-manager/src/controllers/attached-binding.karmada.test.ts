// Karmada conformance: the dependencies distributor's pure functions against the tables of Karmada's
// pkg/dependenciesdistributor/dependencies_distributor_test.go at commit f8fdd02 (transcribed; where the Go test
// drives a fake client, the objects it seeds are the cache here and the object it reads back is the expected
// write).
import type { BindingSnapshot, ResourceBinding, UnstructuredObject } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  AttachedBindingOwnerError,
  buildAttachedBinding,
  type DependencyCandidate,
  deleteBindingFromSnapshot,
  matchesBindingDependencies,
  mergeBindingSnapshot,
  mergedAttachedBinding,
  orphanAttachedBindings,
  releasedAttachedBinding,
  resolveConflictResolution,
  resolvePreserveOnDeletion,
} from './attached-binding.js';
import type { DependentObjectReference } from './dependencies.js';

const LABEL = 'Karmada f8fdd02d pkg/dependenciesdistributor/dependencies_distributor_test.go';
const DEPS = 'resourcebinding.karmada.io/dependencies';
const ID = '93162d3c-ee8e-4995-9034-05f4d5d2c2b9';
const DEPENDED_BY = 'resourcebinding.karmada.io/depended-by-5dbb6dc9c8'; // test/test-binding

const rb = (
  namespace: string,
  name: string,
  spec: Partial<ResourceBinding['spec']> = {},
  metadata: Partial<ResourceBinding['metadata']> = {},
): ResourceBinding => ({
  apiVersion: 'work.karmada.io/v1alpha2',
  kind: 'ResourceBinding',
  metadata: { namespace, name, ...metadata },
  spec: { resource: { apiVersion: '', kind: '', name: '' }, ...spec },
});
const snap = (namespace: string, name: string, cluster: string, replicas: number): BindingSnapshot => ({
  namespace,
  name,
  clusters: [{ name: cluster, replicas }],
});

describe('Test_matchesWithBindingDependencies', () => {
  const cm = (name: string | undefined, labels?: Record<string, string>, namespace = 'test') =>
    ({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name, labels }) satisfies DependencyCandidate;
  const annotated = (value: string | undefined) =>
    rb('', '', {}, { annotations: value === undefined ? {} : { [DEPS]: value } });
  const cases: readonly {
    name: string;
    object: DependencyCandidate;
    annotation: string | undefined;
    want: boolean;
    wantErr?: boolean;
  }[] = [
    {
      name: 'test custom resource',
      object: {
        apiVersion: 'example-stgzr.karmada.io/v1alpha1',
        kind: 'Foot5zmh',
        namespace: 'karmadatest-vpvll',
        name: 'cr-fxzq6',
      },
      annotation:
        '[{"apiVersion":"example-stgzr.karmada.io/v1alpha1","kind":"Foot5zmh","namespace":"karmadatest-vpvll","name":"cr-fxzq6"}]',
      want: true,
    },
    {
      name: 'test configmap',
      object: cm('configmap-8w426', undefined, 'karmadatest-h46wh'),
      annotation:
        '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"karmadatest-h46wh","name":"configmap-8w426"}]',
      want: true,
    },
    {
      name: 'test labels',
      object: cm(undefined, { app: 'test' }),
      annotation:
        '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"test","labelSelector":{"matchExpressions":[{"key":"app","operator":"In","values":["test"]}]}}]',
      want: true,
    },
    {
      name: 'binding without dependencies annotation',
      object: cm('test-cm'),
      annotation: undefined,
      want: false,
    },
    {
      name: 'binding with invalid dependencies json',
      object: cm('test-cm'),
      annotation: 'invalid-json-string',
      want: false,
      wantErr: true,
    },
    { name: 'binding with empty dependencies array', object: cm('test-cm'), annotation: '[]', want: false },
    {
      name: 'apiVersion mismatch',
      object: cm('test-cm'),
      annotation: '[{"apiVersion":"v2","kind":"ConfigMap","namespace":"test","name":"test-cm"}]',
      want: false,
    },
    {
      name: 'kind mismatch',
      object: cm('test-cm'),
      annotation: '[{"apiVersion":"v1","kind":"Secret","namespace":"test","name":"test-cm"}]',
      want: false,
    },
    {
      name: 'namespace mismatch',
      object: cm('test-cm'),
      annotation: '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"other","name":"test-cm"}]',
      want: false,
    },
    {
      name: 'name mismatch',
      object: cm('test-cm'),
      annotation: '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"test","name":"other-cm"}]',
      want: false,
    },
    {
      name: 'labelSelector does not match',
      object: cm('test-cm', { app: 'other' }),
      annotation:
        '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"test","labelSelector":{"matchLabels":{"app":"test"}}}]',
      want: false,
    },
    {
      name: 'object has no labels but labelSelector requires labels',
      object: cm('test-cm'),
      annotation:
        '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"test","labelSelector":{"matchLabels":{"app":"test"}}}]',
      want: false,
    },
    {
      name: 'invalid labelSelector format',
      object: cm('test-cm', { app: 'test' }),
      annotation:
        '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"test","labelSelector":{"matchExpressions":[{"key":"app","operator":"InvalidOperator","values":["test"]}]}}]',
      want: false,
      wantErr: true,
    },
    {
      name: 'multiple dependencies with second one matching by name',
      object: { apiVersion: 'v1', kind: 'Secret', namespace: 'test', name: 'test-secret' },
      annotation:
        '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"test","name":"test-cm"},{"apiVersion":"v1","kind":"Secret","namespace":"test","name":"test-secret"}]',
      want: true,
    },
    {
      name: 'multiple dependencies with second one matching by labelSelector',
      object: {
        apiVersion: 'v1',
        kind: 'Secret',
        namespace: 'test',
        name: 'test-secret',
        labels: { env: 'prod' },
      },
      annotation:
        '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"test","name":"test-cm"},{"apiVersion":"v1","kind":"Secret","namespace":"test","labelSelector":{"matchLabels":{"env":"prod"}}}]',
      want: true,
    },
    {
      name: 'labelSelector with matchLabels',
      object: cm('test-cm', { app: 'test', tier: 'frontend' }),
      annotation:
        '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"test","labelSelector":{"matchLabels":{"app":"test"}}}]',
      want: true,
    },
    {
      name: 'empty labelSelector matches all',
      object: cm('test-cm', { app: 'test' }),
      annotation: '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"test","labelSelector":{}}]',
      want: true,
    },
  ];
  it.each(cases)(
    `${LABEL} Test_matchesWithBindingDependencies: $name`,
    ({ object, annotation, want, wantErr }) => {
      const binding = annotated(annotation);
      if (wantErr) expect(() => matchesBindingDependencies(object, binding)).toThrow();
      else expect(matchesBindingDependencies(object, binding)).toBe(want);
    },
  );
});

describe('Test_buildAttachedBinding', () => {
  it(`${LABEL} Test_buildAttachedBinding: build attached binding`, () => {
    const independent = rb(
      'test',
      'test-binding',
      { clusters: [{ name: 'member1', replicas: 2 }] },
      { labels: { 'resourcebinding.karmada.io/permanent-id': ID } },
    );
    const object: UnstructuredObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'demo-app',
        namespace: 'fake-ns',
        resourceVersion: '22222',
        uid: 'db56a4a6-0dff-465a-b046-2c1dea42a42b',
      },
    };
    expect(buildAttachedBinding(independent, object)).toEqual({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: {
        name: 'demo-app-deployment',
        namespace: 'test',
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'demo-app',
            uid: 'db56a4a6-0dff-465a-b046-2c1dea42a42b',
            blockOwnerDeletion: true,
            controller: true,
          },
        ],
        labels: { [DEPENDED_BY]: ID },
        finalizers: ['karmada.io/binding-controller'],
      },
      spec: {
        resource: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'fake-ns',
          name: 'demo-app',
          uid: 'db56a4a6-0dff-465a-b046-2c1dea42a42b',
          resourceVersion: '22222',
        },
        requiredBy: [
          { namespace: 'test', name: 'test-binding', clusters: [{ name: 'member1', replicas: 2 }] },
        ],
      },
    });
  });
});

const d1 = snap('default-1', 'default-binding-1', 'member1', 2);
const d2 = snap('default-2', 'default-binding-2', 'member2', 3);
const d3 = snap('default-3', 'default-binding-3', 'member3', 4);
const d2b = snap('default-2', 'default-binding-2', 'member2', 4);
const t1 = snap('test-1', 'test-binding-1', 'foo', 1);
const t2 = snap('test-2', 'test-binding-2', 'bar', 1);

describe('Test_mergeBindingSnapshot', () => {
  it.each([
    {
      name: 'merge binding snapshot',
      exist: [d1, d2, d3],
      added: [t1, d2b, t2],
      want: [d1, d2b, d3, t1, t2],
    },
    { name: 'no existing binding snapshot to merge', exist: [], added: [d1, d2, d3], want: [d1, d2, d3] },
  ])(`${LABEL} Test_mergeBindingSnapshot: $name`, ({ exist, added, want }) => {
    expect(mergeBindingSnapshot(exist, added)).toEqual(want);
  });
});

describe('Test_deleteBindingFromSnapshot', () => {
  it.each([
    {
      name: 'delete matching binding from snapshot',
      exist: [d1, snap('test', 'test-binding', 'foo', 1), d2, snap('test', 'test-binding', 'bar', 1), d3],
      want: [d1, d2, d3],
    },
    { name: 'non-matching binding from snapshot', exist: [d1, d2, d3], want: [d1, d2, d3] },
  ])(`${LABEL} Test_deleteBindingFromSnapshot: $name`, ({ exist, want }) => {
    expect(deleteBindingFromSnapshot('test', 'test-binding', exist)).toEqual(want);
  });
});

describe('conflict resolution and preservation of attached bindings', () => {
  it(`${LABEL} Test_detectAndResolveConflictResolution_DetectsAndResolvesConflict`, () => {
    expect(resolveConflictResolution([rb('', '', { conflictResolution: 'Overwrite' }), rb('', '')])).toEqual({
      conflicted: true,
      effective: 'Overwrite',
    });
  });
  it(`${LABEL} Test_detectAndResolvePreserveOnDeletion_DetectsAndResolvesConflict`, () => {
    expect(
      resolvePreserveOnDeletion([
        rb('', '', { preserveResourcesOnDeletion: true }),
        rb('', '', { preserveResourcesOnDeletion: false }),
      ]),
    ).toEqual({ conflicted: true, effective: true });
  });
});

describe('Test_findOrphanAttachedBindings', () => {
  const attached = rb(
    'test',
    'test-binding-1',
    {
      resource: {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'default',
        name: 'pod',
        resourceVersion: '22222',
      },
    },
    { resourceVersion: '1000', labels: { [DEPENDED_BY]: ID } },
  );
  it.each([
    { name: 'find orphan attached bindings - matching dependency', namespace: 'default' },
    { name: 'find orphan attached bindings - non matching dependency', namespace: 'test' },
  ])(`${LABEL} Test_findOrphanAttachedBindings: $name`, ({ namespace }) => {
    const deps: DependentObjectReference[] = [{ apiVersion: 'v1', kind: 'Pod', namespace, name: 'pod-test' }];
    expect(orphanAttachedBindings([attached], deps, () => ({}))).toEqual([attached]);
  });
});

describe('TestDependenciesDistributor_findOrphanAttachedBindingsByDependencies', () => {
  const secret: DependentObjectReference = {
    apiVersion: 'v1',
    kind: 'Secret',
    namespace: 'default',
    name: 'test',
  };
  it.each([
    {
      name: "can't match labels",
      podLabels: { bar: 'bar' },
      dependency: {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'default',
        labelSelector: { matchLabels: { bar: 'foo' } },
      },
      attachedName: 'pod',
    },
    {
      name: "can't match name",
      podLabels: { bar: 'foo' },
      dependency: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'pod' },
      attachedName: 'test2',
    },
  ])(
    `${LABEL} TestDependenciesDistributor_findOrphanAttachedBindingsByDependencies: $name`,
    ({ podLabels, dependency, attachedName }) => {
      const attached = rb('', '', {
        resource: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: attachedName },
      });
      const labelsOf = (b: Readonly<ResourceBinding>) =>
        b.spec.resource.name === 'pod' ? podLabels : undefined;
      expect(orphanAttachedBindings([attached], [secret, dependency], labelsOf)).toEqual([attached]);
    },
  );
});

describe('Test_removeScheduleResultFromAttachedBindings', () => {
  it(`${LABEL} Test_removeScheduleResultFromAttachedBindings: remove schedule result from attached bindings`, () => {
    const resource = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'fake-ns',
      name: 'demo-app',
      resourceVersion: '22222',
    };
    const attached = rb(
      'test',
      'test-binding',
      {
        resource,
        requiredBy: [snap('test', 'test-binding', 'foo', 1), d1, snap('test', 'test-binding', 'bar', 1)],
      },
      { resourceVersion: '1000', labels: { app: 'nginx', [DEPENDED_BY]: ID } },
    );
    const referenced = rb('default-1', 'default-binding-1');
    const got = releasedAttachedBinding(attached, 'test', 'test-binding', () => [referenced]);
    expect(got.metadata.labels).toEqual({ app: 'nginx' });
    expect(got.spec).toEqual({
      resource,
      conflictResolution: 'Abort',
      preserveResourcesOnDeletion: false,
      requiredBy: [d1],
    });
  });
});

describe('Test_createOrUpdateAttachedBinding', () => {
  const resource = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'fake-ns',
    name: 'demo-app',
    resourceVersion: '22222',
  };
  const owner = [{ apiVersion: '', kind: '', name: '', uid: 'foo-bar', controller: true }];
  const desired = (spec: Partial<ResourceBinding['spec']> = {}) =>
    rb(
      'test',
      'test-binding',
      { resource, requiredBy: [t1, d2b, t2], ...spec },
      { labels: { app: 'nginx' }, ownerReferences: owner },
    );
  const stored = (uid = 'foo-bar') =>
    rb(
      'test',
      'test-binding',
      { requiredBy: [d1, d2, d3] },
      {
        resourceVersion: '1000',
        labels: { foo: 'bar' },
        ownerReferences: [{ ...owner[0], uid } as (typeof owner)[number]],
      },
    );
  const refs = (overwrite: string | undefined) => (requiredBy: readonly BindingSnapshot[]) =>
    requiredBy.map((s) =>
      rb(s.namespace ?? '', s.name, s.name === overwrite ? { conflictResolution: 'Overwrite' } : {}),
    );

  it(`${LABEL} Test_createOrUpdateAttachedBinding: update attached binding`, () => {
    const { binding } = mergedAttachedBinding(stored(), desired(), refs(undefined));
    expect(binding.metadata.labels).toEqual({ app: 'nginx', foo: 'bar' });
    expect(binding.spec).toEqual({
      resource,
      conflictResolution: 'Abort',
      preserveResourcesOnDeletion: false,
      requiredBy: [d1, d2b, d3, t1, t2],
    });
  });

  it(`${LABEL} Test_createOrUpdateAttachedBinding: create attached binding`, () => {
    const { binding } = mergedAttachedBinding(
      undefined,
      desired({ preserveResourcesOnDeletion: false }),
      refs(undefined),
    );
    expect(binding.metadata.labels).toEqual({ app: 'nginx' });
    expect(binding.metadata.ownerReferences).toEqual(owner);
    expect(binding.spec).toEqual({
      resource,
      requiredBy: [t1, d2b, t2],
      conflictResolution: 'Abort',
      preserveResourcesOnDeletion: false,
    });
  });

  it(`${LABEL} Test_createOrUpdateAttachedBinding: update attached binding with ConflictResolution`, () => {
    const { binding, conflict } = mergedAttachedBinding(
      stored(),
      desired({ conflictResolution: 'Overwrite' }),
      refs('default-binding-2'),
    );
    expect(binding.spec.conflictResolution).toBe('Overwrite');
    expect(binding.spec.preserveResourcesOnDeletion).toBe(false);
    expect(binding.spec.requiredBy).toEqual([d1, d2b, d3, t1, t2]);
    // Test_createOrUpdateAttachedBinding_emitsConflictEvent: Overwrite beside Abort is reported.
    expect(conflict).toBe(
      'Dependency policy conflict detected: ConflictResolution conflicted (Overwrite vs Abort).',
    );
  });

  it(`${LABEL} Test_createOrUpdateAttachedBinding: update attached binding which is being deleted`, () => {
    expect(() => mergedAttachedBinding(stored('bar-foo'), desired(), refs(undefined))).toThrow(
      AttachedBindingOwnerError,
    );
  });
});
