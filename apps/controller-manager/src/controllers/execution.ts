// What the execution controller decides for one Work, with Karmada's rules (pkg/controllers/execution and
// pkg/util/objectwatcher): which manifests to apply to the member cluster and which to leave because a
// resource Karmada does not manage is in the way, the Applied condition that follows, and what to clean up
// on the member when the Work is deleted. The member I/O itself belongs to the caller.
import {
  Annotations,
  type Cluster,
  type Condition,
  ConflictResolutionAnnotationValue,
  clusterNameFromExecutionNamespace,
  Finalizers,
  Labels,
  type UnstructuredObject,
  type Work,
  WorkConditionType,
} from '@warmstart/api';
import { type ConditionDraft, findCondition } from './conditions.js';
import { isRecord } from './json.js';
import { isClusterReady } from './scheduler.js';
import { ManagedAnnotationsAnnotation, ManagedLabelsAnnotation, WorkConditionReason } from './well-known.js';

/** One manifest of a Work, decoded, with where it lives on the member cluster. */
export interface ParsedManifest {
  /** Its index in spec.workload.manifests. */
  readonly ordinal: number;
  readonly apiVersion: string;
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Absent for cluster-scoped objects. */
  readonly namespace?: string;
  readonly name: string;
  /** The manifest itself, as it is to be applied. */
  readonly object: Readonly<UnstructuredObject>;
}

/** A manifest that cannot be applied because it is not a Kubernetes object. */
export interface ManifestParseError {
  readonly ordinal: number;
  readonly message: string;
}

export type ManifestParseResult =
  | { readonly ok: true; readonly manifest: ParsedManifest }
  | { readonly ok: false; readonly error: ManifestParseError };

/** Decode every manifest of the Work, in order. */
export function parseManifests(work: Readonly<Work>): ManifestParseResult[] {
  return (work.spec.workload?.manifests ?? []).map((manifest, ordinal) => parseManifest(manifest, ordinal));
}

function parseManifest(manifest: unknown, ordinal: number): ManifestParseResult {
  const fail = (message: string): ManifestParseResult => ({
    ok: false,
    error: { ordinal, message: `manifest ${ordinal}: ${message}` },
  });
  if (!isRecord(manifest)) return fail('is not a JSON object');
  const { apiVersion, kind, metadata } = manifest;
  if (typeof apiVersion !== 'string' || apiVersion === '') return fail('has no apiVersion');
  if (typeof kind !== 'string' || kind === '') return fail('has no kind');
  const gv = parseGroupVersion(apiVersion);
  if (gv === undefined) return fail(`apiVersion "${apiVersion}" is not <group>/<version> or <version>`);
  if (!isRecord(metadata) || typeof metadata.name !== 'string' || metadata.name === '') {
    return fail(`${kind} has no metadata.name`);
  }
  const namespace =
    typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : undefined;
  return {
    ok: true,
    manifest: {
      ordinal,
      apiVersion,
      group: gv.group,
      version: gv.version,
      kind,
      ...(namespace !== undefined ? { namespace } : {}),
      name: metadata.name,
      object: manifest as UnstructuredObject,
    },
  };
}

/** schema.ParseGroupVersion: "v1" is the core group; "apps/v1" is group apps; more than one '/' is invalid. */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split('/');
  if (parts.length === 1 && parts[0] !== '') return { group: '', version: parts[0]! };
  if (parts.length === 2 && parts[0] !== '' && parts[1] !== '')
    return { group: parts[0]!, version: parts[1]! };
  return undefined;
}

/** `kind namespace/name` (or `kind name`) for messages. */
export function describeManifest(manifest: ParsedManifest): string {
  return manifest.namespace === undefined
    ? `${manifest.kind} ${manifest.name}`
    : `${manifest.kind} ${manifest.namespace}/${manifest.name}`;
}

export type ApplyDecision =
  /** Apply it: create when the member has no such object, update when Karmada may take the existing one over. */
  | { readonly action: 'apply'; readonly manifest: ParsedManifest; readonly exists: boolean }
  /** A resource Karmada does not manage is in the way and the Work does not say to overwrite it. */
  | { readonly action: 'skip-conflict'; readonly manifest: ParsedManifest; readonly message: string };

