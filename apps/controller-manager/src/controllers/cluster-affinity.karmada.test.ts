// Karmada conformance: cluster affinity against the tables of Karmada's pkg/util/selector_test.go
// (TestClusterMatches, Test_matchZones, Test_extractClusterFields) at commit f8fdd02.
import type { Cluster, ClusterAffinity, NodeSelectorRequirement } from '@warmstart/api';
import { karmadaTable } from '@warmstart/detector/testing';
import { describe, expect, it } from 'vitest';
import { clusterMatchesAffinity, fieldSelectorMatches } from './cluster-affinity.js';

const FILE = new URL('./testdata/karmada/pkg-util-selector_test.json', import.meta.url);

interface GoCluster {
  readonly metadata?: Cluster['metadata'];
  readonly spec?: { provider?: string; region?: string; zones?: string[] | null };
}

// Go's zero values arrive as "" and null in the dump; a Cluster built here leaves those fields out.
// Karmada's test clusters have no syncMode; it plays no part in matching, so Push stands in.
function asCluster(value: unknown): Cluster {
  const c: GoCluster = value ?? {};
  const { provider, region, zones } = c.spec ?? {};
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: c.metadata ?? { name: '' },
    spec: {
      syncMode: 'Push',
      ...(provider ? { provider } : {}),
      ...(region ? { region } : {}),
      ...(zones ? { zones } : {}),
    },
  };
}

describe('TestClusterMatches', () => {
  const table = karmadaTable<{ name: string; affinity: ClusterAffinity; want: boolean }>(
    FILE,
    'TestClusterMatches',
  );
  const cluster = asCluster(table.fixtures.cluster);
  it.each(table.cases)(`${table.label}: $name`, ({ affinity, want }) => {
    expect(clusterMatchesAffinity(cluster, affinity)).toBe(want);
  });
});

describe('Test_matchZones', () => {
  const table = karmadaTable<{
    name: string;
    zoneMatchExpression: NodeSelectorRequirement;
    zones: string[] | null;
    matched: boolean;
  }>(FILE, 'Test_matchZones');
  // matchZones is reached through a field selector that holds only the zone expression.
  it.each(table.cases)(`${table.label}: $name`, ({ zoneMatchExpression, zones, matched }) => {
    const cluster = asCluster({ metadata: { name: 'c' }, spec: { zones } });
    expect(fieldSelectorMatches({ matchExpressions: [zoneMatchExpression] }, cluster)).toBe(matched);
  });
});

describe('Test_extractClusterFields', () => {
  const table = karmadaTable<{ name: string; args: { cluster: unknown }; want: Record<string, string> }>(
    FILE,
    'Test_extractClusterFields',
  );
  // extractClusterFields is private on both sides: each extracted field must match `In [value]`, and each
  // field not extracted must match DoesNotExist.
  it.each(table.cases)(`${table.label}: $name`, ({ args, want }) => {
    const cluster = asCluster(args.cluster);
    for (const key of ['provider', 'region']) {
      const value = want[key];
      const expression: NodeSelectorRequirement =
        value === undefined ? { key, operator: 'DoesNotExist' } : { key, operator: 'In', values: [value] };
      expect(fieldSelectorMatches({ matchExpressions: [expression] }, cluster)).toBe(true);
    }
  });
});
