import type { Cluster, Placement, TargetCluster } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { type ScheduleInput, type ScheduleResult, schedule, scheduleBinding } from './scheduler.js';
import { cluster, deepFreeze, resourceBinding } from './testing/fixtures.js';

const m1 = cluster('member1', { labels: { env: 'prod' }, provider: 'aws', region: 'us-east-1' });
const m2 = cluster('member2', {
  labels: { env: 'prod', tier: 'gold' },
  provider: 'gcp',
  region: 'eu-west-1',
});
const m3 = cluster('member3', { labels: { env: 'dev' }, provider: 'aws', region: 'eu-west-1' });

const divided = (weights?: Array<[string, number]>): Placement =>
  deepFreeze({
    replicaScheduling: {
      replicaSchedulingType: 'Divided',
      replicaDivisionPreference: 'Weighted',
      ...(weights
        ? {
            weightPreference: {
              staticWeightList: weights.map(([name, weight]) => ({
                targetCluster: { clusterNames: [name] },
                weight,
              })),
            },
          }
        : {}),
    },
  });

const clustersOf = (r: ScheduleResult): readonly TargetCluster[] => {
  if (r.kind !== 'Scheduled') throw new Error(`expected Scheduled, got ${r.reason}: ${r.message}`);
  return r.clusters;
};

