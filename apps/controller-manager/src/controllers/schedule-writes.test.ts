import type { Placement } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  afterSchedulePatch,
  observedGenerationUpdate,
  scheduledCondition,
  schedulePatch,
  scheduleStatusUpdate,
  targetClustersEqual,
} from './schedule-writes.js';
import type { ScheduleResult } from './scheduler.js';
import { appliedPlacementValue } from './scheduling-trigger.js';
import { resourceBinding } from './testing/fixtures.js';
import { AppliedPlacementAnnotation } from './well-known.js';

const NOW = '2026-03-01T12:00:00Z';
const placement: Placement = { clusterAffinity: { clusterNames: ['member1', 'member2'] } };
const ok: ScheduleResult = {
  kind: 'Scheduled',
  clusters: [
    { name: 'member1', replicas: 3 },
    { name: 'member2', replicas: 6 },
  ],
};
const noFit: ScheduleResult = {
  kind: 'Unschedulable',
  clusters: [],
  reason: 'NoClusterFit',
  message: '0/2 clusters are available: x.',
};
const error: ScheduleResult = {
  kind: 'Unschedulable',
  clusters: [],
  reason: 'SchedulerError',
  message: 'unsupported',
};
const scheduledTrue = {
  type: 'Scheduled',
  status: 'True' as const,
  reason: 'Success',
  message: 'Binding has been scheduled successfully.',
  lastTransitionTime: '2026-01-01T00:00:00Z',
};

describe('scheduledCondition', () => {
  it.each<[string, ScheduleResult, string, string]>([
    ['success', ok, 'True', 'Success'],
    ['no cluster fits', noFit, 'False', 'NoClusterFit'],
    ['scheduler error', error, 'False', 'SchedulerError'],
  ])('%s', (_name, result, status, reason) => {
    const c = scheduledCondition(result);
    expect([c.type, c.status, c.reason]).toEqual(['Scheduled', status, reason]);
    if (result.kind === 'Unschedulable') expect(c.message).toBe(result.message);
  });
});

describe('schedulePatch', () => {
  const recorded = { [AppliedPlacementAnnotation]: appliedPlacementValue(placement) };
  it.each<[string, Parameters<typeof resourceBinding>[0], ScheduleResult, boolean]>([
    ['first schedule writes clusters and the record', { placement }, ok, true],
    [
      'same clusters (other order) and same record: nothing to write',
      { placement, annotations: recorded, clusters: [...ok.clusters].reverse() },
      ok,
      false,
    ],
    ['same clusters, record missing: write', { placement, clusters: ok.clusters }, ok, true],
    [
      'replicas moved: write',
      { placement, annotations: recorded, clusters: [{ name: 'member1', replicas: 9 }] },
      ok,
      true,
    ],
    [
      'NoClusterFit clears spec.clusters',
      { placement, annotations: recorded, clusters: ok.clusters },
      noFit,
      true,
    ],
    [
      'SchedulerError leaves spec.clusters alone',
      { placement, annotations: recorded, clusters: ok.clusters },
      error,
      false,
    ],
  ])('%s', (_name, options, result, wantWrite) => {
    const patch = schedulePatch(resourceBinding(options), result);
    expect(patch !== undefined).toBe(wantWrite);
    if (patch) {
      expect(patch.clusters).toEqual(result.clusters);
      expect(JSON.parse(patch.appliedPlacement)).toEqual(placement);
    }
  });
});

describe('afterSchedulePatch', () => {
  it('a first schedule writes its status once: the update event its spec patch brings back writes nothing', () => {
    // First pass: the cached binding is generation 1, unscheduled; the spec patch makes it generation 2.
    const cached = resourceBinding({ placement, generation: 1 });
    const patch = schedulePatch(cached, ok);
    expect(patch).toBeDefined();
    const patched = resourceBinding({ placement, generation: 2, clusters: ok.clusters });
    const status = scheduleStatusUpdate(afterSchedulePatch(cached, patched, patch!), ok, NOW);
    expect(status?.schedulerObservedGeneration).toBe(2);
    // Second pass, on the update event: the cache now has the spec patch and the status written above.
    const next = resourceBinding({
      placement,
      generation: 2,
      clusters: ok.clusters,
      annotations: { [AppliedPlacementAnnotation]: patch!.appliedPlacement },
      status: status!,
    });
    expect(schedulePatch(next, ok)).toBeUndefined();
    expect(scheduleStatusUpdate(next, ok, '2026-03-01T12:00:05Z')).toBeUndefined();
  });

  it('keeps the cached generation when the spec moved under its unconditional patch', () => {
    // The detector changed the spec (generation 2) before the scheduler's patch landed (generation 3): the
    // schedule was computed from generation 1, so it must not claim to have observed 3.
    const cached = resourceBinding({ placement, generation: 1 });
    const patch = schedulePatch(cached, ok)!;
    const patched = resourceBinding({ placement, generation: 3, clusters: ok.clusters });
    expect(afterSchedulePatch(cached, patched, patch).metadata.generation).toBe(1);
  });

  it('keeps the cached generation when the response has none', () => {
    const cached = resourceBinding({ placement, generation: 4 });
    const { generation: _g, ...metadata } = cached.metadata;
    const seen = afterSchedulePatch(cached, { metadata }, { clusters: ok.clusters, appliedPlacement: '{}' });
    expect(seen.metadata.generation).toBe(4);
    expect(seen.spec.clusters).toEqual(ok.clusters);
  });
});

