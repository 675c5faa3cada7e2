// How the binding controller reports the clusters whose Works it could not build or write, as Karmada's does: one
// Warning ApplyOverridePolicyFailed on the template per failing policy (pkg/util/overridemanager), then the
// per-cluster errors joined into one SyncWorkFailed message on the binding and the template
// (pkg/controllers/binding: ensureWork returns errors.NewAggregate of them).
import type { OverrideApplyError } from './override-policy.js';

/** Karmada's reason (pkg/events) for an override policy that does not apply to a cluster's copy. */
export const APPLY_OVERRIDE_POLICY_FAILED = 'ApplyOverridePolicyFailed';

/**
 * The clusters of one binding whose Works were not built or not written; the Works of its other clusters were
 * written. The message is what Karmada's aggregate error prints: the one message alone, or the distinct messages
 * in order (build failures, then write failures), comma-separated in brackets. Fix the named policy, or see the
 * write errors (`writeErrors`) for why the API server refused a Work; the binding is retried with backoff.
 */
export class WorkSyncFailedError extends Error {
  constructor(
    readonly failures: readonly OverrideApplyError[],
    readonly writeErrors: readonly unknown[] = [],
  ) {
    super(
      aggregateMessage([
        ...failures.map((f) => f.message),
        ...writeErrors.map((e) => (e instanceof Error ? e.message : String(e))),
      ]),
    );
    this.name = 'WorkSyncFailedError';
  }
}

/** k8s.io/apimachinery's aggregate Error(): one message as is; several deduplicated, in order, as `[a, b]`. */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length <= 1) return messages[0] ?? '';
  const distinct = [...new Set(messages)];
  return distinct.length === 1 ? distinct[0]! : `[${distinct.join(', ')}]`;
}

/**
 * The ApplyOverridePolicyFailed message Karmada writes on the template, or undefined when no policy was at
 * fault (the Cluster object is unknown: Karmada fails that cluster before it looks at any policy).
 */
export function applyOverridePolicyFailedMessage(failure: Readonly<OverrideApplyError>): string | undefined {
  switch (failure.policyKind) {
    case 'ClusterOverridePolicy':
      return `Apply cluster override policy(${failure.policy}) for cluster(${failure.cluster}) failed.`;
    case 'OverridePolicy':
      return `Apply override policy(${failure.policy}) for cluster(${failure.cluster}) failed.`;
    default:
      return undefined;
  }
}
