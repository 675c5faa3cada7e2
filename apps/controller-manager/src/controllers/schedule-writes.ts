// What the scheduler writes after a schedule, and only when it differs from the cached binding: the spec patch
// (spec.clusters plus the applied-placement record) and the status (Scheduled condition, observed generation,
// last scheduled time, affinity term); after a pass with nothing to schedule, the observed generation alone.
// Unchanged in, nothing out.
import { BindingConditionType, type ResourceBindingStatus, type TargetCluster } from '@warmstart/api';
import type { Binding } from './binding.js';
import { type ConditionDraft, conditionChanged, findCondition, setCondition } from './conditions.js';
import { jsonEqual } from './json.js';
import type { ScheduleResult } from './scheduler.js';
import { appliedPlacementValue } from './scheduling-trigger.js';
import { AppliedPlacementAnnotation, ScheduledReason } from './well-known.js';

const SCHEDULED_MESSAGE = 'Binding has been scheduled successfully.';

/** The Scheduled condition for a schedule result. */
export function scheduledCondition(result: ScheduleResult): ConditionDraft {
  if (result.kind === 'Scheduled') {
    return {
      type: BindingConditionType.Scheduled,
      status: 'True',
      reason: ScheduledReason.Success,
      message: SCHEDULED_MESSAGE,
    };
  }
  return {
    type: BindingConditionType.Scheduled,
    status: 'False',
    reason: result.reason === 'NoClusterFit' ? ScheduledReason.NoClusterFit : ScheduledReason.SchedulerError,
    message: result.message,
  };
}

/** The merge patch of a schedule: spec.clusters and the applied-placement annotation, written together. */
export interface SchedulePatch {
  /** The new spec.clusters; empty means clear it. */
  readonly clusters: readonly TargetCluster[];
  /** The new value of the policy.karmada.io/applied-placement annotation. */
  readonly appliedPlacement: string;
}

/**
 * The spec patch to write, or undefined when the binding already says the same. A SchedulerError writes
 * nothing (spec.clusters stays as it is); NoClusterFit clears spec.clusters, as Karmada does.
 */
export function schedulePatch(binding: Readonly<Binding>, result: ScheduleResult): SchedulePatch | undefined {
  if (result.kind === 'Unschedulable' && result.reason === 'SchedulerError') return undefined;
  const appliedPlacement = appliedPlacementValue(binding.spec.placement);
  const recorded = binding.metadata.annotations?.[AppliedPlacementAnnotation];
  if (targetClustersEqual(binding.spec.clusters, result.clusters) && sameRecord(recorded, appliedPlacement)) {
    return undefined;
  }
  return { clusters: result.clusters, appliedPlacement };
}

/**
 * The binding as the status write should see it after the scheduler's own spec patch: the patch's response, which
 * is the stored object (its status and resourceVersion newer than the cache's: the status write is computed from,
 * and made conditional on, that), with the generation the schedule observed. The patch moves metadata.generation;
 * the schedule behind it observed that generation (its only change is this schedule), so the status records the
 * patched generation, as Karmada's scheduler does. Recording the cached one instead left every scheduled binding
 * one generation behind and cost a second status write when the update event came back.
 */
export function afterSchedulePatch(
  binding: Readonly<Binding>,
  patched: Readonly<Pick<Binding, 'metadata' | 'status'>>,
  patch: SchedulePatch,
): Binding {
  // The patch carries no resourceVersion (Karmada's does not either: under churn the precondition made most of
  // these patches fail with 409). So it may have landed on a spec the detector changed meanwhile: the patched
  // generation counts as observed only when our own spec change is all that moved it.
  const before = binding.metadata.generation;
  const ours = targetClustersEqual(binding.spec.clusters, patch.clusters) ? 0 : 1;
  const landed = patched.metadata.generation;
  const generation =
    landed !== undefined && before !== undefined && landed === before + ours ? landed : before;
  const resourceVersion = patched.metadata.resourceVersion ?? binding.metadata.resourceVersion;
  const { status: _cached, ...rest } = binding;
  return {
    ...rest,
    metadata: {
      ...binding.metadata,
      ...(generation !== undefined ? { generation } : {}),
      ...(resourceVersion !== undefined ? { resourceVersion } : {}),
    },
    spec: { ...binding.spec, clusters: [...patch.clusters] },
    ...(patched.status !== undefined ? { status: patched.status } : {}),
  };
}