describe('schedule: replica assignment', () => {
  const cases: Array<{
    name: string;
    placement?: Placement;
    replicas?: number;
    clusters?: readonly Cluster[];
    previous?: TargetCluster[];
    want: TargetCluster[];
  }> = [
    {
      name: 'acceptance: Divided, static weights 1:2 over member1/member2, 9 replicas -> 3/6',
      placement: {
        clusterAffinity: { clusterNames: ['member1', 'member2'] },
        ...divided([
          ['member1', 1],
          ['member2', 2],
        ]),
      },
      replicas: 9,
      want: [
        { name: 'member1', replicas: 3 },
        { name: 'member2', replicas: 6 },
      ],
    },
    {
      name: 'weights 1:3 over 9: the remainder goes to the heavier cluster (2/7, as in Karmada)',
      placement: divided([
        ['member1', 1],
        ['member2', 3],
      ]),
      replicas: 9,
      clusters: [m1, m2],
      want: [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 7 },
      ],
    },
    {
      name: 'Divided without a weight list: equal weights, remainder by name',
      placement: divided(),
      replicas: 10,
      want: [
        { name: 'member1', replicas: 4 },
        { name: 'member2', replicas: 3 },
        { name: 'member3', replicas: 3 },
      ],
    },
    {
      // Since v1.16 Karmada's static division (Webster) ignores the previous split.
      name: 'the previous split does not steer the remainder (Karmada divides afresh)',
      placement: divided(),
      replicas: 10,
      previous: [
        { name: 'member1', replicas: 3 },
        { name: 'member2', replicas: 3 },
        { name: 'member3', replicas: 4 },
      ],
      want: [
        { name: 'member1', replicas: 4 },
        { name: 'member2', replicas: 3 },
        { name: 'member3', replicas: 3 },
      ],
    },
    {
      name: 'issue #15: 14 replicas at 3:2:1 -> 7/5/2 (Webster), not 8/4/2',
      placement: divided([
        ['member1', 3],
        ['member2', 2],
        ['member3', 1],
      ]),
      replicas: 14,
      want: [
        { name: 'member1', replicas: 7 },
        { name: 'member2', replicas: 5 },
        { name: 'member3', replicas: 2 },
      ],
    },
    {
      name: 'clusters left with 0 replicas are dropped',
      placement: divided(),
      replicas: 1,
      want: [{ name: 'member1', replicas: 1 }],
    },
    {
      name: 'a cluster matching no weight entry is not a target',
      placement: divided([
        ['member1', 1],
        ['member2', 2],
      ]),
      replicas: 6,
      want: [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 4 },
      ],
    },
    {
      name: 'a cluster matching several entries takes the largest weight',
      placement: {
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: {
            staticWeightList: [
              { targetCluster: { labelSelector: { matchLabels: { env: 'prod' } } }, weight: 1 },
              { targetCluster: { clusterNames: ['member2'] }, weight: 3 },
            ],
          },
        },
      },
      replicas: 8,
      want: [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 6 },
      ],
    },
    {
      name: 'no candidate matches any weight entry: every candidate weighs 1',
      placement: divided([['member9', 5]]),
      replicas: 3,
      want: [
        { name: 'member1', replicas: 1 },
        { name: 'member2', replicas: 1 },
        { name: 'member3', replicas: 1 },
      ],
    },
    {
      name: 'Divided without a division preference is Weighted (the webhook default)',
      placement: { replicaScheduling: { replicaSchedulingType: 'Divided' } },
      replicas: 4,
      clusters: [m1, m2],
      want: [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 2 },
      ],
    },
    {
      name: 'replicaScheduling without a type is Divided (the CRD default)',
      placement: { replicaScheduling: {} },
      replicas: 4,
      clusters: [m1, m2],
      want: [
        { name: 'member1', replicas: 2 },
        { name: 'member2', replicas: 2 },
      ],
    },
    {
      name: 'Duplicated: every cluster runs all replicas',
      placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
      replicas: 5,
      want: [
        { name: 'member1', replicas: 5 },
        { name: 'member2', replicas: 5 },
        { name: 'member3', replicas: 5 },
      ],
    },
    {
      name: 'no replicaScheduling means Duplicated',
      placement: { clusterAffinity: { clusterNames: ['member2', 'member3'] } },
      replicas: 2,
      want: [
        { name: 'member2', replicas: 2 },
        { name: 'member3', replicas: 2 },
      ],
    },
    {
      name: 'no placement at all: every cluster, Duplicated',
      replicas: 1,
      clusters: [m2, m1],
      want: [
        { name: 'member1', replicas: 1 },
        { name: 'member2', replicas: 1 },
      ],
    },
    {
      name: 'non-workload (replicas absent) under Divided: every selected cluster, no replicas field',
      placement: divided([['member1', 1]]),
      want: [{ name: 'member1' }, { name: 'member2' }, { name: 'member3' }],
    },
    {
      name: 'non-workload (replicas 0): no replicas field',
      placement: { clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } } },
      replicas: 0,
      want: [{ name: 'member1' }, { name: 'member2' }],
    },
  ];

  it.each(cases)('$name', (c) => {
    const input: ScheduleInput = {
      placement: c.placement,
      replicas: c.replicas,
      clusters: c.clusters ?? [m1, m2, m3],
      previous: c.previous,
    };
    expect(clustersOf(schedule(input))).toEqual(c.want);
  });

  it('does not depend on the order of the cluster list', () => {
    const placement = divided([
      ['member1', 1],
      ['member2', 1],
      ['member3', 1],
    ]);
    const a = schedule({ placement, replicas: 7, clusters: [m1, m2, m3] });
    const b = schedule({ placement, replicas: 7, clusters: [m3, m1, m2] });
    expect(a).toEqual(b);
    expect(clustersOf(a).reduce((s, t) => s + (t.replicas ?? 0), 0)).toBe(7);
  });
});

