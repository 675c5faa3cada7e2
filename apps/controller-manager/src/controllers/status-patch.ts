// Status merge patches that cannot drop another controller's condition. status.conditions is shared (a binding's
// Scheduled comes from the scheduler, its FullyApplied from the binding status controller), and a merge patch
// replaces a list whole: a list computed from a cache that had not yet seen the other controller's write would
// erase that write. So a patch that carries conditions also carries the resourceVersion of the object its list
// was computed from, and the API server refuses it with 409 when the object moved (Karmada's binding status
// controller gets the same guarantee from an Update with the cached resourceVersion, pkg/util/helper/status.go at
// f8fdd02). A patch without conditions replaces no shared list, carries no precondition, and cannot conflict:
// under churn the binding's aggregatedStatus moves on every change while the conditions stay as they are.
import {
  ApiError,
  type GroupVersionResource,
  type KubeObject,
  type ObjectKey,
  toKey,
} from '@warmstart/informer-cache';
import type { WriteClient } from '@warmstart/runtime';
import type { Logger } from '../logger.js';

/** The fields of a status a controller writes; `conditions`, when present, is the whole new list. */
export type StatusFields = Readonly<Record<string, unknown>> & { readonly conditions?: unknown };

export type StatusMergePatch = {
  /** Present exactly when `status.conditions` is: the version the list was computed from. */
  readonly metadata?: { readonly resourceVersion: string };
  readonly status: StatusFields;
};

/** A conditions write computed from an object with no resourceVersion: it could not be made conditional. */
export class UnversionedConditionsWriteError extends Error {
  constructor(what: string) {
    super(
      `refusing to replace status.conditions of ${what} without a resourceVersion to guard the write: ` +
        'the object was not read from an informer cache; pass the cached (or last written) object',
    );
    this.name = 'UnversionedConditionsWriteError';
  }
}

/**
 * The merge patch writing `status` over `base` (the cached, or last written, object the fields were computed
 * from): conditional on `base`'s resourceVersion when it replaces the conditions list, unconditional otherwise.
 */
export function statusMergePatch(base: Readonly<KubeObject>, status: StatusFields): StatusMergePatch {
  if (status.conditions === undefined) return { status };
  const resourceVersion = base.metadata.resourceVersion;
  if (resourceVersion === undefined || resourceVersion === '') {
    const { namespace, name } = base.metadata;
    throw new UnversionedConditionsWriteError(namespace ? `${namespace}/${name}` : name);
  }
  return { metadata: { resourceVersion }, status };
}

/** How a status write ended: written, or refused because the object moved since it was read (409). */
export type StatusWriteOutcome =
  | { readonly kind: 'written'; readonly object: KubeObject }
  | { readonly kind: 'conflict' };

/** Who sends a status write and what it is, for the one log line a refused write leaves. */
export interface StatusWriter {
  readonly log: Logger;
  /** The controller's name (its queue's). */
  readonly controller: string;
  /** What the write carries, e.g. `Scheduled` or `FullyApplied+aggregatedStatus`. */
  readonly write: string;
  /**
   * The condition types of the object the write was computed from: a 409 whose base lacks the other controller's
   * condition says the cache lagged that controller; one whose base lacks the writer's own says it lagged our write.
   */
  readonly baseConditions?: readonly string[] | undefined;
}

/** The fields a status write carries, its conditions named by the types it sets: `conditions[Scheduled]+lastScheduledTime`. */
export function statusWriteName(status: StatusFields, conditionTypes: readonly string[]): string {
  return Object.keys(status)
    .map((field) => (field === 'conditions' ? `conditions[${conditionTypes.join(',')}]` : field))
    .join('+');
}

/**
 * Sends a status merge patch. A 409 is an expected outcome, not an error: the caller requeues and computes the
 * status again from a cache that has seen the other write (Karmada retries on conflict the same way). Each 409 is
 * logged once at info, naming the writer: a requeue is silent otherwise, and the bench's audit log counts refused
 * writes without saying whose they were.
 */
export async function writeStatus(
  writer: WriteClient,
  gvr: GroupVersionResource,
  key: ObjectKey,
  patch: StatusMergePatch,
  signal: AbortSignal,
  who: StatusWriter,
): Promise<StatusWriteOutcome> {
  try {
    const object = await writer.patchStatus(gvr, key, { type: 'merge', patch }, { signal });
    return { kind: 'written', object };
  } catch (error) {
    if (error instanceof ApiError && error.isConflict) {
      who.log.info(
        {
          controller: who.controller,
          resource: gvr.resource,
          object: toKey(key),
          write: who.write,
          resourceVersion: patch.metadata?.resourceVersion,
          ...(who.baseConditions !== undefined ? { baseConditions: who.baseConditions } : {}),
        },
        'status write refused with 409 (the object moved since it was read); requeued',
      );
      return { kind: 'conflict' };
    }
    throw error;
  }
}
