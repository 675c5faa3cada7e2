import {
  Annotations,
  type ClusterResourceBinding,
  Finalizers,
  Labels,
  type ResourceBinding,
} from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { buildDesiredBinding, type DesiredBinding } from './binding-builder.js';
import {
  changesOnlyRecordedVersion,
  mergeSuspension,
  mutateBinding,
  planBindingWrite,
} from './binding-update.js';
import { BindingOwnerMismatchError } from './errors.js';
import { all, clusterRole, cpp, cppClaimed, deployment, pp, wire } from './testing/fixtures.js';

const template = deployment('web', { uid: 'u-web', resourceVersion: '10' });
const policy = pp('web-pp', [all()], {
  spec: {
    placement: { clusterAffinity: { clusterNames: ['m1', 'm2'] } },
    conflictResolution: 'Abort',
    schedulerName: 'default-scheduler',
  },
});
const desired = buildDesiredBinding(template, { kind: 'PropagationPolicy', policy });

/** The binding as the cache holds it after the API server stored it and other controllers did their part. */
function stored(d: DesiredBinding = desired): ResourceBinding {
  const b = wire(d.binding) as ResourceBinding;
  return {
    ...b,
    metadata: {
      ...b.metadata,
      uid: 'rb-uid',
      resourceVersion: '555',
      generation: 3,
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    spec: {
      ...b.spec,
      clusters: [
        { name: 'm1', replicas: 1 },
        { name: 'm2', replicas: 1 },
      ],
      gracefulEvictionTasks: [{ fromCluster: 'm3', reason: 'TaintUntolerated', producer: 'taint-manager' }],
      requiredBy: [{ namespace: 'default', name: 'other-deployment' }],
      rescheduleTriggeredAt: '2026-01-01T00:00:00Z',
    },
    status: { schedulerObservedGeneration: 3, conditions: [] },
  };
}

describe('planBindingWrite', () => {
  it('creates the binding when there is none', () => {
    expect(planBindingWrite(desired, undefined)).toEqual({ op: 'create', binding: desired.binding });
  });

  it("gives a new binding its permanent id, as Karmada's binding webhook does on create", () => {
    const plan = planBindingWrite(desired, undefined, () => 'rb-new-id');
    expect(plan.op === 'create' && plan.binding.metadata.labels).toEqual({
      ...desired.binding.metadata.labels,
      'resourcebinding.karmada.io/permanent-id': 'rb-new-id',
    });
    // An update never touches it: the stored binding keeps the id it has.
    expect(planBindingWrite(desired, stored(), () => 'other')).toEqual({ op: 'none' });
  });

  it('writes nothing when the stored binding already says it all (the restart case)', () => {
    expect(planBindingWrite(desired, stored())).toEqual({ op: 'none' });
  });

  it('writes nothing for a binding Karmada wrote, where Go left empty lists out', () => {
    const tolerant = pp('web-pp', [all()], {
      spec: { placement: { clusterAffinity: { clusterNames: ['m1'] }, clusterTolerations: [] } },
    });
    const ours = buildDesiredBinding(template, { kind: 'PropagationPolicy', policy: tolerant });
    const b = stored(ours);
    const goWritten = { ...b, spec: { ...b.spec, placement: { clusterAffinity: { clusterNames: ['m1'] } } } };
    expect(planBindingWrite(ours, goWritten)).toEqual({ op: 'none' });
  });

  it('writes nothing when the binding has extra labels, annotations or finalizers of its own', () => {
    const b = stored();
    const extra: ResourceBinding = {
      ...b,
      metadata: {
        ...b.metadata,
        labels: { ...b.metadata.labels, [Labels.ResourceBindingPermanentId]: 'rb-id', team: 'a' },
        annotations: { ...b.metadata.annotations, note: 'x' },
      },
    };
    expect(planBindingWrite(desired, extra)).toEqual({ op: 'none' });
  });

  it('updates spec.resource when the template changed, and keeps what the scheduler and others wrote', () => {
    const edited = deployment('web', { uid: 'u-web', resourceVersion: '11' });
    const next = buildDesiredBinding(edited, { kind: 'PropagationPolicy', policy });
    const existing = stored();
    const plan = planBindingWrite(next, existing);
    expect(plan.op).toBe('update');
    if (plan.op !== 'update') return;
    expect(plan.binding.spec.resource.resourceVersion).toBe('11');
    expect(plan.binding.spec.clusters).toBe(existing.spec.clusters);
    expect(plan.binding.spec.gracefulEvictionTasks).toBe(existing.spec.gracefulEvictionTasks);
    expect(plan.binding.spec.requiredBy).toBe(existing.spec.requiredBy);
    expect(plan.binding.spec.rescheduleTriggeredAt).toBe(existing.spec.rescheduleTriggeredAt);
    expect(plan.binding.status).toBe(existing.status);
    expect(plan.binding.metadata.resourceVersion).toBe('555');
  });

  it("updates when the policy's placement changed, and clears fields the policy dropped", () => {
    const changed = pp('web-pp', [all()], {
      spec: { placement: { clusterAffinity: { clusterNames: ['m3'] } } },
    });
    const plan = planBindingWrite(
      buildDesiredBinding(template, { kind: 'PropagationPolicy', policy: changed }),
      stored(),
    );
    expect(plan.op).toBe('update');
    if (plan.op !== 'update') return;
    expect(plan.binding.spec.placement).toEqual({ clusterAffinity: { clusterNames: ['m3'] } });
    expect(plan.binding.spec).not.toHaveProperty('conflictResolution');
    expect(plan.binding.spec).not.toHaveProperty('schedulerName');
  });

  it('merges finalizers as Karmada does: the sorted union when both sides have some', () => {
    const b = stored();
    const mine = {
      ...b,
      metadata: { ...b.metadata, finalizers: ['z.example.com/keep', Finalizers.ResourceBinding] },
    };
    const plan = planBindingWrite(desired, mine);
    expect(plan.op).toBe('update');
    if (plan.op === 'update') {
      expect(plan.binding.metadata.finalizers).toEqual([Finalizers.ResourceBinding, 'z.example.com/keep']);
      expect(planBindingWrite(desired, plan.binding)).toEqual({ op: 'none' });
    }
  });

  it('refuses to touch a binding controlled by a deleted predecessor (issue #2090)', () => {
    const b = stored();
    const foreign = {
      ...b,
      metadata: { ...b.metadata, ownerReferences: [{ ...b.metadata.ownerReferences![0]!, uid: 'old-uid' }] },
    };
    expect(() => planBindingWrite(desired, foreign)).toThrow(BindingOwnerMismatchError);
  });

  it("a PropagationPolicy's binding drops a ClusterPropagationPolicy's claim", () => {
    const b = stored();
    const withCpp = { ...b, metadata: cppClaimed(b.metadata, cpp('old', [all()])) };
    const plan = planBindingWrite(desired, withCpp);
    expect(plan.op).toBe('update');
    if (plan.op !== 'update') return;
    expect(plan.binding.metadata.labels).not.toHaveProperty(Labels.ClusterPropagationPolicyPermanentId);
    expect(plan.binding.metadata.annotations).not.toHaveProperty(Annotations.ClusterPropagationPolicyName);
    expect(plan.binding.metadata.labels).toHaveProperty(Labels.PropagationPolicyPermanentId, 'pp-id-web-pp');
  });

  it("a ClusterPropagationPolicy's ResourceBinding updates propagateDeps", () => {
    const global = (deps: boolean) => cpp('global', [all()], { spec: { propagateDeps: deps } });
    const before = buildDesiredBinding(template, { kind: 'ClusterPropagationPolicy', policy: global(false) });
    const after = buildDesiredBinding(template, { kind: 'ClusterPropagationPolicy', policy: global(true) });
    expect(planBindingWrite(after, stored(before)).op).toBe('update');
  });

  it('a ClusterResourceBinding keeps propagateDeps as created, like Karmada (known gap), but takes placement', () => {
    const role = clusterRole('reader');
    const roles = (deps: boolean, clusters: string[]) =>
      cpp('roles', [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }], {
        spec: { propagateDeps: deps, placement: { clusterAffinity: { clusterNames: clusters } } },
      });
    const created = wire(
      buildDesiredBinding(role, { kind: 'ClusterPropagationPolicy', policy: roles(false, ['m1']) }).binding,
    );
    const depsOnly = buildDesiredBinding(role, {
      kind: 'ClusterPropagationPolicy',
      policy: roles(true, ['m1']),
    });
    expect(planBindingWrite(depsOnly, created as ClusterResourceBinding)).toEqual({ op: 'none' });
    const moved = buildDesiredBinding(role, {
      kind: 'ClusterPropagationPolicy',
      policy: roles(true, ['m2']),
    });
    const plan = planBindingWrite(moved, created as ClusterResourceBinding);
    expect(plan.op).toBe('update');
    if (plan.op === 'update') expect(plan.binding.spec).not.toHaveProperty('propagateDeps');
  });

  it("merges suspension: the policy's dispatching replaces, the binding's scheduling stays", () => {
    const suspended = pp('web-pp', [all()], {
      spec: { suspension: { dispatchingOnClusters: { clusterNames: ['m1'] } } },
    });
    const b = stored();
    const withScheduling = { ...b, spec: { ...b.spec, suspension: { dispatching: true, scheduling: true } } };
    const mutated = mutateBinding(
      withScheduling,
      buildDesiredBinding(template, { kind: 'PropagationPolicy', policy: suspended }),
    );
    expect(mutated.spec.suspension).toEqual({
      dispatchingOnClusters: { clusterNames: ['m1'] },
      scheduling: true,
    });
  });
});

