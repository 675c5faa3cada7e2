// Karmada conformance: what the binding controller does when the override policies do not apply for one target
// cluster of a binding, as Karmada f8fdd02df3760fd9521624f284877fa84e7be6ef does it:
// - ensureWork (pkg/controllers/binding/common.go) `continue`s past a cluster whose ApplyOverridePolicies
//   fails: the clusters before AND after it get their Works; the errors come back as errors.NewAggregate.
// - removeOrphanWorks runs first in syncBinding (binding_controller.go, cluster_resource_binding_controller.go),
//   judged by ObtainBindingSpecExistingClusters (the binding's spec), so it runs even when ensureWork then
//   fails, and the failing cluster's Work is not an orphan: it stays as it is.
// - applyClusterOverrides / applyNamespacedOverrides (pkg/util/overridemanager/overridemanager.go) emit a
//   Warning ApplyOverridePolicyFailed on the template; ApplyOverridePolicies fails before any policy (and so
//   without that Event) when the Cluster object cannot be read.
import type { ClusterOverridePolicy, OverridePolicy, Overriders, TargetCluster, Work } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { OverrideApplyError } from './override-policy.js';
import {
  APPLY_OVERRIDE_POLICY_FAILED,
  aggregateMessage,
  applyOverridePolicyFailedMessage,
  WorkSyncFailedError,
} from './sync-work-failure.js';
import { cluster, deepFreeze, deploymentTemplate, resourceBinding, work } from './testing/fixtures.js';
import { type DesiredWorksResult, desiredWorks, orphanWorks, type WorkOverrides } from './work-builder.js';

// A patch that cannot apply to a Deployment: replace needs the path to exist.
const BROKEN: Overriders = { plaintext: [{ path: '/spec/nothing/here', operator: 'replace', value: 1 }] };
const WORKING: Overriders = { plaintext: [{ path: '/spec/replicas', operator: 'replace', value: 7 }] };

const op = (name: string, clusters: readonly string[], overriders: Overriders): OverridePolicy =>
  deepFreeze({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'OverridePolicy',
    metadata: { name, namespace: 'default' },
    spec: { overrideRules: [{ targetCluster: { clusterNames: [...clusters] }, overriders }] },
  });
const cop = (name: string, clusters: readonly string[], overriders: Overriders): ClusterOverridePolicy =>
  deepFreeze({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'ClusterOverridePolicy',
    metadata: { name },
    spec: { overrideRules: [{ targetCluster: { clusterNames: [...clusters] }, overriders }] },
  });
const overrides = (
  p: { ops?: OverridePolicy[]; cops?: ClusterOverridePolicy[] },
  known = ['member1', 'member2', 'member3'],
): WorkOverrides => ({
  clusterOverridePolicies: p.cops ?? [],
  overridePolicies: p.ops ?? [],
  clusters: new Map(known.map((n) => [n, cluster(n)])),
});

// Deliberately not in name order: Karmada walks spec.clusters as written.
const TARGETS: TargetCluster[] = [{ name: 'member3' }, { name: 'member1' }, { name: 'member2' }];
const binding = resourceBinding({ clusters: TARGETS });
const works = (r: DesiredWorksResult): { clusters: string[]; failed: OverrideApplyError[] } => {
  if (r.kind !== 'Works') throw new Error(r.message);
  return {
    clusters: r.works.map((w) => w.metadata.namespace ?? ''),
    failed: [...r.failed],
  };
};

