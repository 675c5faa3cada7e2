import type { Placement } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  appliedPlacementValue,
  awaitingScheduleOutcome,
  type SchedulingDecision,
  schedulingDecision,
  schedulingNeeded,
} from './scheduling-trigger.js';
import { type BindingOptions, resourceBinding } from './testing/fixtures.js';
import { AppliedPlacementAnnotation } from './well-known.js';

const divided: Placement = {
  clusterAffinity: { clusterNames: ['member1', 'member2'] },
  replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
};
const applied = { [AppliedPlacementAnnotation]: appliedPlacementValue(divided) };
// A Divided workload that was scheduled and has not changed since.
const settled: BindingOptions = {
  placement: divided,
  replicas: 4,
  annotations: applied,
  clusters: [
    { name: 'member1', replicas: 2 },
    { name: 'member2', replicas: 2 },
  ],
  generation: 3,
  status: { schedulerObservedGeneration: 3, lastScheduledTime: '2026-01-01T00:00:00Z' },
};

describe('schedulingDecision', () => {
  const cases: Array<[string, BindingOptions, SchedulingDecision]> = [
    ['nothing changed', settled, { schedule: false, reason: 'UpToDate', observedGenerationStale: false }],
    [
      'generation moved (e.g. the template changed) but placement and replicas did not: only the generation is written',
      { ...settled, generation: 4 },
      { schedule: false, reason: 'UpToDate', observedGenerationStale: true },
    ],
    [
      'never scheduled: no applied placement recorded',
      { ...settled, annotations: {} },
      { schedule: true, trigger: 'PlacementChanged' },
    ],
    [
      'placement edited',
      { ...settled, placement: { ...divided, clusterAffinity: { clusterNames: ['member1'] } } },
      { schedule: true, trigger: 'PlacementChanged' },
    ],
    [
      'the record is the same placement with keys in another order',
      {
        ...settled,
        annotations: {
          [AppliedPlacementAnnotation]:
            '{"replicaScheduling":{"replicaDivisionPreference":"Weighted","replicaSchedulingType":"Divided"},"clusterAffinity":{"clusterNames":["member1","member2"]}}',
        },
      },
      { schedule: false, reason: 'UpToDate', observedGenerationStale: false },
    ],
    [
      'the spec patch landed but the status write after it did not (409, or a failure): the schedule is finished',
      { ...settled, status: { schedulerObservedGeneration: 2 } },
      { schedule: true, trigger: 'ScheduleUnrecorded' },
    ],
    [
      'a Scheduled condition alone records an outcome (a failed schedule writes only that)',
      {
        ...settled,
        status: {
          schedulerObservedGeneration: 3,
          conditions: [
            {
              type: 'Scheduled',
              status: 'False',
              reason: 'SchedulerError',
              message: 'the last pass failed',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      },
      { schedule: false, reason: 'UpToDate', observedGenerationStale: false },
    ],
    ['scaled up', { ...settled, replicas: 6 }, { schedule: true, trigger: 'ReplicasChanged' }],
    [
      'a cluster was evicted from spec.clusters',
      { ...settled, clusters: [{ name: 'member1', replicas: 2 }] },
      { schedule: true, trigger: 'ReplicasChanged' },
    ],
    [
      'reschedule requested after the last schedule',
      { ...settled, spec: { rescheduleTriggeredAt: '2026-01-02T00:00:00Z' } },
      { schedule: true, trigger: 'RescheduleTriggered' },
    ],
    [
      'reschedule request older than the last schedule',
      { ...settled, spec: { rescheduleTriggeredAt: '2025-12-31T00:00:00Z' } },
      { schedule: false, reason: 'UpToDate', observedGenerationStale: false },
    ],
    [
      'Duplicated is always scheduled (so cluster changes reach it)',
      {
        ...settled,
        placement: { replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
        annotations: {
          [AppliedPlacementAnnotation]: appliedPlacementValue({
            replicaScheduling: { replicaSchedulingType: 'Duplicated' },
          }),
        },
        clusters: [
          { name: 'member1', replicas: 4 },
          { name: 'member2', replicas: 4 },
        ],
      },
      { schedule: true, trigger: 'AlwaysScheduled' },
    ],
    [
      'a non-workload is always scheduled',
      { ...settled, replicas: 0, clusters: [{ name: 'member1' }, { name: 'member2' }] },
      { schedule: true, trigger: 'AlwaysScheduled' },
    ],
    [
      'being deleted',
      { ...settled, annotations: {}, deleting: true },
      { schedule: false, reason: 'Deleting', observedGenerationStale: false },
    ],
    [
      'scheduling suspended',
      { ...settled, annotations: {}, spec: { suspension: { scheduling: true } } },
      { schedule: false, reason: 'SchedulingSuspended', observedGenerationStale: false },
    ],
    [
      'no placement',
      { replicas: 1, generation: 2, status: { schedulerObservedGeneration: 1 } },
      { schedule: false, reason: 'NoPlacement', observedGenerationStale: true },
    ],
    [
      'an unreadable record is treated as unchanged (as Karmada does)',
      { ...settled, annotations: { [AppliedPlacementAnnotation]: '{not json' } },
      { schedule: false, reason: 'UpToDate', observedGenerationStale: false },
    ],
  ];

  it.each(cases)('%s', (_name, options, want) => {
    const binding = resourceBinding(options);
    expect(schedulingDecision(binding)).toEqual(want);
    expect(schedulingNeeded(binding)).toBe(want.schedule);
  });
});

describe('awaitingScheduleOutcome', () => {
  const scheduledCondition = {
    type: 'Scheduled',
    status: 'False' as const,
    reason: 'NoClusterFit',
    message: '0/2 clusters are available',
    lastTransitionTime: '2026-01-01T00:00:00Z',
  };
  it.each<[string, BindingOptions, boolean]>([
    ['scheduled: lastScheduledTime recorded', settled, false],
    [
      'a failed schedule: its Scheduled condition recorded',
      { ...settled, status: { conditions: [scheduledCondition] } },
      false,
    ],
    ['the spec patch in the cache, the status write not yet', { ...settled, status: {} }, true],
    ['created, not scheduled yet', { placement: divided, replicas: 4 }, true],
    [
      'no placement: no scheduler will record anything',
      { replicas: 4, clusters: [{ name: 'member1' }] },
      false,
    ],
    [
      'scheduling suspended: no scheduler will record anything',
      { ...settled, status: {}, spec: { suspension: { scheduling: true } } },
      false,
    ],
  ])('%s', (_name, options, want) => {
    expect(awaitingScheduleOutcome(resourceBinding(options))).toBe(want);
  });
});