describe('changesOnlyRecordedVersion', () => {
  it('tells a new template resourceVersion alone from a change the binding must carry', () => {
    const existing = stored();
    const statusOnly = buildDesiredBinding(deployment('web', { uid: 'u-web', resourceVersion: '11' }), {
      kind: 'PropagationPolicy',
      policy,
    });
    const plan = planBindingWrite(statusOnly, existing);
    expect(plan.op).toBe('update');
    if (plan.op !== 'update') return;
    expect(changesOnlyRecordedVersion(existing, plan.binding)).toBe(true);

    const scaled = deployment('web', {
      uid: 'u-web',
      resourceVersion: '12',
      spec: { replicas: 7, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const withReplicas = planBindingWrite(
      buildDesiredBinding(scaled, { kind: 'PropagationPolicy', policy }),
      existing,
    );
    expect(withReplicas.op).toBe('update');
    if (withReplicas.op !== 'update') return;
    expect(changesOnlyRecordedVersion(existing, withReplicas.binding)).toBe(false);
  });
});

describe('mergeSuspension', () => {
  it.each([
    ['no policy, no binding suspension', undefined, undefined, undefined],
    ['policy only', undefined, { dispatching: true }, { dispatching: true }],
    [
      'policy cleared: dispatching goes, scheduling stays',
      { dispatching: true, scheduling: true },
      undefined,
      { scheduling: true },
    ],
    ['policy cleared, nothing left', { dispatching: true }, undefined, {}],
  ] as const)('%s', (_name, existing, policySuspension, expected) => {
    expect(mergeSuspension(existing, policySuspension)).toEqual(expected);
  });
});