describe('scheduleStatusUpdate', () => {
  it('first success: condition, observed generation and last scheduled time', () => {
    const status = scheduleStatusUpdate(resourceBinding({ placement, generation: 2 }), ok, NOW);
    expect(status).toEqual({
      conditions: [{ ...scheduledTrue, lastTransitionTime: NOW }],
      schedulerObservedGeneration: 2,
      lastScheduledTime: NOW,
    });
  });

  it('a pass that changes nothing writes nothing', () => {
    const binding = resourceBinding({
      placement,
      generation: 2,
      clusters: ok.clusters,
      status: {
        conditions: [scheduledTrue],
        schedulerObservedGeneration: 2,
        lastScheduledTime: '2026-01-01T00:00:00Z',
      },
    });
    expect(scheduleStatusUpdate(binding, ok, NOW)).toBeUndefined();
  });

  it('a new generation with the same result moves only the generation and time, not the conditions', () => {
    const binding = resourceBinding({
      placement,
      generation: 3,
      clusters: ok.clusters,
      status: {
        conditions: [scheduledTrue],
        schedulerObservedGeneration: 2,
        lastScheduledTime: '2026-01-01T00:00:00Z',
      },
    });
    // The Scheduled condition is unchanged, so the write leaves the shared conditions list alone.
    expect(scheduleStatusUpdate(binding, ok, NOW)).toEqual({
      schedulerObservedGeneration: 3,
      lastScheduledTime: NOW,
    });
  });

  it('a failure sets Scheduled=False and leaves the observed generation behind', () => {
    const binding = resourceBinding({
      placement,
      generation: 3,
      status: { conditions: [scheduledTrue], schedulerObservedGeneration: 2 },
    });
    const status = scheduleStatusUpdate(binding, noFit, NOW);
    expect(Object.keys(status ?? {})).toEqual(['conditions']);
    expect(status?.conditions).toEqual([
      {
        type: 'Scheduled',
        status: 'False',
        reason: 'NoClusterFit',
        message: noFit.message,
        lastTransitionTime: NOW,
      },
    ]);
  });

  it('the same failure again writes nothing', () => {
    const binding = resourceBinding({
      placement,
      status: {
        conditions: [
          {
            type: 'Scheduled',
            status: 'False',
            reason: 'NoClusterFit',
            message: noFit.message,
            lastTransitionTime: NOW,
          },
        ],
      },
    });
    expect(scheduleStatusUpdate(binding, noFit, '2026-03-02T00:00:00Z')).toBeUndefined();
  });

  it('records the clusterAffinities term used', () => {
    const status = scheduleStatusUpdate(
      resourceBinding({ placement }),
      { ...ok, affinityName: 'backup' },
      NOW,
    );
    expect(status?.schedulerObservingAffinityName).toBe('backup');
  });
});

describe('observedGenerationUpdate', () => {
  // Karmada f8fdd02df3760fd9521624f284877fa84e7be6ef, doScheduleBinding with nothing to schedule: the generation
  // alone when it differs, nothing when it does not.
  const status = { schedulerObservedGeneration: 3, lastScheduledTime: NOW };
  it('a generation past the observed one: that generation, nothing else', () => {
    expect(observedGenerationUpdate(resourceBinding({ generation: 4, status }))).toEqual({
      schedulerObservedGeneration: 4,
    });
  });
  it('a binding never observed: its generation', () => {
    expect(observedGenerationUpdate(resourceBinding({ generation: 1 }))).toEqual({
      schedulerObservedGeneration: 1,
    });
  });
  it('caught up: nothing', () => {
    expect(observedGenerationUpdate(resourceBinding({ generation: 3, status }))).toBeUndefined();
  });
});

describe('targetClustersEqual', () => {
  it.each<
    [string, Parameters<typeof targetClustersEqual>[0], Parameters<typeof targetClustersEqual>[1], boolean]
  >([
    [
      'order does not matter',
      [{ name: 'a', replicas: 1 }, { name: 'b' }],
      [
        { name: 'b', replicas: 0 },
        { name: 'a', replicas: 1 },
      ],
      true,
    ],
    ['absent and empty are equal', undefined, [], true],
    ['replicas differ', [{ name: 'a', replicas: 1 }], [{ name: 'a', replicas: 2 }], false],
    ['names differ', [{ name: 'a' }], [{ name: 'b' }], false],
  ])('%s', (_name, a, b, want) => {
    expect(targetClustersEqual(a, b)).toBe(want);
  });
});
