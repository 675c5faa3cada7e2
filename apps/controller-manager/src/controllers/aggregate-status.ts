// From Works to a binding's status, with Karmada's rules at f8fdd02: pkg/util/helper/workstatus.go
// (assembleWorkStatus, worksFullyApplied, generateFullyAppliedCondition). Cached objects in, values out; the controller compares them with what is cached and writes only a difference.
// The template's own status from these items: template-status.ts.
import {
  type AggregatedStatusItem,
  BindingConditionType,
  type Condition,
  clusterNameFromExecutionNamespace,
  type ObjectReference,
  type ResourceBindingSpec,
  type ResourceBindingStatus,
  type ResourceHealth,
  type Work,
  WorkConditionType,
} from '@warmstart/api';
import { type ConditionDraft, conditionChanged, findCondition, setCondition } from './conditions.js';
import { parseGroupVersion } from './execution.js';
import { isRecord } from './json.js';
import { sameStatus } from './merge-patch.js';

/** A Work or a member status that cannot be aggregated; the binding's status is left as it is. */
export class AggregateStatusError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AggregateStatusError';
  }
}

/** Karmada's FullyApplied reasons and messages (helper.FullyApplied*). */
export const FullyApplied = {
  SuccessReason: 'FullyAppliedSuccess',
  FailedReason: 'FullyAppliedFailed',
  SuccessMessage: 'All works have been successfully applied',
  FailedMessage: 'Failed to apply all works, see status.aggregatedStatus for details',
} as const;

/**
 * The index of the manifest that is the template (same apiVersion, kind, namespace and name) in a Work, or -1
 * (GetManifestIndex; Karmada errors where we return -1, and an undecodable manifest is an error in both).
 */
export function manifestIndex(
  manifests: readonly unknown[],
  ref: Pick<ObjectReference, 'apiVersion' | 'kind' | 'namespace' | 'name'>,
): number {
  for (const [index, manifest] of manifests.entries()) {
    if (!isRecord(manifest)) throw new AggregateStatusError(`manifest ${index} is not a JSON object`);
    const metadata = isRecord(manifest.metadata) ? manifest.metadata : {};
    if (
      manifest.apiVersion === ref.apiVersion &&
      manifest.kind === ref.kind &&
      (metadata.namespace ?? '') === (ref.namespace ?? '') &&
      (metadata.name ?? '') === ref.name
    ) {
      return index;
    }
  }
  return -1;
}

/**
 * The binding's `status.aggregatedStatus`, one item per Work not being deleted, sorted by cluster name. A Work
 * not Applied gives `applied: false` with the condition's message and Unknown health; an applied one gives the
 * template manifest's recorded status and health (Unknown until the work status controller recorded one).
 */
export function assembleWorkStatus(
  works: readonly Readonly<Work>[],
  ref: Readonly<ObjectReference>,
): AggregatedStatusItem[] {
  const items: AggregatedStatusItem[] = [];
  const gv = parseGroupVersion(ref.apiVersion);
  for (const work of works) {
    if (work.metadata.deletionTimestamp) continue;
    const manifests = work.spec.workload?.manifests ?? [];
    const ordinal = manifestIndex(manifests, ref);
    if (ordinal < 0) {
      throw new AggregateStatusError(
        `Work ${work.metadata.namespace}/${work.metadata.name} has no manifest for ${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`,
      );
    }
    const clusterName = clusterNameFromExecutionNamespace(work.metadata.namespace ?? '');
    if (clusterName === undefined) {
      throw new AggregateStatusError(
        `Work ${work.metadata.namespace}/${work.metadata.name} is not in an execution namespace (karmada-es-<cluster>)`,
      );
    }
    const condition = findCondition(work.status?.conditions, WorkConditionType.Applied);
    if (condition?.status !== 'True') {
      items.push({
        clusterName,
        ...(condition?.message ? { appliedMessage: condition.message } : {}),
        health: 'Unknown',
      });
      continue;
    }
    const recorded = work.status?.manifestStatuses?.find((s) => {
      const id = s.identifier;
      return (
        id.ordinal === ordinal &&
        (id.group ?? '') === (gv?.group ?? '') &&
        id.version === gv?.version &&
        id.kind === ref.kind &&
        (id.namespace ?? '') === (ref.namespace ?? '') &&
        id.name === ref.name
      );
    });
    const health: ResourceHealth | undefined = recorded ? recorded.health : 'Unknown';
    items.push({
      clusterName,
      ...(recorded?.status !== undefined && recorded.status !== null ? { status: recorded.status } : {}),
      applied: true,
      ...(health ? { health } : {}),
    });
  }
  // Go's sort.Slice on ClusterName: byte order.
  return items.sort((a, b) => (a.clusterName < b.clusterName ? -1 : a.clusterName > b.clusterName ? 1 : 0));
}

