// Karmada conformance: static-weight and duplicated replica assignment, with the cases of
// pkg/scheduler/core/assignment_test.go at Karmada commit f8fdd02df3760fd9521624f284877fa84e7be6ef.
import type { StaticClusterWeight, TargetCluster } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { assignByStaticWeight, assignDuplicated } from './replica-assignment.js';
import { cluster } from './testing/fixtures.js';

const ASSIGNMENT_TEST = 'pkg/scheduler/core/assignment_test.go';
const member1 = cluster('member1');
const member2 = cluster('member2');
const member3 = cluster('member3');

const byName = (...weights: Array<[string, number]>): StaticClusterWeight[] =>
  weights.map(([name, weight]) => ({ targetCluster: { clusterNames: [name] }, weight }));

describe(`${ASSIGNMENT_TEST} Test_assignByStaticWeightStrategy`, () => {
  const cases: Array<{
    name: string;
    clusters: ReturnType<typeof cluster>[];
    weights?: StaticClusterWeight[];
    replicas: number;
    want: TargetCluster[];
  }> = [
    {
      name: 'replica 12, weight 3:2:1',
      clusters: [member1, member2, member3],
      weights: byName(['member1', 3], ['member2', 2], ['member3', 1]),
      replicas: 12,
      want: [
        { name: 'member1', replicas: 6 },
        { name: 'member2', replicas: 4 },
        { name: 'member3', replicas: 2 },
      ],
    },
    {
      name: 'replica 12, default weight',
      clusters: [member1, member2, member3],
      replicas: 12,
      want: [
        { name: 'member1', replicas: 4 },
        { name: 'member2', replicas: 4 },
        { name: 'member3', replicas: 4 },
      ],
    },
    {
      name: 'replica 13, weight 3:2:1',
      clusters: [member1, member2, member3],
      weights: byName(['member1', 3], ['member2', 2], ['member3', 1]),
      replicas: 13,
      want: [
        { name: 'member1', replicas: 7 },
        { name: 'member2', replicas: 4 },
        { name: 'member3', replicas: 2 },
      ],
    },
    {
      name: 'replica 14, weight 3:2:1',
      clusters: [member1, member2, member3],
      weights: byName(['member1', 3], ['member2', 2], ['member3', 1]),
      replicas: 14,
      want: [
        { name: 'member1', replicas: 7 },
        { name: 'member2', replicas: 5 },
        { name: 'member3', replicas: 2 },
      ],
    },
    {
      // Karmada's strategy returns both clusters with 0; AssignReplicas then drops zero-replica clusters, which
      // our function does itself.
      name: 'insufficient replica assignment should get 0 replica',
      clusters: [member1, member2],
      weights: byName(['member1', 1], ['member2', 1]),
      replicas: 0,
      want: [],
    },
    {
      name: 'selected cluster without weight should be ignored',
      clusters: [member1, member2],
      weights: byName(['member1', 1]),
      replicas: 2,
      want: [{ name: 'member1', replicas: 2 }],
    },
    {
      name: 'cluster with multiple weights',
      clusters: [member1, member2],
      weights: byName(['member1', 1], ['member2', 1], ['member1', 2]),
      replicas: 3,
      want: [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 1 },
      ],
    },
  ];
  it.each(cases)('$name', (c) => {
    expect(assignByStaticWeight(c.clusters, c.weights, c.replicas, undefined)).toEqual(c.want);
  });
});

describe(`${ASSIGNMENT_TEST} Test_assignByDuplicatedStrategy`, () => {
  it.each([
    {
      name: 'test with multiple cluster',
      clusters: [member1, member2],
      replicas: 2,
      want: [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 2 },
      ],
    },
    { name: 'the target cluster is null', clusters: [], replicas: 2, want: [] },
    {
      name: 'replicas is null',
      clusters: [member1, member2],
      replicas: 0,
      want: [
        { name: 'member1', replicas: 0 },
        { name: 'member2', replicas: 0 },
      ],
    },
  ])('$name', (c) => {
    expect(assignDuplicated(c.clusters, c.replicas)).toEqual(c.want);
  });
});

describe('assignByStaticWeight: ties and the template UID', () => {
  it('hands a tie to the smaller name for an empty or even UID, to the larger for an odd one', () => {
    const weights = byName(['member1', 1], ['member2', 1]);
    expect(assignByStaticWeight([member1, member2], weights, 5, undefined)).toEqual([
      { name: 'member1', replicas: 3 },
      { name: 'member2', replicas: 2 },
    ]);
    expect(
      assignByStaticWeight([member1, member2], weights, 5, undefined, 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c'),
    ).toEqual([
      { name: 'member1', replicas: 2 },
      { name: 'member2', replicas: 3 },
    ]);
  });

  it('does not keep the previous split: Karmada divides afresh every time', () => {
    const previous = [
      { name: 'member1', replicas: 3 },
      { name: 'member2', replicas: 3 },
      { name: 'member3', replicas: 4 },
    ];
    expect(assignByStaticWeight([member1, member2, member3], undefined, 10, previous)).toEqual([
      { name: 'member1', replicas: 4 },
      { name: 'member2', replicas: 3 },
      { name: 'member3', replicas: 3 },
    ]);
  });
});
