import type { Work } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from './testing/fixtures.js';
import { workMergePatch } from './work-patch.js';

const work = (o: { labels?: Record<string, string>; finalizers?: string[]; spec?: Work['spec'] }): Work =>
  deepFreeze({
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name: 'web-abc',
      namespace: 'karmada-es-member1',
      resourceVersion: '42',
      labels: { other: 'x', ...o.labels },
      ...(o.finalizers ? { finalizers: o.finalizers } : {}),
    },
    spec: o.spec ?? { workload: { manifests: [{ kind: 'Deployment', spec: { replicas: 2 } }] } },
  });

describe('workMergePatch', () => {
  it('sends the spec and only the labels that changed, without a resourceVersion', () => {
    const existing = work({ labels: { a: '1', b: '2' }, finalizers: ['karmada.io/execution-controller'] });
    const desired = work({
      labels: { a: '1', b: '3' },
      finalizers: ['karmada.io/execution-controller'],
      spec: { workload: { manifests: [{ kind: 'Deployment', spec: { replicas: 5 } }] } },
    });
    expect(workMergePatch(existing, desired)).toEqual({
      metadata: { labels: { b: '3' } },
      spec: { workload: { manifests: [{ kind: 'Deployment', spec: { replicas: 5 } }] } },
    });
  });

  it('removes a spec field the desired Work no longer sets', () => {
    const existing = work({ spec: { suspendDispatching: true, workload: { manifests: [] } } });
    const desired = work({ spec: { workload: { manifests: [] } } });
    expect(workMergePatch(existing, desired)).toEqual({
      spec: { workload: { manifests: [] }, suspendDispatching: null },
    });
  });

  it('adds a missing finalizer to the existing ones, conditional on the cached version', () => {
    const existing = work({ finalizers: ['other'] });
    const desired = work({ finalizers: ['karmada.io/execution-controller'] });
    expect(workMergePatch(existing, desired).metadata).toEqual({
      finalizers: ['other', 'karmada.io/execution-controller'],
      resourceVersion: '42',
    });
  });
});
