import type { Placement } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { appliedPlacementValue } from './scheduling-trigger.js';

describe('appliedPlacementValue', () => {
  it('writes the bytes karmada-scheduler wrote for the same placement (e2e migration run, Karmada f8fdd02)', () => {
    // As read back from the API server: keys in alphabetical order.
    const cached = {
      clusterAffinity: { clusterNames: ['member1', 'member2'] },
      replicaScheduling: {
        replicaDivisionPreference: 'Weighted' as const,
        replicaSchedulingType: 'Divided' as const,
        weightPreference: {
          staticWeightList: [
            { targetCluster: { clusterNames: ['member1'] }, weight: 1 },
            { targetCluster: { clusterNames: ['member2'] }, weight: 2 },
          ],
        },
      },
    };
    expect(appliedPlacementValue(cached)).toBe(
      '{"clusterAffinity":{"clusterNames":["member1","member2"]},"replicaScheduling":{"replicaSchedulingType":"Divided","replicaDivisionPreference":"Weighted","weightPreference":{"staticWeightList":[{"targetCluster":{"clusterNames":["member1"]},"weight":1},{"targetCluster":{"clusterNames":["member2"]},"weight":2}]}}}',
    );
  });

  it('orders nested selectors and tolerations as Go does and keeps unknown fields', () => {
    const placement: Placement & { readonly future: boolean } = {
      clusterTolerations: [{ effect: 'NoSchedule', key: 'k', operator: 'Exists' }],
      clusterAffinity: {
        exclude: ['x'],
        labelSelector: { matchLabels: { z: '1', a: '2' } },
        clusterNames: ['a'],
      },
      future: true,
    };
    const value = appliedPlacementValue(placement);
    expect(value).toBe(
      '{"clusterAffinity":{"labelSelector":{"matchLabels":{"a":"2","z":"1"}},"clusterNames":["a"],"exclude":["x"]},"clusterTolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}],"future":true}',
    );
  });
});