/**
 * Apply or leave one manifest, given the member's cached object (undefined when it has none). Karmada updates
 * an existing object only when it carries karmada.io/managed=true, or when the conflict-resolution annotation
 * is exactly "overwrite" — on the manifest, as Karmada reads it, or failing that on the Work.
 */
export function decideApply(
  manifest: ParsedManifest,
  memberObject: Readonly<UnstructuredObject> | undefined,
  work?: Readonly<Work>,
): ApplyDecision {
  if (memberObject === undefined) return { action: 'apply', manifest, exists: false };
  if (isManagedByKarmada(memberObject)) return { action: 'apply', manifest, exists: true };
  const onManifest = manifest.object.metadata.annotations?.[Annotations.WorkConflictResolution];
  const resolution = onManifest ?? work?.metadata.annotations?.[Annotations.WorkConflictResolution];
  if (resolution === ConflictResolutionAnnotationValue.Overwrite)
    return { action: 'apply', manifest, exists: true };
  const cluster = work ? clusterNameFromExecutionNamespace(work.metadata.namespace ?? '') : undefined;
  return {
    action: 'skip-conflict',
    manifest,
    message:
      `${describeManifest(manifest)} already exists in cluster ${cluster ?? '(unknown)'} and is not managed by ` +
      `Karmada (no ${Labels.Managed}=true label); to take it over, set the ${Annotations.WorkConflictResolution}=overwrite ` +
      'annotation on the resource template or conflictResolution: Overwrite on its policy',
  };
}

/** Whether a member object carries karmada.io/managed=true. */
export function isManagedByKarmada(object: Readonly<UnstructuredObject>): boolean {
  return object.metadata.labels?.[Labels.Managed] === 'true';
}

/** The result of one manifest once the caller has acted on it. */
export type ManifestOutcome =
  | { readonly ordinal: number; readonly applied: true }
  | { readonly ordinal: number; readonly applied: false; readonly message: string };

/** The outcome a decision that applies nothing stands for (a conflict is a failure to apply). */
export function skippedOutcome(
  decision: Extract<ApplyDecision, { action: 'skip-conflict' }>,
): ManifestOutcome {
  return { ordinal: decision.manifest.ordinal, applied: false, message: decision.message };
}

/** The outcome a manifest that could not be decoded stands for. */
export function parseErrorOutcome(error: ManifestParseError): ManifestOutcome {
  return { ordinal: error.ordinal, applied: false, message: error.message };
}

const APPLIED_MESSAGE = 'Manifest has been successfully applied';

/**
 * The Applied condition for a Work, from the outcome of each of its manifests: True/AppliedSuccessful when all
 * applied, otherwise False/AppliedFailed with "Failed to apply all manifests (<applied>/<total>): <errors>" —
 * Karmada's wording, with the errors joined the way apimachinery's errors.NewAggregate joins them.
 */
export function appliedCondition(
  outcomes: readonly ManifestOutcome[],
  observedGeneration?: number,
): ConditionDraft {
  const generation = observedGeneration !== undefined ? { observedGeneration } : {};
  const failures = outcomes.flatMap((o) => (o.applied ? [] : [o.message]));
  if (failures.length === 0) {
    return {
      type: WorkConditionType.Applied,
      status: 'True',
      reason: WorkConditionReason.AppliedSuccessful,
      message: APPLIED_MESSAGE,
      ...generation,
    };
  }
  const applied = outcomes.length - failures.length;
  return {
    type: WorkConditionType.Applied,
    status: 'False',
    reason: WorkConditionReason.AppliedFailed,
    message: `Failed to apply all manifests (${applied}/${outcomes.length}): ${aggregateMessage(failures)}`,
    ...generation,
  };
}

// errors.NewAggregate(...).Error(): one message as is; several de-duplicated, comma-joined, in brackets.
function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/** The Dispatching condition: False while spec.suspendDispatching is true. */
export function dispatchingCondition(work: Readonly<Work>): ConditionDraft {
  return work.spec.suspendDispatching === true
    ? {
        type: WorkConditionType.Dispatching,
        status: 'False',
        reason: WorkConditionReason.SuspendDispatching,
        message: 'Work dispatching is in a suspended state.',
      }
    : {
        type: WorkConditionType.Dispatching,
        status: 'True',
        reason: WorkConditionReason.Dispatching,
        message: 'Work is being dispatched to member clusters.',
      };
}