describe('ensureWork: an override that fails for cluster k of n (Karmada f8fdd02 common.go)', () => {
  it.each([0, 1, 2])('cluster %i of 3 fails: every other cluster gets its Work', (k) => {
    const failing = TARGETS[k]!.name;
    const r = works(
      desiredWorks({
        binding,
        template: deploymentTemplate(),
        overrides: overrides({
          ops: [op('broken', [failing], BROKEN), op('fine', ['member1', 'member2', 'member3'], WORKING)],
        }),
      }),
    );
    const others = TARGETS.map((t) => t.name).filter((n) => n !== failing);
    expect(r.clusters).toEqual(others.map((n) => `karmada-es-${n}`).sort());
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0]).toBeInstanceOf(OverrideApplyError);
    expect(r.failed[0]).toMatchObject({
      cluster: failing,
      policy: 'default/broken',
      policyKind: 'OverridePolicy',
    });
  });

  it('several clusters fail: each is reported, in the binding’s cluster order, the rest still built', () => {
    const r = works(
      desiredWorks({
        binding,
        template: deploymentTemplate(),
        overrides: overrides({ cops: [cop('broken', ['member2', 'member3'], BROKEN)] }),
      }),
    );
    expect(r.clusters).toEqual(['karmada-es-member1']);
    expect(r.failed.map((f) => [f.cluster, f.policy, f.policyKind])).toEqual([
      ['member3', 'broken', 'ClusterOverridePolicy'],
      ['member2', 'broken', 'ClusterOverridePolicy'],
    ]);
  });

  it('a Cluster object that is not known fails that cluster only, with no policy to blame', () => {
    const r = works(
      desiredWorks({
        binding,
        template: deploymentTemplate(),
        overrides: overrides({ ops: [op('fine', ['member1'], WORKING)] }, ['member1', 'member3']),
      }),
    );
    expect(r.clusters).toEqual(['karmada-es-member1', 'karmada-es-member3']);
    expect(r.failed.map((f) => [f.cluster, f.policyKind])).toEqual([['member2', undefined]]);
    expect(applyOverridePolicyFailedMessage(r.failed[0]!)).toBeUndefined();
    expect(r.failed[0]!.message).toMatch(/no Cluster object of that name is in the cache/);
    expect(r.failed[0]!.message).not.toMatch(/fix the policy/);
  });

  it('the Works built beside a failure are the ones built without it', () => {
    const input = { binding, template: deploymentTemplate(), newWorkId: () => 'wid' };
    const fine = overrides({ ops: [op('fine', ['member1', 'member2', 'member3'], WORKING)] });
    const alone = desiredWorks({ ...input, overrides: fine });
    const beside = desiredWorks({
      ...input,
      overrides: overrides({ ops: [...fine.overridePolicies, op('broken', ['member1'], BROKEN)] }),
    });
    if (alone.kind !== 'Works' || beside.kind !== 'Works') throw new Error('not built');
    const byNamespace = (ws: readonly Work[], ns: string) =>
      JSON.stringify(ws.find((w) => w.metadata.namespace === ns));
    for (const ns of ['karmada-es-member2', 'karmada-es-member3'])
      expect(byNamespace(beside.works, ns)).toBe(byNamespace(alone.works, ns));
  });
});

describe('removeOrphanWorks runs before ensureWork and judges by the binding (Karmada f8fdd02 binding_controller.go)', () => {
  const id = { 'resourcebinding.karmada.io/permanent-id': 'rb-id-1' };
  const onFailing = work({ namespace: 'karmada-es-member2', labels: id });
  const onRemoved = work({ namespace: 'karmada-es-gone', labels: id });

  it('the failing cluster’s Work is kept; a Work on a cluster no longer targeted is an orphan', () => {
    // desiredWorks left member2 out (its override failed); the binding still targets it.
    expect(orphanWorks([onFailing, onRemoved], binding)).toEqual([onRemoved]);
  });

  it('a required-by cluster is targeted too', () => {
    const required = resourceBinding({
      clusters: [{ name: 'member1' }],
      spec: { requiredBy: [{ name: 'parent', namespace: 'default', clusters: [{ name: 'member2' }] }] },
    });
    expect(orphanWorks([onFailing, onRemoved], required)).toEqual([onRemoved]);
  });
});

describe('the Events (Karmada f8fdd02 overridemanager.go, binding_controller.go)', () => {
  it.each<[string, OverrideApplyError, string]>([
    [
      'an OverridePolicy',
      new OverrideApplyError('default/broken', 'member2', new Error('x'), 'OverridePolicy'),
      'Apply override policy(default/broken) for cluster(member2) failed.',
    ],
    [
      'a ClusterOverridePolicy',
      new OverrideApplyError('broken', 'member2', new Error('x'), 'ClusterOverridePolicy'),
      'Apply cluster override policy(broken) for cluster(member2) failed.',
    ],
  ])('%s: ApplyOverridePolicyFailed on the template, in Karmada’s words', (_, failure, message) => {
    expect(APPLY_OVERRIDE_POLICY_FAILED).toBe('ApplyOverridePolicyFailed');
    expect(applyOverridePolicyFailedMessage(failure)).toBe(message);
  });

  // k8s.io/apimachinery/pkg/util/errors aggregate.Error(), which is the SyncWorkFailed message.
  it.each<[string[], string]>([
    [['a'], 'a'],
    [['a', 'b'], '[a, b]'],
    [['a', 'b', 'a'], '[a, b]'],
    [['a', 'a'], 'a'],
    [[], ''],
  ])('the SyncWorkFailed message of %j is %j', (messages, want) => {
    expect(aggregateMessage(messages)).toBe(want);
  });

  it('WorkSyncFailedError carries the per-cluster messages as one aggregate', () => {
    const one = new OverrideApplyError('default/broken', 'member3', new Error('x'), 'OverridePolicy');
    const two = new OverrideApplyError('default/broken', 'member2', new Error('x'), 'OverridePolicy');
    expect(new WorkSyncFailedError([one]).message).toBe(one.message);
    expect(new WorkSyncFailedError([one, two]).message).toBe(`[${one.message}, ${two.message}]`);
  });
});
