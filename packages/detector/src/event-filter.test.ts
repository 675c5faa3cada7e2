import { Labels } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  resourceChangeByKarmada,
  specificationChanged,
  templateEventFilter,
  templateUpdateAction,
} from './event-filter.js';
import { compileSkippedNamespaces } from './skipped-namespaces.js';
import { clusterRole, deployment } from './testing/fixtures.js';

const defaults = compileSkippedNamespaces();

describe('templateEventFilter', () => {
  it.each([
    ['an ordinary namespaced object', deployment('web'), true],
    ['a cluster-scoped object', clusterRole('r'), true],
    ['karmada-system', deployment('x', { namespace: 'karmada-system' }), false],
    ['karmada-cluster', deployment('x', { namespace: 'karmada-cluster' }), false],
    ['an execution namespace', deployment('x', { namespace: 'karmada-es-member1' }), false],
    ['kube-system (default skip)', deployment('x', { namespace: 'kube-system' }), false],
    ['kube-public (default skip)', deployment('x', { namespace: 'kube-public' }), false],
    ['a namespace that merely contains kube-', deployment('x', { namespace: 'my-kube-apps' }), true],
    [
      'an object without a kind',
      { apiVersion: 'v1', kind: '', metadata: { name: 'x', namespace: 'default' } },
      false,
    ],
  ])('%s -> %s', (_name, object, expected) => {
    expect(templateEventFilter(object, defaults)).toBe(expected);
  });

  it('drops kube-system/extension-apiserver-authentication even when kube-* is not skipped', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'extension-apiserver-authentication', namespace: 'kube-system' },
    };
    expect(templateEventFilter(cm, [])).toBe(false);
    expect(templateEventFilter({ ...cm, metadata: { ...cm.metadata, name: 'other' } }, [])).toBe(true);
  });

  it('tries each pattern on the empty namespace of cluster-scoped objects, as Karmada does', () => {
    expect(templateEventFilter(clusterRole('r'), compileSkippedNamespaces(['.*']))).toBe(false);
  });
});

const base = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'default',
    resourceVersion: '1',
    generation: 1,
    labels: { app: 'web' },
  },
  spec: { replicas: 1 },
  status: { readyReplicas: 0 },
};

describe('specificationChanged and resourceChangeByKarmada', () => {
  const withMeta = (meta: object) => ({ ...base, metadata: { ...base.metadata, ...meta } });

  it('ignores status, resourceVersion and managedFields', () => {
    const next = {
      ...withMeta({ resourceVersion: '2', managedFields: [{ manager: 'x' }] }),
      status: { readyReplicas: 1 },
    };
    expect(specificationChanged(base, next)).toBe(false);
  });

  it("counts spec, label and annotation changes, Karmada's claim labels included", () => {
    expect(specificationChanged(base, { ...base, spec: { replicas: 2 } })).toBe(true);
    const claimed = withMeta({ labels: { app: 'web', [Labels.PropagationPolicyPermanentId]: 'id' } });
    expect(specificationChanged(base, claimed)).toBe(true);
    expect(resourceChangeByKarmada(base, claimed)).toBe(true);
  });

  it('a user edit is not a change by Karmada', () => {
    expect(resourceChangeByKarmada(base, { ...base, spec: { replicas: 2 } })).toBe(false);
    expect(resourceChangeByKarmada(base, withMeta({ labels: { app: 'other' } }))).toBe(false);
  });

  it("generation alone and namespace.karmada.io/skip-auto-propagation are treated as Karmada's and the user's", () => {
    expect(resourceChangeByKarmada(base, withMeta({ generation: 5 }))).toBe(true);
    const skip = withMeta({ labels: { app: 'web', [Labels.NamespaceSkipAutoPropagation]: 'true' } });
    expect(resourceChangeByKarmada(base, skip)).toBe(false);
  });

  it("templateUpdateAction drops no-op updates and flags Karmada's changes only for Lazy claims", () => {
    const claimed = withMeta({ labels: { app: 'web', [Labels.PropagationPolicyPermanentId]: 'id' } });
    expect(templateUpdateAction(base, { ...base, status: { readyReplicas: 3 } }, true)).toEqual({
      enqueue: false,
    });
    expect(templateUpdateAction(base, claimed, true)).toEqual({
      enqueue: true,
      resourceChangeByKarmada: true,
    });
    expect(templateUpdateAction(base, claimed, false)).toEqual({
      enqueue: true,
      resourceChangeByKarmada: false,
    });
    expect(templateUpdateAction(base, { ...base, spec: { replicas: 3 } }, true)).toEqual({
      enqueue: true,
      resourceChangeByKarmada: false,
    });
  });
});
