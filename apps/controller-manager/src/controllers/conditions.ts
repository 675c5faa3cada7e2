// metav1.Condition bookkeeping with apimachinery's meta.SetStatusCondition rules: lastTransitionTime moves only
// when the status changes, and a condition that would be written unchanged is not written at all.
import type { Condition } from '@warmstart/api';

/** A condition as a controller computes it; lastTransitionTime is filled in when it is set. */
export interface ConditionDraft {
  readonly type: string;
  readonly status: Condition['status'];
  readonly reason: string;
  readonly message: string;
  readonly observedGeneration?: number;
}

export function findCondition(
  conditions: readonly Readonly<Condition>[] | undefined,
  type: string,
): Readonly<Condition> | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * Whether writing `next` would change `existing`: a new condition, or a different status, reason or message
 * (or observedGeneration, when `next` carries one). A status write for an unchanged condition is a wasted write.
 */
export function conditionChanged(existing: Readonly<Condition> | undefined, next: ConditionDraft): boolean {
  if (existing === undefined) return true;
  if (
    existing.status !== next.status ||
    existing.reason !== next.reason ||
    existing.message !== next.message
  ) {
    return true;
  }
  return next.observedGeneration !== undefined && existing.observedGeneration !== next.observedGeneration;
}

/**
 * The conditions with `next` set: a new list (the input is never changed). An existing condition of the same
 * type keeps its lastTransitionTime unless the status changes; `now` is an RFC 3339 timestamp.
 */
export function setCondition(
  conditions: readonly Readonly<Condition>[] | undefined,
  next: ConditionDraft,
  now: string,
): Condition[] {
  const list = conditions ? [...conditions] : [];
  const index = list.findIndex((c) => c.type === next.type);
  const existing = index >= 0 ? list[index] : undefined;
  const lastTransitionTime =
    existing !== undefined && existing.status === next.status ? existing.lastTransitionTime : now;
  const observedGeneration = next.observedGeneration ?? existing?.observedGeneration;
  const condition: Condition = {
    type: next.type,
    status: next.status,
    ...(observedGeneration !== undefined ? { observedGeneration } : {}),
    lastTransitionTime,
    reason: next.reason,
    message: next.message,
  };
  if (index >= 0) list[index] = condition;
  else list.push(condition);
  return list;
}
