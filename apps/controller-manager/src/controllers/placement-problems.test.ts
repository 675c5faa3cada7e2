import { describe, expect, it } from 'vitest';
import { placementProblems } from './placement-problems.js';

describe('placementProblems', () => {
  it('names a field selector key that is not provider, region or zone, wherever it is', () => {
    expect(
      placementProblems({
        clusterAffinity: {
          fieldSelector: {
            matchExpressions: [
              { key: 'region', operator: 'In', values: ['east'] },
              { key: 'regoin', operator: 'In', values: ['east'] },
            ],
          },
        },
        clusterAffinities: [
          { affinityName: 'a', fieldSelector: { matchExpressions: [{ key: 'cloud', operator: 'Exists' }] } },
        ],
      }),
    ).toEqual([
      'placement.clusterAffinity.fieldSelector.matchExpressions[1].key "regoin" is not a Cluster field (use provider, region, zone), so it matches no cluster',
      'placement.clusterAffinities[0].fieldSelector.matchExpressions[0].key "cloud" is not a Cluster field (use provider, region, zone), so it matches no cluster',
    ]);
  });

  it('has nothing to say about a placement with known keys or none', () => {
    expect(placementProblems(undefined)).toEqual([]);
    expect(
      placementProblems({
        clusterAffinity: {
          fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
        },
      }),
    ).toEqual([]);
  });
});
