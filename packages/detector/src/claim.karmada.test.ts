// Karmada conformance: the claim labels and annotations, against the tables of Karmada's
// pkg/detector/claim_test.go at commit f8fdd02.
import type { ClusterPropagationPolicy, ObjectMeta, PropagationPolicy, StringMap } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  claimStillHeld,
  clusterPropagationPolicyClaimMetadata,
  propagationPolicyClaimMetadata,
  REMOVE_CLUSTER_PROPAGATION_POLICY_CLAIM,
  REMOVE_PROPAGATION_POLICY_CLAIM,
} from './claim.js';
import type { MetadataChange } from './metadata-change.js';
import { withMetadataChange } from './metadata-change.js';
import { karmadaTable } from './testing/karmada-cases.js';

const FILE = new URL('./testdata/karmada/pkg-detector-claim_test.json', import.meta.url);

interface Obj {
  readonly metadata: ObjectMeta;
}

// Karmada's results carry empty maps where a cleanup emptied them; an absent map means the same.
const labelsAndAnnotations = (meta: ObjectMeta): { labels: StringMap; annotations: StringMap } => ({
  labels: meta.labels ?? {},
  annotations: meta.annotations ?? {},
});

function expectApplied(obj: Obj, change: MetadataChange, result: Obj): void {
  expect(labelsAndAnnotations(withMetadataChange(obj.metadata, change))).toEqual(
    labelsAndAnnotations(result.metadata),
  );
}

describe('TestAddPPClaimMetadata', () => {
  const table = karmadaTable<{
    name: string;
    obj: Obj;
    policyID: string;
    policyMeta: ObjectMeta;
    result: Obj;
  }>(FILE, 'TestAddPPClaimMetadata');
  it.each(table.cases)(`${table.label}: $name`, ({ obj, policyID, policyMeta, result }) => {
    const policy: PropagationPolicy = {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: policyMeta,
      spec: { resourceSelectors: [] },
    };
    expectApplied(obj, propagationPolicyClaimMetadata(policy, policyID), result);
  });
});

describe('TestAddCPPClaimMetadata', () => {
  const table = karmadaTable<{
    name: string;
    obj: Obj;
    policyID: string;
    policyMeta: ObjectMeta;
    result: Obj;
  }>(FILE, 'TestAddCPPClaimMetadata');
  it.each(table.cases)(`${table.label}: $name`, ({ obj, policyID, policyMeta, result }) => {
    const policy: ClusterPropagationPolicy = {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: policyMeta,
      spec: { resourceSelectors: [] },
    };
    expectApplied(obj, clusterPropagationPolicyClaimMetadata(policy, policyID), result);
  });
});

describe.each([
  ['TestCleanupPPClaimMetadata', REMOVE_PROPAGATION_POLICY_CLAIM],
  ['TestCleanupCPPClaimMetadata', REMOVE_CLUSTER_PROPAGATION_POLICY_CLAIM],
] as const)('%s', (test, change) => {
  const table = karmadaTable<{ name: string; obj: Obj; result: Obj }>(FILE, test);
  it.each(table.cases)(`${table.label}: $name`, ({ obj, result }) => {
    expectApplied(obj, change, result);
  });
});

describe('TestNeedCleanupClaimMetadata', () => {
  const table = karmadaTable<{
    name: string;
    obj: Obj;
    targetClaimMetadata: StringMap;
    needCleanup: boolean;
  }>(FILE, 'TestNeedCleanupClaimMetadata');
  it.each(table.cases)(`${table.label}: $name`, ({ obj, targetClaimMetadata, needCleanup }) => {
    expect(claimStillHeld(obj.metadata, targetClaimMetadata)).toBe(needCleanup);
  });
});
