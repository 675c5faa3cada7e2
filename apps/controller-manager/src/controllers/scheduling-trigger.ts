// When a binding needs scheduling, with karmada-scheduler's rules (pkg/scheduler/scheduler.go
// doScheduleBinding): the placement differs from the one recorded at the last schedule, the replicas no longer
// add up, a reschedule was requested, or the binding is Duplicated / not a workload (always rescheduled, so
// cluster changes reach it). Anything else only needs status.schedulerObservedGeneration caught up.
import { BindingConditionType, type Placement } from '@warmstart/api';
import type { Binding } from './binding.js';
import { findCondition } from './conditions.js';
import { inGoFieldOrder, PLACEMENT_SHAPE } from './go-field-order.js';
import { jsonEqual } from './json.js';
import { replicaSchedulingTypeOf } from './scheduler.js';
import { AppliedPlacementAnnotation } from './well-known.js';

export type SchedulingTrigger =
  /** No placement recorded yet, or spec.placement differs from it. */
  | 'PlacementChanged'
  /**
   * Our own: the applied placement is recorded (the schedule's spec patch landed) but the binding carries no outcome
   * of it (no status.lastScheduledTime, no Scheduled condition): the status write after the spec patch was refused
   * (409), failed, or the process stopped between the two. Scheduled again, the result is the same and only the
   * status is written; without it a Divided binding would stay unmarked, and the binding status controller, which
   * waits for the scheduler's first status (binding-status-controller.ts), would never write its own.
   */
  | 'ScheduleUnrecorded'
  /** spec.clusters no longer adds up to spec.replicas (scaled, or a cluster was evicted). */
  | 'ReplicasChanged'
  /** spec.rescheduleTriggeredAt is later than status.lastScheduledTime. */
  | 'RescheduleTriggered'
  /** Duplicated or non-workload bindings are scheduled on every pass. */
  | 'AlwaysScheduled';

export type SchedulingSkipReason =
  | 'Deleting'
  | 'NoPlacement'
  /** spec.suspension.scheduling is true. */
  | 'SchedulingSuspended'
  | 'UpToDate';

export type SchedulingDecision =
  | { readonly schedule: true; readonly trigger: SchedulingTrigger }
  | {
      readonly schedule: false;
      readonly reason: SchedulingSkipReason;
      /** metadata.generation differs from status.schedulerObservedGeneration: write the generation only. */
      readonly observedGenerationStale: boolean;
    };

export function schedulingDecision(binding: Readonly<Binding>): SchedulingDecision {
  const skip = (reason: SchedulingSkipReason): SchedulingDecision => ({
    schedule: false,
    reason,
    observedGenerationStale:
      (binding.metadata.generation ?? 0) !== (binding.status?.schedulerObservedGeneration ?? 0),
  });
  const { spec } = binding;
  if (binding.metadata.deletionTimestamp !== undefined) return skip('Deleting');
  if (spec.suspension?.scheduling === true) return skip('SchedulingSuspended');
  if (spec.placement === undefined) return skip('NoPlacement');
  if (placementChanged(spec.placement, binding.metadata.annotations?.[AppliedPlacementAnnotation])) {
    return { schedule: true, trigger: 'PlacementChanged' };
  }
  if (!scheduleRecorded(binding)) return { schedule: true, trigger: 'ScheduleUnrecorded' };
  if (replicasChanged(binding)) return { schedule: true, trigger: 'ReplicasChanged' };
  if (rescheduleRequested(spec.rescheduleTriggeredAt, binding.status?.lastScheduledTime)) {
    return { schedule: true, trigger: 'RescheduleTriggered' };
  }
  if ((spec.replicas ?? 0) === 0 || replicaSchedulingTypeOf(spec.placement) === 'Duplicated') {
    return { schedule: true, trigger: 'AlwaysScheduled' };
  }
  return skip('UpToDate');
}

/** True when the binding should be scheduled now; see {@link schedulingDecision} for why. */
export function schedulingNeeded(binding: Readonly<Binding>): boolean {
  return schedulingDecision(binding).schedule;
}

/**
 * The value of the applied-placement annotation that records `placement` as scheduled, byte for byte as
 * Karmada's scheduler writes it (Go field order, go-field-order.ts).
 */
export function appliedPlacementValue(placement: Readonly<Placement> | undefined): string {
  return JSON.stringify(inGoFieldOrder(placement ?? {}, PLACEMENT_SHAPE));
}

function placementChanged(placement: Readonly<Placement>, applied: string | undefined): boolean {
  if (applied === undefined || applied === '') return true;
  let recorded: unknown;
  try {
    recorded = JSON.parse(applied);
  } catch {
    // Karmada logs an unreadable record and treats the placement as unchanged; rescheduling on every pass
    // would not repair it either, since only a successful schedule rewrites it.
    return false;
  }
  return !jsonEqual(placement, recorded);
}

/**
 * Whether the binding carries an outcome of a schedule: the time of the last successful one, or a Scheduled
 * condition (a failed schedule writes only that). Both come from the scheduler's status write.
 */
export function scheduleRecorded(binding: Readonly<Pick<Binding, 'status'>>): boolean {
  const status = binding.status;
  return (
    status?.lastScheduledTime !== undefined ||
    findCondition(status?.conditions, BindingConditionType.Scheduled) !== undefined
  );
}

/**
 * Whether a scheduler is still to give the binding its first outcome: it has a placement, scheduling is not
 * suspended, and no outcome is recorded. Such a binding's Works (if any) come from a schedule whose status write has
 * not reached the cache yet: a status computed from it is computed from a binding older than the stored one.
 */
export function awaitingScheduleOutcome(binding: Readonly<Pick<Binding, 'spec' | 'status'>>): boolean {
  return (
    binding.spec.placement !== undefined &&
    binding.spec.suspension?.scheduling !== true &&
    !scheduleRecorded(binding)
  );
}

function replicasChanged(binding: Readonly<Binding>): boolean {
  const { spec } = binding;
  if (spec.placement?.replicaScheduling === undefined) return false;
  const replicas = spec.replicas ?? 0;
  const clusters = spec.clusters ?? [];
  if (replicaSchedulingTypeOf(spec.placement) === 'Duplicated') {
    return clusters.some((c) => (c.replicas ?? 0) !== replicas);
  }
  return clusters.reduce((sum, c) => sum + (c.replicas ?? 0), 0) !== replicas;
}

// Nothing to compare against until a schedule has succeeded once.
function rescheduleRequested(triggeredAt: string | undefined, lastScheduled: string | undefined): boolean {
  if (triggeredAt === undefined || lastScheduled === undefined) return false;
  const t = Date.parse(triggeredAt);
  const l = Date.parse(lastScheduled);
  return !Number.isNaN(t) && !Number.isNaN(l) && t > l;
}