/** The clusters a binding has Works in (ObtainBindingSpecExistingClusters). */
export function bindingExistingClusters(spec: Readonly<ResourceBindingSpec>): Set<string> {
  const names = new Set((spec.clusters ?? []).map((c) => c.name));
  for (const required of spec.requiredBy ?? []) for (const c of required.clusters ?? []) names.add(c.name);
  for (const task of spec.gracefulEvictionTasks ?? [])
    if (task.purgeMode !== 'Directly') names.add(task.fromCluster);
  return names;
}

/** worksFullyApplied: every target cluster has an item, and every item is applied to a target cluster. */
export function worksFullyApplied(
  items: readonly AggregatedStatusItem[],
  targetClusters: ReadonlySet<string>,
): boolean {
  if (targetClusters.size === 0) return false;
  if (targetClusters.size !== items.length) return false;
  return items.every((i) => i.applied === true && targetClusters.has(i.clusterName));
}

/** generateFullyAppliedCondition. */
export function fullyAppliedCondition(
  spec: Readonly<ResourceBindingSpec>,
  items: readonly AggregatedStatusItem[],
): ConditionDraft {
  return worksFullyApplied(items, bindingExistingClusters(spec))
    ? {
        type: BindingConditionType.FullyApplied,
        status: 'True',
        reason: FullyApplied.SuccessReason,
        message: FullyApplied.SuccessMessage,
      }
    : {
        type: BindingConditionType.FullyApplied,
        status: 'False',
        reason: FullyApplied.FailedReason,
        message: FullyApplied.FailedMessage,
      };
}

/** What the binding status controller writes: aggregatedStatus, and the conditions only when FullyApplied moved. */
export type BindingStatusUpdate = {
  /** An empty list is written as null: `aggregatedStatus` is omitempty in Karmada's type. */
  readonly aggregatedStatus: readonly AggregatedStatusItem[] | null;
  readonly conditions?: Condition[];
};

/**
 * The binding status to write for `items`, or undefined when the cached binding already says it. The conditions
 * list is in the result only when FullyApplied changes, so a write of aggregatedStatus alone replaces no list the
 * scheduler shares (status-patch.ts makes the other kind conditional). `now` is RFC 3339.
 */
export function bindingStatusUpdate(
  binding: Readonly<{ spec: ResourceBindingSpec; status?: ResourceBindingStatus | undefined }>,
  items: readonly AggregatedStatusItem[],
  now: string,
): BindingStatusUpdate | undefined {
  const condition = fullyAppliedCondition(binding.spec, items);
  const moved = conditionChanged(findCondition(binding.status?.conditions, condition.type), condition);
  if (!moved && sameStatus(binding.status?.aggregatedStatus ?? [], items)) return undefined;
  return {
    aggregatedStatus: items.length > 0 ? items : null,
    ...(moved ? { conditions: setCondition(binding.status?.conditions, condition, now) } : {}),
  };
}