describe('schedule: filtering', () => {
  const tainted = cluster('member4', {
    taints: [{ key: 'maintenance', value: 'true', effect: 'NoSchedule' }],
  });
  const evicting = cluster('member5', { taints: [{ key: 'broken', effect: 'NoExecute' }] });
  const soft = cluster('member6', { taints: [{ key: 'busy', effect: 'PreferNoSchedule' }] });

  const cases: Array<{ name: string; input: Partial<ScheduleInput>; want: string[] }> = [
    {
      name: 'clusters that are not Ready or are being deleted are not candidates',
      input: {
        clusters: [m1, cluster('down', { ready: false }), cluster('leaving', { deleting: true })],
      },
      want: ['member1'],
    },
    {
      name: 'NoSchedule and NoExecute taints exclude; PreferNoSchedule does not',
      input: { clusters: [m1, tainted, evicting, soft] },
      want: ['member1', 'member6'],
    },
    {
      name: 'a toleration with operator Equal admits the tainted cluster',
      input: {
        clusters: [m1, tainted],
        placement: {
          clusterTolerations: [
            { key: 'maintenance', operator: 'Equal', value: 'true', effect: 'NoSchedule' },
          ],
        },
      },
      want: ['member1', 'member4'],
    },
    {
      name: 'a toleration for another value does not',
      input: {
        clusters: [m1, tainted],
        placement: { clusterTolerations: [{ key: 'maintenance', operator: 'Equal', value: 'false' }] },
      },
      want: ['member1'],
    },
    {
      name: 'an empty-key Exists toleration tolerates everything',
      input: { clusters: [tainted, evicting], placement: { clusterTolerations: [{ operator: 'Exists' }] } },
      want: ['member4', 'member5'],
    },
    {
      name: 'a cluster already scheduled keeps its place despite a new taint (eviction handles it)',
      input: { clusters: [m1, tainted], previous: [{ name: 'member4' }] },
      want: ['member1', 'member4'],
    },
    {
      name: 'clusterNames',
      input: { placement: { clusterAffinity: { clusterNames: ['member3', 'nope'] } } },
      want: ['member3'],
    },
    {
      name: 'exclude wins over clusterNames',
      input: {
        placement: { clusterAffinity: { clusterNames: ['member1', 'member2'], exclude: ['member1'] } },
      },
      want: ['member2'],
    },
    {
      name: 'labelSelector matchLabels and matchExpressions together',
      input: {
        placement: {
          clusterAffinity: {
            labelSelector: {
              matchLabels: { env: 'prod' },
              matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }],
            },
          },
        },
      },
      want: ['member1'],
    },
    {
      name: 'fieldSelector on provider and region',
      input: {
        placement: {
          clusterAffinity: {
            fieldSelector: {
              matchExpressions: [
                { key: 'provider', operator: 'In', values: ['aws'] },
                { key: 'region', operator: 'NotIn', values: ['us-east-1'] },
              ],
            },
          },
        },
      },
      want: ['member3'],
    },
    {
      name: 'clusters in a graceful eviction are not candidates',
      input: { evictingClusters: ['member2'] },
      want: ['member1', 'member3'],
    },
    {
      name: 'with a resource given, the cluster must list the API',
      input: {
        resource: { apiVersion: 'apps/v1', kind: 'Deployment' },
        clusters: [
          cluster('with', {
            apiEnablements: [
              { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] },
            ],
          }),
          cluster('without', {
            apiEnablements: [{ groupVersion: 'v1', resources: [{ name: 'pods', kind: 'Pod' }] }],
          }),
          cluster('partial', { apiEnablements: [], apiListComplete: false }),
        ],
        previous: [{ name: 'partial' }],
      },
      want: ['partial', 'with'],
    },
  ];

  it.each(cases)('$name', (c) => {
    const result = schedule({ placement: undefined, clusters: [m1, m2, m3], ...c.input });
    expect(clustersOf(result).map((t) => t.name)).toEqual(c.want);
  });
});

