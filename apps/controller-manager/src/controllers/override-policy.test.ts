import type { ClusterOverridePolicy, OverridePolicy, Overriders, UnstructuredObject } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { applyJsonPatch, JsonPatchError } from './json-patch.js';
import { appliedOverridesJson, applyOverridePolicies, OverrideApplyError } from './override-policy.js';
import { cluster, deepFreeze } from './testing/fixtures.js';

const deployment: UnstructuredObject = deepFreeze({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27', args: ['--port=80'] }] } },
  },
});

const op = (name: string, overriders: Overriders, target?: string[], namespace = 'default'): OverridePolicy =>
  deepFreeze({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'OverridePolicy',
    metadata: { name, namespace },
    spec: { overrideRules: [{ ...(target ? { targetCluster: { clusterNames: target } } : {}), overriders }] },
  });
const cop = (name: string, overriders: Overriders): ClusterOverridePolicy =>
  deepFreeze({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterOverridePolicy',
    metadata: { name },
    spec: { overrideRules: [{ overriders }] },
  });

const image = (o: UnstructuredObject): unknown =>
  (o.spec as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers[0]!
    .image;

describe('applyOverridePolicies', () => {
  const member1 = cluster('member1');
  const member2 = cluster('member2');
  const registry = op(
    'registry',
    { imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'mirror.example' }] },
    ['member1'],
  );

  it('changes the image for the targeted cluster only, and records what it applied', () => {
    const one = applyOverridePolicies(deployment, member1, [], [registry]);
    const two = applyOverridePolicies(deployment, member2, [], [registry]);
    expect(image(one.object)).toBe('mirror.example/nginx:1.27');
    expect(image(two.object)).toBe('nginx:1.27');
    expect(one.annotations).toEqual({
      'policy.karmada.io/applied-overrides':
        '[{"policyName":"registry","overriders":{"imageOverrider":[{"component":"Registry","operator":"replace","value":"mirror.example"}]}}]',
    });
    expect(two.annotations).toEqual({});
  });

  it('applies ClusterOverridePolicies first, then OverridePolicies; each kind by name', () => {
    const tagA = op('a', { plaintext: [{ path: '/metadata/labels/order', operator: 'add', value: 'a' }] });
    const tagB = op('b', {
      plaintext: [{ path: '/metadata/labels/order', operator: 'replace', value: 'b' }],
    });
    const clusterWide = cop('z', {
      plaintext: [{ path: '/metadata/labels/order', operator: 'add', value: 'cluster' }],
    });
    const { object, annotations } = applyOverridePolicies(deployment, member1, [clusterWide], [tagB, tagA]);
    expect(object.metadata.labels?.order).toBe('b');
    expect(Object.keys(annotations).sort()).toEqual([
      'policy.karmada.io/applied-cluster-overrides',
      'policy.karmada.io/applied-overrides',
    ]);
  });

  it('ignores OverridePolicies of other namespaces, and all of them for a cluster-scoped object', () => {
    const elsewhere = op(
      'x',
      { labelsOverrider: [{ operator: 'add', value: { x: '1' } }] },
      undefined,
      'other',
    );
    expect(applyOverridePolicies(deployment, member1, [], [elsewhere]).annotations).toEqual({});
    const role: UnstructuredObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'r' },
    };
    const local = op('y', { labelsOverrider: [{ operator: 'add', value: { y: '1' } }] });
    expect(applyOverridePolicies(role, member1, [], [local]).object.metadata.labels).toBeUndefined();
  });

  it('returns the template itself, uncopied, for a cluster no rule targets', () => {
    expect(applyOverridePolicies(deployment, member2, [], [registry]).object).toBe(deployment);
  });

  it('does not change its input', () => {
    applyOverridePolicies(deployment, member1, [], [registry]);
    expect(image(deployment)).toBe('nginx:1.27');
  });

  it('reports a patch that does not apply as OverrideApplyError naming the policy and the cluster', () => {
    const bad = op('bad', { plaintext: [{ path: '/spec/nothing/here', operator: 'replace', value: 1 }] });
    expect(() => applyOverridePolicies(deployment, member1, [], [bad])).toThrow(OverrideApplyError);
    expect(() => applyOverridePolicies(deployment, member1, [], [bad])).toThrow(
      /default\/bad for cluster member1/,
    );
  });
});