/** The status fields the scheduler owns; a write carries only those of them that change. */
export type ScheduleStatus = Pick<
  ResourceBindingStatus,
  'conditions' | 'schedulerObservedGeneration' | 'schedulerObservingAffinityName' | 'lastScheduledTime'
>;

/**
 * The scheduler's status fields to write after a schedule, or undefined when nothing would change. On success
 * schedulerObservedGeneration catches up with metadata.generation; lastScheduledTime moves only when the
 * schedule changed something, so a pass that finds nothing new writes nothing. The conditions list is in the
 * result only when the Scheduled condition changes: a write without it cannot touch another controller's
 * condition and needs no precondition (status-patch.ts). `now` is RFC 3339.
 */
export function scheduleStatusUpdate(
  binding: Readonly<Binding>,
  result: ScheduleResult,
  now: string,
): ScheduleStatus | undefined {
  const status = binding.status ?? {};
  const condition = scheduledCondition(result);
  const existing = findCondition(status.conditions, condition.type);
  const changedCondition = conditionChanged(existing, condition);
  const conditions = changedCondition ? { conditions: setCondition(status.conditions, condition, now) } : {};
  if (result.kind === 'Unschedulable') return changedCondition ? conditions : undefined;

  const generation = binding.metadata.generation ?? 0;
  const affinityName = result.affinityName ?? status.schedulerObservingAffinityName;
  const changed =
    changedCondition ||
    status.schedulerObservedGeneration !== generation ||
    status.schedulerObservingAffinityName !== affinityName ||
    status.lastScheduledTime === undefined ||
    !targetClustersEqual(binding.spec.clusters, result.clusters);
  if (!changed) return undefined;
  return {
    ...conditions,
    ...(status.schedulerObservedGeneration !== generation ? { schedulerObservedGeneration: generation } : {}),
    ...(affinityName !== undefined && affinityName !== status.schedulerObservingAffinityName
      ? { schedulerObservingAffinityName: affinityName }
      : {}),
    lastScheduledTime: now,
  };
}

/**
 * The status write of a pass that finds nothing to schedule while metadata.generation has moved past
 * status.schedulerObservedGeneration (the detector carried a template edit into the spec, e.g. a new
 * spec.resource.resourceVersion): the generation alone, so whoever waits for the scheduler to have seen the latest
 * spec (Karmada's graceful eviction and deployment replicas syncer compare the two) sees that it has. Conditions
 * and lastScheduledTime stay as the last schedule left them, as with Karmada's scheduler (pkg/scheduler/scheduler.go
 * doScheduleBinding and doScheduleClusterBinding at f8fdd02, a status merge patch of the one field). Undefined
 * when the two already agree: nothing new, nothing written.
 */
export function observedGenerationUpdate(binding: Readonly<Binding>): ScheduleStatus | undefined {
  const generation = binding.metadata.generation;
  if (generation === undefined || generation === binding.status?.schedulerObservedGeneration)
    return undefined;
  return { schedulerObservedGeneration: generation };
}

/** Same clusters with the same replicas and components, in any order (a missing replicas field is 0). */
export function targetClustersEqual(
  a: readonly Readonly<TargetCluster>[] | undefined,
  b: readonly Readonly<TargetCluster>[] | undefined,
): boolean {
  const left = a ?? [];
  const right = b ?? [];
  if (left.length !== right.length) return false;
  const byName = new Map(right.map((t) => [t.name, t]));
  if (byName.size !== right.length) return false;
  return left.every((t) => {
    const other = byName.get(t.name);
    return (
      other !== undefined &&
      (t.replicas ?? 0) === (other.replicas ?? 0) &&
      jsonEqual(t.components ?? [], other.components ?? [])
    );
  });
}

function sameRecord(recorded: string | undefined, next: string): boolean {
  if (recorded === undefined) return false;
  try {
    return jsonEqual(JSON.parse(recorded), JSON.parse(next));
  } catch {
    return false;
  }
}