describe('schedule: nothing scheduled says why', () => {
  const cases: Array<{ name: string; input: ScheduleInput; reason: string; message: RegExp }> = [
    {
      name: 'no cluster fits: counted reasons, like Karmada’s FitError',
      input: {
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
        clusters: [m2, cluster('member1', { ready: false })],
      },
      reason: 'NoClusterFit',
      message:
        /^0\/2 clusters are available: 1 cluster\(s\) did not match the placement cluster affinity constraint, 1 cluster\(s\) were not Ready\.$/,
    },
    {
      name: 'an untolerated taint is named',
      input: {
        placement: undefined,
        clusters: [cluster('member1', { taints: [{ key: 'gpu', value: 'a100', effect: 'NoSchedule' }] })],
      },
      reason: 'NoClusterFit',
      message: /had untolerated taint \{gpu=a100:NoSchedule\}/,
    },
    {
      name: 'no Cluster objects at all is a scheduler error (spec.clusters is kept)',
      input: { placement: undefined, replicas: 1, clusters: [] },
      reason: 'SchedulerError',
      message: /no clusters available to schedule/,
    },
    {
      name: 'Aggregated needs capacity estimates',
      input: {
        placement: {
          replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
        },
        replicas: 3,
        clusters: [m1],
      },
      reason: 'SchedulerError',
      message: /Aggregated needs cluster capacity estimates/,
    },
    {
      name: 'dynamicWeight needs capacity estimates',
      input: {
        placement: {
          replicaScheduling: {
            replicaSchedulingType: 'Divided',
            replicaDivisionPreference: 'Weighted',
            weightPreference: { dynamicWeight: 'AvailableReplicas' },
          },
        },
        replicas: 3,
        clusters: [m1],
      },
      reason: 'SchedulerError',
      message: /dynamicWeight/,
    },
    {
      name: 'spreadConstraints are not supported',
      input: {
        placement: { spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 1 }] },
        clusters: [m1],
      },
      reason: 'SchedulerError',
      message: /spreadConstraints/,
    },
    {
      name: 'negative replicas',
      input: { placement: undefined, replicas: -1, clusters: [m1] },
      reason: 'SchedulerError',
      message: /at least 0/,
    },
  ];

  it.each(cases)('$name', (c) => {
    const result = schedule(c.input);
    expect(result.kind).toBe('Unschedulable');
    if (result.kind !== 'Unschedulable') return;
    expect(result.clusters).toEqual([]);
    expect(result.reason).toBe(c.reason);
    expect(result.message).toMatch(c.message);
  });
});

describe('schedule: clusterAffinities', () => {
  const placement: Placement = deepFreeze({
    clusterAffinities: [
      { affinityName: 'primary', clusterNames: ['member9'] },
      { affinityName: 'backup', labelSelector: { matchLabels: { env: 'dev' } } },
      { affinityName: 'last', clusterNames: ['member1'] },
    ],
  });

  it('falls through to the first term that selects a cluster, and names it', () => {
    const result = schedule({ placement, clusters: [m1, m2, m3] });
    expect(result).toEqual({ kind: 'Scheduled', clusters: [{ name: 'member3' }], affinityName: 'backup' });
  });

  it('starts from the term observed last time, not from the first', () => {
    const result = schedule({ placement, clusters: [m1, m2, m3], observedAffinityName: 'last' });
    expect(result).toEqual({ kind: 'Scheduled', clusters: [{ name: 'member1' }], affinityName: 'last' });
  });

  it('reports the first failure when no term fits', () => {
    const result = schedule({ placement, clusters: [m2] });
    expect(result.kind).toBe('Unschedulable');
    if (result.kind === 'Unschedulable') expect(result.message).toMatch(/^0\/1 clusters are available/);
  });
});

describe('scheduleBinding', () => {
  it('reads placement, replicas, previous clusters and eviction tasks from the cached binding', () => {
    const binding = resourceBinding({
      placement: divided([
        ['member1', 1],
        ['member2', 2],
      ]),
      replicas: 9,
      spec: { gracefulEvictionTasks: [{ fromCluster: 'member3', reason: 'x', producer: 'y' }] },
    });
    expect(scheduleBinding(binding, [m3, m2, m1])).toEqual({
      kind: 'Scheduled',
      clusters: [
        { name: 'member1', replicas: 3 },
        { name: 'member2', replicas: 6 },
      ],
    });
  });
});