describe('appliedOverridesJson', () => {
  // The expected text is what Karmada's AppliedOverrides.MarshalJSON wrote for the same items at f8fdd02.
  it('writes what Karmada writes: sorted by policy, Go field order, sorted label keys, HTML escaped', () => {
    const json = appliedOverridesJson([
      {
        name: 'zeta',
        namespace: '',
        overriders: {
          plaintext: [
            { path: '/spec/replicas', operator: 'replace', value: { b: 1, a: '<x>&' } },
            { path: '/metadata/labels/x', operator: 'remove' },
          ],
          argsOverrider: [{ containerName: 'nginx', operator: 'add', value: ['--a=b>c'] }],
        },
      },
      {
        name: 'alpha',
        namespace: '',
        overriders: {
          labelsOverrider: [{ operator: 'add', value: { z: '1', a: '2' } }],
          commandOverrider: [{ containerName: 'c', operator: 'remove' }],
          imageOverrider: [
            { component: 'Registry', operator: 'replace', value: 'registry.example.com' },
            { predicate: { path: '/spec/containers/0/image' }, component: 'Tag', operator: 'remove' },
          ],
        },
      },
    ]);
    expect(json).toBe(
      '[{"policyName":"alpha","overriders":{"imageOverrider":[{"component":"Registry","operator":"replace","value":"registry.example.com"},{"predicate":{"path":"/spec/containers/0/image"},"component":"Tag","operator":"remove"}],"commandOverrider":[{"containerName":"c","operator":"remove"}],"labelsOverrider":[{"operator":"add","value":{"a":"2","z":"1"}}]}},{"policyName":"zeta","overriders":{"plaintext":[{"path":"/spec/replicas","operator":"replace","value":{"b":1,"a":"\\u003cx\\u003e\\u0026"}},{"path":"/metadata/labels/x","operator":"remove","value":null}],"argsOverrider":[{"containerName":"nginx","operator":"add","value":["--a=b\\u003ec"]}]}}]',
    );
  });
});

describe('applyJsonPatch (evanphx/json-patch v5 strictness)', () => {
  const doc = deepFreeze({ a: { b: [1, 2] }, c: 'x' });
  it.each([
    ['add a key', [{ op: 'add', path: '/d', value: 1 }], { a: { b: [1, 2] }, c: 'x', d: 1 }],
    [
      'add at the end of an array',
      [{ op: 'add', path: '/a/b/-', value: 3 }],
      { a: { b: [1, 2, 3] }, c: 'x' },
    ],
    ['insert into an array', [{ op: 'add', path: '/a/b/0', value: 0 }], { a: { b: [0, 1, 2] }, c: 'x' }],
    ['replace', [{ op: 'replace', path: '/c', value: 'y' }], { a: { b: [1, 2] }, c: 'y' }],
    ['remove', [{ op: 'remove', path: '/a/b/1' }], { a: { b: [1] }, c: 'x' }],
    ['escaped key', [{ op: 'add', path: '/a/x~1y', value: true }], { a: { b: [1, 2], 'x/y': true }, c: 'x' }],
  ] as const)('%s', (_name, ops, want) => {
    expect(applyJsonPatch(doc, ops)).toEqual(want);
  });

  it.each([
    ['replace a missing key', { op: 'replace', path: '/nope', value: 1 }],
    ['remove a missing key', { op: 'remove', path: '/nope' }],
    ['add under a missing parent', { op: 'add', path: '/x/y', value: 1 }],
    ['index out of range', { op: 'replace', path: '/a/b/5', value: 1 }],
  ] as const)('%s is an error', (_name, operation) => {
    expect(() => applyJsonPatch(doc, [operation])).toThrow(JsonPatchError);
  });
});
