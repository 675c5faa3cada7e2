// What decides whether the dependencies distributor writes: a restart over state it (or Karmada) wrote must find
// nothing to change.
import type { ResourceBinding, UnstructuredObject } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  attachedBindingPatch,
  buildAttachedBinding,
  DependenciesAnnotationError,
  dependenciesAnnotationValue,
  dependenciesRecorded,
  mergedAttachedBinding,
  recordedDependencies,
  releasedAttachedBinding,
} from './attached-binding.js';
import type { DependentObjectReference } from './dependencies.js';

const DEPS = 'resourcebinding.karmada.io/dependencies';
const independent: ResourceBinding = {
  apiVersion: 'work.karmada.io/v1alpha2',
  kind: 'ResourceBinding',
  metadata: { namespace: 'app', name: 'web-deployment', labels: {} },
  spec: {
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'app', name: 'web' },
    propagateDeps: true,
    clusters: [{ name: 'member1' }, { name: 'member2' }],
  },
};
const configMap: UnstructuredObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'app', name: 'web-config', uid: 'u1', resourceVersion: '7' },
};
const deps: DependentObjectReference[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app', name: 'a' },
  { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app', name: 'b' },
];
const withAnnotation = (value: string): ResourceBinding => ({
  ...independent,
  metadata: { ...independent.metadata, annotations: { [DEPS]: value } },
});

describe('the dependencies annotation', () => {
  it('is written in Go field order', () => {
    expect(
      dependenciesAnnotationValue([
        { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app', name: 'a' },
        { apiVersion: 'v1', kind: 'Secret', namespace: 'app', labelSelector: { matchLabels: { x: 'y' } } },
      ]),
    ).toBe(
      '[{"apiVersion":"v1","kind":"ConfigMap","namespace":"app","name":"a"},{"apiVersion":"v1","kind":"Secret","namespace":"app","labelSelector":{"matchLabels":{"x":"y"}}}]',
    );
  });

  it('counts as recorded when Karmada listed the same names in another order (a Go map order)', () => {
    const reversed = dependenciesAnnotationValue([...deps].reverse());
    expect(dependenciesRecorded(withAnnotation(reversed), deps)).toBe(true);
    expect(dependenciesRecorded(withAnnotation(dependenciesAnnotationValue(deps.slice(1))), deps)).toBe(
      false,
    );
    expect(dependenciesRecorded(independent, deps)).toBe(false);
    expect(dependenciesRecorded(withAnnotation('[]'), [])).toBe(true);
    expect(dependenciesRecorded(withAnnotation('null'), [])).toBe(true);
    // Nothing to depend on is written as Karmada's Go marshals a nil slice.
    expect(dependenciesAnnotationValue([])).toBe('null');
  });

  it('is rewritten, not trusted, when unreadable', () => {
    expect(dependenciesRecorded(withAnnotation('{oops'), deps)).toBe(false);
    expect(() => recordedDependencies(withAnnotation('{oops'))).toThrow(DependenciesAnnotationError);
    expect(() => recordedDependencies(withAnnotation('[{"name":"x"}]'))).toThrow(/entry 0 has no apiVersion/);
  });
});

describe('attached binding writes', () => {
  const referencing = () => [independent];
  const created = mergedAttachedBinding(
    undefined,
    buildAttachedBinding(independent, configMap),
    referencing,
  ).binding;
  const stored: ResourceBinding = { ...created, metadata: { ...created.metadata, resourceVersion: '100' } };

  it('creates what Karmada creates: requiredBy with the clusters, Abort and no preservation', () => {
    expect(created.metadata.name).toBe('web-config-configmap');
    expect(created.spec).toEqual({
      resource: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'app',
        name: 'web-config',
        uid: 'u1',
        resourceVersion: '7',
      },
      requiredBy: [
        { namespace: 'app', name: 'web-deployment', clusters: [{ name: 'member1' }, { name: 'member2' }] },
      ],
      conflictResolution: 'Abort',
      preserveResourcesOnDeletion: false,
    });
  });

  it('writes nothing when the stored binding already says it', () => {
    const again = mergedAttachedBinding(
      stored,
      buildAttachedBinding(independent, configMap),
      referencing,
    ).binding;
    expect(attachedBindingPatch(stored, again)).toBeUndefined();
  });

  it('patches only what changed, conditional on the cached resourceVersion', () => {
    const moved = { ...independent, spec: { ...independent.spec, clusters: [{ name: 'member1' }] } };
    const next = mergedAttachedBinding(
      stored,
      buildAttachedBinding(moved, {
        ...configMap,
        metadata: { ...configMap.metadata, resourceVersion: '8' },
      }),
      () => [moved],
    ).binding;
    expect(attachedBindingPatch(stored, next)).toEqual({
      metadata: { resourceVersion: '100' },
      spec: {
        resource: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          namespace: 'app',
          name: 'web-config',
          uid: 'u1',
          resourceVersion: '8',
        },
        requiredBy: [{ namespace: 'app', name: 'web-deployment', clusters: [{ name: 'member1' }] }],
      },
    });
  });

  it('when released by its last binding: label removed, requiredBy and the strategy fields gone', () => {
    const released = releasedAttachedBinding(stored, 'app', 'web-deployment', () => []);
    const patch = attachedBindingPatch(stored, released);
    const label = Object.keys(stored.metadata.labels ?? {})[0] ?? '';
    expect(label).toMatch(/^resourcebinding\.karmada\.io\/depended-by-/);
    expect(patch).toEqual({
      metadata: { resourceVersion: '100', labels: { [label]: null } },
      spec: { requiredBy: null, conflictResolution: null, preserveResourcesOnDeletion: null },
    });
    expect(
      attachedBindingPatch(
        released,
        releasedAttachedBinding(released, 'app', 'web-deployment', () => []),
      ),
    ).toBeUndefined();
  });

  it('a binding a policy made (with placement) keeps its strategy fields when released', () => {
    const policyMade: ResourceBinding = { ...stored, spec: { ...stored.spec, placement: {} } };
    const released = releasedAttachedBinding(policyMade, 'app', 'web-deployment', () => []);
    expect(released.spec.conflictResolution).toBe('Abort');
    expect(released.spec.requiredBy).toBeUndefined();
  });
});
