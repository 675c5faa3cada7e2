// Karmada conformance: which policy wins a template, against the tables of Karmada's pkg/detector/compare_test.go
// at commit f8fdd02.
import type { ClusterPropagationPolicy, KubeObject, PropagationPolicy } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { highestPriorityPolicy } from './policy-choice.js';
import { karmadaTable } from './testing/karmada-cases.js';

const FILE = new URL('./testdata/karmada/pkg-detector-compare_test.json', import.meta.url);
type AnyPolicy = PropagationPolicy | ClusterPropagationPolicy;

// Go's nil slices arrive as null; our policies (as the API server serves them) leave the field out or list [].
function normalise<P extends AnyPolicy>(policy: P): P {
  return { ...policy, spec: { ...policy.spec, resourceSelectors: policy.spec.resourceSelectors ?? [] } };
}

describe.each([
  'Test_getHighestPriorityPropagationPolicies',
  'Test_getHighestPriorityClusterPropagationPolicies',
])('%s', (test) => {
  const table = karmadaTable<{
    name: string;
    args: { policies: AnyPolicy[] | null; resource: KubeObject };
    want: AnyPolicy | null;
  }>(FILE, test);
  it.each(table.cases)(`${table.label}: $name`, ({ args, want }) => {
    const winner = highestPriorityPolicy(args.resource, (args.policies ?? []).map(normalise));
    expect(winner?.metadata.name).toBe(want?.metadata.name);
  });
});

// getHigherPriority[Cluster]PropagationPolicy(a, b) settles a tie between two policies of equal explicit and
// implicit priority: the smaller name wins, and a nil `a` yields `b`. Here both policies are given the same
// match-all selector for one template, so only the tie-break decides.
describe.each(['Test_GetHigherPriorityPropagationPolicy', 'Test_GetHigherPriorityClusterPropagationPolicy'])(
  '%s',
  (test) => {
    const table = karmadaTable<{
      name: string;
      args: { a: AnyPolicy | null; b: AnyPolicy };
      want: AnyPolicy;
    }>(FILE, test);
    const template: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', namespace: 'default' },
    };
    const selectAll = <P extends AnyPolicy>(p: P): P => ({
      ...p,
      spec: { ...p.spec, resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap' }] },
    });
    it.each(table.cases)(`${table.label}: $name`, ({ args, want }) => {
      const policies = [args.a, args.b].filter((p): p is AnyPolicy => p !== null).map(selectAll);
      expect(highestPriorityPolicy(template, policies)?.metadata.name ?? '').toBe(want.metadata.name ?? '');
    });
  },
);
