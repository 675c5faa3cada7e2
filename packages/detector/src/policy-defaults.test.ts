import { Finalizers, Labels } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { defaultClusterPropagationPolicy, defaultPropagationPolicy } from './policy-defaults.js';
import { semanticallyEqual } from './semantic-equal.js';
import { all, cpp, pp } from './testing/fixtures.js';

const newId = () => 'generated-uuid';

describe('defaultPropagationPolicy', () => {
  it('adds the permanent id and the finalizer when absent', () => {
    const out = defaultPropagationPolicy(pp('p', [all()], { id: null }), newId);
    expect(out.metadata.labels).toEqual({ [Labels.PropagationPolicyPermanentId]: 'generated-uuid' });
    expect(out.metadata.finalizers).toEqual([Finalizers.PropagationPolicy]);
  });

  it('keeps an existing id and finalizer, and is idempotent', () => {
    const once = defaultPropagationPolicy(pp('p', [all()]), () => 'never-used');
    expect(once.metadata.labels?.[Labels.PropagationPolicyPermanentId]).toBe('pp-id-p');
    const twice = defaultPropagationPolicy(once, () => 'never-used');
    expect(semanticallyEqual(once, twice)).toBe(true);
    expect(twice.metadata.finalizers).toEqual([Finalizers.PropagationPolicy]);
  });

  it("defaults selector namespaces to the policy's", () => {
    const out = defaultPropagationPolicy(
      pp('p', [all(), all({ namespace: 'other' })], { namespace: 'team' }),
      newId,
    );
    expect(out.spec.resourceSelectors.map((s) => s.namespace)).toEqual(['team', 'other']);
  });

  it('defaults spread constraints, Divided -> Weighted and the failover grace period', () => {
    const out = defaultPropagationPolicy(
      pp('p', [all()], {
        spec: {
          placement: {
            spreadConstraints: [{ maxGroups: 2 }, { spreadByLabel: 'zone', minGroups: 2 }],
            replicaScheduling: { replicaSchedulingType: 'Divided' },
          },
          failover: { application: { decisionConditions: {}, purgeMode: 'Gracefully' } },
        },
      }),
      newId,
    );
    expect(out.spec.placement?.spreadConstraints).toEqual([
      { maxGroups: 2, spreadByField: 'cluster', minGroups: 1 },
      { spreadByLabel: 'zone', minGroups: 2 },
    ]);
    expect(out.spec.placement?.replicaScheduling?.replicaDivisionPreference).toBe('Weighted');
    expect(out.spec.failover?.application?.gracePeriodSeconds).toBe(600);
  });

  it('leaves Duplicated scheduling, explicit preferences and non-graceful failover alone', () => {
    const out = defaultPropagationPolicy(
      pp('p', [all()], {
        spec: {
          placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
          failover: { application: { decisionConditions: {}, purgeMode: 'Directly' } },
        },
      }),
      newId,
    );
    expect(out.spec.placement?.replicaScheduling).toEqual({ replicaSchedulingType: 'Duplicated' });
    expect(out.spec.failover?.application).not.toHaveProperty('gracePeriodSeconds');
    const aggregated = defaultPropagationPolicy(
      pp('p', [all()], {
        spec: { placement: { replicaScheduling: { replicaDivisionPreference: 'Aggregated' } } },
      }),
      newId,
    );
    expect(aggregated.spec.placement?.replicaScheduling?.replicaDivisionPreference).toBe('Aggregated');
  });

  it('forces propagateDeps for ServiceImport', () => {
    const out = defaultPropagationPolicy(
      pp('p', [{ apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceImport', name: 's' }]),
      newId,
    );
    expect(out.spec.propagateDeps).toBe(true);
  });
});

describe('defaultClusterPropagationPolicy', () => {
  it('uses the ClusterPropagationPolicy label and finalizer, and leaves selector namespaces empty', () => {
    const out = defaultClusterPropagationPolicy(cpp('c', [all()], { id: null }), newId);
    expect(out.metadata.labels).toEqual({ [Labels.ClusterPropagationPolicyPermanentId]: 'generated-uuid' });
    expect(out.metadata.finalizers).toEqual([Finalizers.ClusterPropagationPolicy]);
    expect(out.spec.resourceSelectors[0]).not.toHaveProperty('namespace');
  });
});