/**
 * Whether the Dispatching condition needs writing: Karmada compares the status alone
 * (meta.IsStatusConditionPresentAndEqual), so a stored condition with another reason or message stays.
 */
export function dispatchingChanged(
  conditions: readonly Readonly<Condition>[] | undefined,
  next: ConditionDraft,
): boolean {
  return findCondition(conditions, next.type)?.status !== next.status;
}

/** Looks a manifest's object up in the member cluster's cache; undefined when the member has none. */
export type MemberLookup = (manifest: ParsedManifest) => Readonly<UnstructuredObject> | undefined;

export type WorkSyncPlan =
  /** The Work is being deleted: see {@link planWorkDeletion}. */
  | { readonly kind: 'deleting' }
  /** spec.suspendDispatching: touch nothing on the member. */
  | { readonly kind: 'suspended' }
  /** The cluster is unknown or not Ready: retry later. */
  | { readonly kind: 'cluster-not-ready'; readonly message: string }
  | {
      readonly kind: 'apply';
      readonly decisions: readonly ApplyDecision[];
      /** Manifests that cannot be applied at all; they count as failures in the Applied condition. */
      readonly invalid: readonly ManifestParseError[];
    };

/** The execution controller's pass over a Work that is not being deleted, in Karmada's order. */
export function planWorkSync(
  work: Readonly<Work>,
  cluster: Readonly<Cluster> | undefined,
  lookup: MemberLookup,
): WorkSyncPlan {
  if (work.metadata.deletionTimestamp !== undefined) return { kind: 'deleting' };
  if (work.spec.suspendDispatching === true) return { kind: 'suspended' };
  const clusterName = clusterNameFromExecutionNamespace(work.metadata.namespace ?? '') ?? '';
  if (cluster === undefined || !isClusterReady(cluster)) {
    return {
      kind: 'cluster-not-ready',
      message: `cluster ${clusterName} ${cluster === undefined ? 'is not in the Cluster cache' : 'is not Ready'}; the Work is applied once it is`,
    };
  }
  const decisions: ApplyDecision[] = [];
  const invalid: ManifestParseError[] = [];
  for (const parsed of parseManifests(work)) {
    if (parsed.ok) decisions.push(decideApply(parsed.manifest, lookup(parsed.manifest), work));
    else invalid.push(parsed.error);
  }
  return { kind: 'apply', decisions, invalid };
}

export type MemberCleanup =
  /** Delete the member object, with propagationPolicy Background (a Job's default, Orphan, would strand pods). */
  | { readonly action: 'delete'; readonly manifest: ParsedManifest; readonly propagationPolicy: 'Background' }
  /** preserveResourcesOnDeletion: keep the object but remove Karmada's labels and annotations from it. */
  | {
      readonly action: 'strip-metadata';
      readonly manifest: ParsedManifest;
      readonly labels: readonly string[];
      readonly annotations: readonly string[];
    }
  /** Nothing to do on the member for this manifest. */
  | {
      readonly action: 'leave';
      readonly manifest: ParsedManifest;
      readonly reason: 'absent' | 'not-managed' | 'already-clean';
    };

export type WorkDeletionPlan =
  | { readonly kind: 'not-deleting' }
  /** Cannot proceed now (cluster not Ready, or a manifest cannot be decoded); retry later. */
  | { readonly kind: 'blocked'; readonly message: string }
  | {
      readonly kind: 'cleanup';
      /** Member writes to make first, in manifest order. */
      readonly cleanups: readonly MemberCleanup[];
      /** The Work's finalizers once ours is removed; undefined when ours is already gone (no write). */
      readonly finalizers: readonly string[] | undefined;
    };

// Labels and annotations Karmada puts on member objects (util.ManagedResourceLabels / ...Annotations).
const MANAGED_LABELS = [Labels.ResourceBindingPermanentId, Labels.WorkPermanentId, Labels.Managed] as const;
const MANAGED_ANNOTATIONS = [
  ManagedAnnotationsAnnotation,
  ManagedLabelsAnnotation,
  Annotations.ResourceBindingNamespace,
  Annotations.ResourceBindingName,
  Annotations.ResourceTemplateUid,
  Annotations.ResourceTemplateGeneration,
  Annotations.WorkName,
  Annotations.WorkNamespace,
] as const;
// The detector's claim on the template travels with it; a preserved object sheds the claim for its scope.
const PP_CLAIM = {
  labels: [Labels.PropagationPolicyPermanentId],
  annotations: [Annotations.PropagationPolicyNamespace, Annotations.PropagationPolicyName],
} as const;
const CPP_CLAIM = {
  labels: [Labels.ClusterPropagationPolicyPermanentId],
  annotations: [Annotations.ClusterPropagationPolicyName],
} as const;

