// From Works to a binding's status, and from there to its template's status, with Karmada's rules at f8fdd02:
// pkg/util/helper/workstatus.go (assembleWorkStatus, worksFullyApplied, generateFullyAppliedCondition) and
// pkg/resourceinterpreter/default/native/aggregatestatus.go (aggregateDeploymentStatus). Cached objects in,
// values out; the controller compares them with what is cached and writes only a difference.
import {
  type AggregatedStatusItem,
  BindingConditionType,
  type Condition,
  clusterNameFromExecutionNamespace,
  type ObjectReference,
  type ResourceBindingSpec,
  type ResourceBindingStatus,
  type ResourceHealth,
  type UnstructuredObject,
  type Work,
  WorkConditionType,
} from '@warmstart/api';
import { type ConditionDraft, conditionChanged, findCondition, setCondition } from './conditions.js';
import { parseGroupVersion } from './execution.js';
import { isRecord, type JsonObject, jsonEqual } from './json.js';

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
  if (!moved && jsonEqual(binding.status?.aggregatedStatus ?? [], items)) return undefined;
  return {
    aggregatedStatus: items.length > 0 ? items : null,
    ...(moved ? { conditions: setCondition(binding.status?.conditions, condition, now) } : {}),
  };
}

/** The Deployment status fields Karmada aggregates, as a template's `.status` holds them (absent = 0). */
export interface DeploymentStatusSummary {
  readonly observedGeneration: number;
  readonly replicas: number;
  readonly readyReplicas: number;
  readonly updatedReplicas: number;
  readonly availableReplicas: number;
  readonly unavailableReplicas: number;
}

const SUMMED = [
  'replicas',
  'readyReplicas',
  'updatedReplicas',
  'availableReplicas',
  'unavailableReplicas',
] as const;

/** Whether Karmada's default interpreter aggregates this template kind's status (here: Deployments only). */
export function aggregatesStatus(apiVersion: string, kind: string): boolean {
  return apiVersion === 'apps/v1' && kind === 'Deployment';
}

/**
 * aggregateDeploymentStatus: the members' counters summed; observedGeneration becomes the template's generation
 * once every item reports a member status that observed its own generation and was applied from the template's
 * current generation (an item without a status counts against), otherwise it stays as it was. Returns the new
 * values, or undefined when the template already shows them (Karmada writes nothing then).
 */
export function aggregateDeploymentStatus(
  template: Readonly<UnstructuredObject>,
  items: readonly AggregatedStatusItem[],
): DeploymentStatusSummary | undefined {
  const old = statusSummary(template);
  const generation = template.metadata.generation ?? 0;
  const sums: Record<(typeof SUMMED)[number], number> = {
    replicas: 0,
    readyReplicas: 0,
    updatedReplicas: 0,
    availableReplicas: 0,
    unavailableReplicas: 0,
  };
  let observedLatest = 0;
  for (const item of items) {
    if (item.status === undefined || item.status === null) continue;
    if (!isRecord(item.status)) {
      throw new AggregateStatusError(
        `the status of cluster ${item.clusterName} in the binding's aggregatedStatus is not a JSON object`,
      );
    }
    const member = item.status;
    const int = (key: string): number => {
      const v = member[key];
      if (v === undefined || v === null) return 0;
      if (typeof v !== 'number' || !Number.isInteger(v)) {
        throw new AggregateStatusError(
          `status.${key} of cluster ${item.clusterName} in the binding's aggregatedStatus is ${JSON.stringify(v)}, not an integer`,
        );
      }
      return v;
    };
    if (int('observedGeneration') >= int('generation') && int('resourceTemplateGeneration') >= generation)
      observedLatest++;
    for (const key of SUMMED) sums[key] += int(key);
  }
  const next: DeploymentStatusSummary = {
    observedGeneration: observedLatest === items.length ? generation : old.observedGeneration,
    ...sums,
  };
  const same = (Object.keys(next) as (keyof DeploymentStatusSummary)[]).every((k) => next[k] === old[k]);
  return same ? undefined : next;
}

/** The aggregated fields of a Deployment's `.status` (absent or malformed counts as 0). */
export function statusSummary(template: Readonly<UnstructuredObject>): DeploymentStatusSummary {
  const status: JsonObject = isRecord(template.status) ? template.status : {};
  const int = (key: string): number => {
    const v = status[key];
    return typeof v === 'number' && Number.isInteger(v) ? v : 0;
  };
  return {
    observedGeneration: int('observedGeneration'),
    replicas: int('replicas'),
    readyReplicas: int('readyReplicas'),
    updatedReplicas: int('updatedReplicas'),
    availableReplicas: int('availableReplicas'),
    unavailableReplicas: int('unavailableReplicas'),
  };
}