/**
 * What to do on the member cluster for a Work being deleted, then whether to drop our finalizer. Without
 * preserveResourcesOnDeletion, the objects Karmada manages are deleted (others are left alone) — if the cluster
 * is Ready; a cluster that is not Ready blocks, unless it is being deleted itself (then nothing is left to
 * clean). With it, each object keeps running and only loses Karmada's metadata. A cluster missing from the
 * cache blocks too: it may just not be cached yet.
 */
export function planWorkDeletion(
  work: Readonly<Work>,
  cluster: Readonly<Cluster> | undefined,
  lookup: MemberLookup,
): WorkDeletionPlan {
  if (work.metadata.deletionTimestamp === undefined) return { kind: 'not-deleting' };
  const clusterName = clusterNameFromExecutionNamespace(work.metadata.namespace ?? '') ?? '';
  if (cluster === undefined) {
    return {
      kind: 'blocked',
      message: `cluster ${clusterName} is not in the Cluster cache, so its objects cannot be cleaned up; retry once it is, or remove the ${Finalizers.Work} finalizer by hand if the cluster is gone for good`,
    };
  }
  const manifests: ParsedManifest[] = [];
  for (const parsed of parseManifests(work)) {
    if (!parsed.ok) {
      return {
        kind: 'blocked',
        message: `${parsed.error.message}, so it cannot be cleaned up in cluster ${clusterName}; fix the Work or remove the ${Finalizers.Work} finalizer by hand`,
      };
    }
    manifests.push(parsed.manifest);
  }

  const preserve = work.spec.preserveResourcesOnDeletion === true;
  let cleanups: MemberCleanup[];
  if (preserve) {
    cleanups = manifests.map((m) => stripPlan(m, lookup(m)));
  } else if (isClusterReady(cluster)) {
    cleanups = manifests.map((m): MemberCleanup => {
      const member = lookup(m);
      if (member === undefined) return { action: 'leave', manifest: m, reason: 'absent' };
      if (!isManagedByKarmada(member)) return { action: 'leave', manifest: m, reason: 'not-managed' };
      return { action: 'delete', manifest: m, propagationPolicy: 'Background' };
    });
  } else if (cluster.metadata.deletionTimestamp === undefined) {
    return {
      kind: 'blocked',
      message: `cluster ${clusterName} is not Ready, so the Work's objects cannot be deleted from it; retry once it is Ready`,
    };
  } else {
    cleanups = [];
  }

  const finalizers = work.metadata.finalizers ?? [];
  return {
    kind: 'cleanup',
    cleanups,
    finalizers: finalizers.includes(Finalizers.Work)
      ? finalizers.filter((f) => f !== Finalizers.Work)
      : undefined,
  };
}

function stripPlan(
  manifest: ParsedManifest,
  member: Readonly<UnstructuredObject> | undefined,
): MemberCleanup {
  if (member === undefined) return { action: 'leave', manifest, reason: 'absent' };
  if (!isManagedByKarmada(member)) return { action: 'leave', manifest, reason: 'not-managed' };
  const claim = manifest.namespace === undefined ? CPP_CLAIM : PP_CLAIM;
  const labels = member.metadata.labels ?? {};
  const annotations = member.metadata.annotations ?? {};
  const labelKeys = [...claim.labels, ...MANAGED_LABELS].filter((k) => Object.hasOwn(labels, k));
  const annotationKeys = [...claim.annotations, ...MANAGED_ANNOTATIONS].filter((k) =>
    Object.hasOwn(annotations, k),
  );
  if (labelKeys.length === 0 && annotationKeys.length === 0)
    return { action: 'leave', manifest, reason: 'already-clean' };
  return { action: 'strip-metadata', manifest, labels: labelKeys, annotations: annotationKeys };
}
