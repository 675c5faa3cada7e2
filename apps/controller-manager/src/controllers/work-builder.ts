// What the binding controller writes: one Work per target cluster, in karmada-es-<cluster>, carrying the
// resource template cleaned and stamped the way Karmada's ensureWork + ctrlutil.CreateOrUpdateWork do it, so
// Works written here and Works written by Karmada compare equal and a takeover rewrites nothing.
import {
  Annotations,
  type Cluster,
  type ClusterOverridePolicy,
  ConflictResolutionAnnotationValue,
  clusterNameFromExecutionNamespace,
  executionNamespace,
  Finalizers,
  Labels,
  type OverridePolicy,
  type TargetCluster,
  type UnstructuredObject,
  type Work,
  type WorkSpec,
  workName,
} from '@warmstart/api';
import {
  type Binding,
  bindingPermanentId,
  bindingPermanentIdLabel,
  bindingReferenceAnnotations,
  isClusterResourceBinding,
} from './binding.js';
import {
  compareStrings,
  deepCopy,
  isRecord,
  type JsonObject,
  jsonEqual,
  sortStrings,
  stringMapOf,
} from './json.js';
import { pruneServerFields } from './manifest-prune.js';
import { OverrideApplyError, OverrideClusterUnknownError, templateOverrider } from './override-policy.js';
import { ManagedAnnotationsAnnotation, ManagedLabelsAnnotation } from './well-known.js';

export interface WorkBuildInput {
  /** The cached binding; its spec.clusters (and spec.requiredBy) say where the template goes. */
  readonly binding: Readonly<Binding>;
  /** The cached resource template the binding points at. */
  readonly template: Readonly<UnstructuredObject>;
  /**
   * The binding's Works as cached now. A Work's work.karmada.io/permanent-id (set by Karmada's webhook) is
   * stamped into its manifest, as Karmada does, so the desired manifest must know it to compare equal.
   */
  readonly existingWorks?: readonly Readonly<Work>[];
  /** Override policies to apply per cluster, as Karmada does last before stamping; none when absent. */
  readonly overrides?: WorkOverrides;
  /**
   * What Karmada's Work webhook does on create (pkg/webhook/work/mutating.go): a new Work gets a
   * work.karmada.io/permanent-id, on itself and in its manifest. Without one, new Works carry no id.
   */
  readonly newWorkId?: () => string;
}

/** The cached override policies and clusters a Work build applies (ClusterOverridePolicies first). */
export interface WorkOverrides {
  readonly clusterOverridePolicies: readonly Readonly<ClusterOverridePolicy>[];
  /** The OverridePolicies of the template's namespace (others are ignored). */
  readonly overridePolicies: readonly Readonly<OverridePolicy>[];
  /** The Cluster objects by name; a policy's targetCluster is matched against them. */
  readonly clusters: ReadonlyMap<string, Readonly<Cluster>>;
}

export type DesiredWorksResult =
  /**
   * One Work per target cluster whose overrides apply, sorted by namespace (empty when the binding has no
   * target cluster), and the clusters whose overrides do not, in the binding's cluster order. As in Karmada's
   * ensureWork (pkg/controllers/binding/common.go), a cluster that fails is skipped and the others still get
   * their Works; the binding reports the failures together afterwards.
   */
  | {
      readonly kind: 'Works';
      readonly works: readonly Work[];
      readonly failed: readonly OverrideApplyError[];
    }
  /** The inputs do not fit together (e.g. a stale template); write nothing and retry later. */
  | { readonly kind: 'Invalid'; readonly message: string };

// Kinds whose replicas the default resource interpreter revises per cluster (ReviseReplica).
const REVISABLE_KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);

/** The clusters a binding's Works go to: spec.clusters, then the clusters of the bindings that require it. */
export function workTargetClusters(binding: Readonly<Binding>): TargetCluster[] {
  const targets: TargetCluster[] = [...(binding.spec.clusters ?? [])];
  const seen = new Set(targets.map((t) => t.name));
  for (const snapshot of binding.spec.requiredBy ?? []) {
    for (const target of snapshot.clusters ?? []) {
      if (!seen.has(target.name)) {
        seen.add(target.name);
        targets.push(target);
      }
    }
  }
  return targets;
}

/** The Works the binding should have, one per target cluster. */
export function desiredWorks(input: WorkBuildInput): DesiredWorksResult {
  const { binding, template } = input;
  const problem = templateProblem(binding, template);
  if (problem !== undefined) return { kind: 'Invalid', message: problem };
  const existing = new Map(
    (input.existingWorks ?? []).map((w) => [`${w.metadata.namespace ?? ''}/${w.metadata.name ?? ''}`, w]),
  );
  const works: Work[] = [];
  const failed: OverrideApplyError[] = [];
  const name = workName(template.kind, template.metadata.name ?? '', template.metadata.namespace);
  const sources = manifestSources(binding, template, input.overrides);
  for (const target of workTargetClusters(binding)) {
    if (target.name === '') {
      return {
        kind: 'Invalid',
        message: `${describe(binding)} has a target cluster with an empty name in spec.clusters`,
      };
    }
    const namespace = executionNamespace(target.name);
    try {
      works.push(
        buildWork(
          binding,
          template,
          target,
          namespace,
          name,
          existing.get(`${namespace}/${name}`),
          sources,
          input.newWorkId,
        ),
      );
    } catch (error) {
      if (!(error instanceof OverrideApplyError)) throw error;
      failed.push(error);
    }
  }
  works.sort((a, b) => compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? ''));
  return { kind: 'Works', works, failed };
}

/**
 * What the manifests of one binding's Works start from, shared by its clusters within one desiredWorks call:
 * the template with spec.replicas revised (one object per replica count, so the clusters of a Duplicated
 * binding get the same one), then overridden for a cluster. Nothing here outlives the call.
 */
interface ManifestSources {
  revised(replicas: number | undefined): Readonly<JsonObject>;
  overridden(
    manifest: Readonly<JsonObject>,
    clusterName: string,
  ): { manifest: Readonly<JsonObject>; annotations: Readonly<Record<string, string>> };
}

function manifestSources(
  binding: Readonly<Binding>,
  template: Readonly<UnstructuredObject>,
  overrides: WorkOverrides | undefined,
): ManifestSources {
  // No deep copy of the template: what a Work changes (the top level, metadata, spec.replicas, what the prune
  // drops) is copied on the way, and the rest of each manifest shares the cached template's frozen objects.
  const source = template as Readonly<JsonObject>;
  const templateSpec = source.spec;
  // Karmada follows the schedule's replicas whatever the division (Divided or Duplicated), so a scale-up the
  // scheduler has not placed yet does not reach the members early.
  const revise =
    (binding.spec.replicas ?? 0) > 0 &&
    isRevisable(template) &&
    isRecord(templateSpec) &&
    typeof templateSpec.replicas === 'number';
  const revisions = new Map<number, Readonly<JsonObject>>();
  const override =
    overrides === undefined ||
    (overrides.clusterOverridePolicies.length === 0 && overrides.overridePolicies.length === 0)
      ? undefined
      : templateOverrider(template, overrides.clusterOverridePolicies, overrides.overridePolicies);
  return {
    revised(replicas) {
      if (!revise) return source;
      const value = replicas ?? 0;
      let revised = revisions.get(value);
      if (revised === undefined) {
        revised = { ...source, spec: { ...(templateSpec as JsonObject), replicas: value } };
        revisions.set(value, revised);
      }
      return revised;
    },
    // Karmada applies ClusterOverridePolicies and OverridePolicies after revising replicas, before the stamps.
    overridden(manifest, clusterName) {
      if (override === undefined) return { manifest, annotations: {} };
      const cluster = overrides?.clusters.get(clusterName);
      if (cluster === undefined) {
        throw new OverrideClusterUnknownError(clusterName);
      }
      const result = override(manifest as UnstructuredObject, cluster);
      return { manifest: result.object as JsonObject, annotations: result.annotations };
    },
  };
}

function buildWork(
  binding: Readonly<Binding>,
  template: Readonly<UnstructuredObject>,
  target: Readonly<TargetCluster>,
  namespace: string,
  name: string,
  existing: Readonly<Work> | undefined,
  sources: ManifestSources,
  newWorkId: (() => string) | undefined,
): Work {
  const { spec } = binding;
  const applied = sources.overridden(sources.revised(target.replicas), target.name);
  // The stamps go on copies of the top level and metadata; the overridden object may be another Work's too.
  const manifest: JsonObject = { ...applied.manifest };
  const metadata: JsonObject = isRecord(manifest.metadata) ? { ...manifest.metadata } : {};
  manifest.metadata = metadata;
  const labels = stringMapOf(metadata.labels);
  const annotations = stringMapOf(metadata.annotations);

  const idLabel = bindingPermanentIdLabel(binding);
  const id = bindingPermanentId(binding);
  labels[idLabel] = id;
  const generation = template.metadata.generation ?? 0;
  if (generation > 0) annotations[Annotations.ResourceTemplateGeneration] = String(generation);
  const reference = bindingReferenceAnnotations(binding);
  Object.assign(annotations, reference);

  const workAnnotations: Record<string, string> = {
    ...reference,
    [Annotations.WorkConflictResolution]: conflictResolution(template, binding),
    ...applied.annotations,
  };

  // ctrlutil.CreateOrUpdateWork's stamps, then its prune, then the webhook-equivalent records.
  labels[Labels.Managed] = 'true';
  annotations[Annotations.ResourceTemplateUid] = template.metadata.uid ?? '';
  annotations[Annotations.WorkName] = name;
  annotations[Annotations.WorkNamespace] = namespace;
  annotations[Annotations.WorkConflictResolution] = workAnnotations[Annotations.WorkConflictResolution]!;
  metadata.labels = labels;
  metadata.annotations = annotations;
  pruneServerFields(manifest);
  recordManagedAnnotations(annotations);
  const workId = existing === undefined ? newWorkId?.() : existing.metadata.labels?.[Labels.WorkPermanentId];
  if (workId) labels[Labels.WorkPermanentId] = workId;
  annotations[ManagedLabelsAnnotation] = sortStrings(Object.keys(labels)).join(',');

  const workSpec: WorkSpec = {
    workload: { manifests: [manifest] },
    suspendDispatching: dispatchingSuspended(binding, target.name),
    preserveResourcesOnDeletion: spec.preserveResourcesOnDeletion ?? false,
  };
  return {
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: {
      name,
      namespace,
      labels: { [idLabel]: id, ...(workId ? { [Labels.WorkPermanentId]: workId } : {}) },
      annotations: workAnnotations,
      finalizers: [Finalizers.Work],
    },
    spec: workSpec,
  };
}

// The template's own annotation wins when it is a valid value; otherwise the policy's choice, Abort by default.
function conflictResolution(template: Readonly<UnstructuredObject>, binding: Readonly<Binding>): string {
  const onTemplate = template.metadata.annotations?.[Annotations.WorkConflictResolution];
  if (
    onTemplate === ConflictResolutionAnnotationValue.Overwrite ||
    onTemplate === ConflictResolutionAnnotationValue.Abort
  ) {
    return onTemplate;
  }
  return binding.spec.conflictResolution === 'Overwrite'
    ? ConflictResolutionAnnotationValue.Overwrite
    : ConflictResolutionAnnotationValue.Abort;
}

function dispatchingSuspended(binding: Readonly<Binding>, cluster: string): boolean {
  const suspension = binding.spec.suspension;
  if (suspension?.dispatching === true) return true;
  return suspension?.dispatchingOnClusters?.clusterNames?.includes(cluster) ?? false;
}

// Karmada records every annotation key (including both record keys) so a later apply can tell which to drop.
function recordManagedAnnotations(annotations: Record<string, string>): void {
  const keys = Object.keys(annotations);
  for (const record of [ManagedAnnotationsAnnotation, ManagedLabelsAnnotation])
    if (!Object.hasOwn(annotations, record)) keys.push(record);
  annotations[ManagedAnnotationsAnnotation] = sortStrings(keys).join(',');
}

function isRevisable(template: Readonly<UnstructuredObject>): boolean {
  return template.apiVersion.split('/')[0] === 'apps' && REVISABLE_KINDS.has(template.kind);
}

function templateProblem(
  binding: Readonly<Binding>,
  template: Readonly<UnstructuredObject>,
): string | undefined {
  const ref = binding.spec.resource;
  const name = template.metadata.name;
  if (typeof name !== 'string' || name === '' || template.kind === '' || template.apiVersion === '') {
    return `the resource template of ${describe(binding)} has no apiVersion, kind or name`;
  }
  const sameNamespace = (template.metadata.namespace ?? '') === (ref.namespace ?? '');
  if (
    ref.apiVersion !== template.apiVersion ||
    ref.kind !== template.kind ||
    ref.name !== name ||
    !sameNamespace
  ) {
    return (
      `the resource template ${template.apiVersion} ${template.kind} ${template.metadata.namespace ?? ''}/${name} ` +
      `is not the one ${describe(binding)} points at (${ref.apiVersion} ${ref.kind} ${ref.namespace ?? ''}/${ref.name}); ` +
      'pass the template named by spec.resource'
    );
  }
  return undefined;
}

function describe(binding: Readonly<Binding>): string {
  return isClusterResourceBinding(binding)
    ? `ClusterResourceBinding ${binding.metadata.name ?? ''}`
    : `ResourceBinding ${binding.metadata.namespace ?? ''}/${binding.metadata.name ?? ''}`;
}

/** Whether a Work belongs to the binding: by permanent id, or by the name annotations when it has no id yet. */
export function workBelongsTo(work: Readonly<Work>, binding: Readonly<Binding>): boolean {
  const id = bindingPermanentId(binding);
  if (id !== '') return work.metadata.labels?.[bindingPermanentIdLabel(binding)] === id;
  // Without an id every Work of every id-less binding would carry the same empty label value; the name
  // annotations are the only safe way to tell them apart.
  const annotations = work.metadata.annotations ?? {};
  return Object.entries(bindingReferenceAnnotations(binding)).every(([k, v]) => annotations[k] === v);
}

/**
 * The existing Works to delete: those that belong to the binding but sit in the execution namespace of a
 * cluster the binding no longer targets (spec.clusters and spec.requiredBy). Judged from the binding alone, as
 * Karmada's removeOrphanWorks does before ensureWork: a targeted cluster whose Work cannot be built now (an
 * override that does not apply) keeps the Work it has. Works already being deleted are left out (deleting
 * again is a wasted write), and so are Works outside any execution namespace.
 */
export function orphanWorks<W extends Readonly<Work>>(
  existingWorks: readonly W[],
  binding: Readonly<Binding>,
): W[] {
  const wanted = new Set(workTargetClusters(binding).map((t) => t.name));
  return existingWorks.filter((work) => {
    const cluster = clusterNameFromExecutionNamespace(work.metadata.namespace ?? '');
    return (
      work.metadata.deletionTimestamp === undefined &&
      cluster !== undefined &&
      !wanted.has(cluster) &&
      workBelongsTo(work, binding)
    );
  });
}

/**
 * Whether `existing` must be updated to carry `desired`: a label or annotation we set differs, our finalizer
 * is missing, or the spec differs as JSON. Labels, annotations and finalizers others set are not ours to judge;
 * server-set metadata and status are ignored. A Work being deleted is never updated.
 */
export function workNeedsUpdate(existing: Readonly<Work>, desired: Readonly<Work>): boolean {
  if (existing.metadata.deletionTimestamp !== undefined) return false;
  const labels = existing.metadata.labels ?? {};
  const annotations = existing.metadata.annotations ?? {};
  const finalizers = existing.metadata.finalizers ?? [];
  return (
    Object.entries(desired.metadata.labels ?? {}).some(([k, v]) => labels[k] !== v) ||
    Object.entries(desired.metadata.annotations ?? {}).some(([k, v]) => annotations[k] !== v) ||
    (desired.metadata.finalizers ?? []).some((f) => !finalizers.includes(f)) ||
    !jsonEqual(normalizedSpec(existing.spec), normalizedSpec(desired.spec))
  );
}

/**
 * The object to send when {@link workNeedsUpdate} is true: the existing Work (its identity and
 * resourceVersion, for optimistic concurrency) with our labels and annotations merged over its own, our
 * finalizer added to its own, and our spec. Neither input is changed.
 */
export function mergeWork(existing: Readonly<Work>, desired: Readonly<Work>): Work {
  const finalizers = [...(existing.metadata.finalizers ?? [])];
  for (const f of desired.metadata.finalizers ?? []) if (!finalizers.includes(f)) finalizers.push(f);
  return {
    apiVersion: desired.apiVersion,
    kind: desired.kind,
    metadata: {
      ...existing.metadata,
      labels: { ...existing.metadata.labels, ...desired.metadata.labels },
      annotations: { ...existing.metadata.annotations, ...desired.metadata.annotations },
      finalizers,
    },
    spec: deepCopy(desired.spec),
  };
}

// The two switches are written as explicit booleans; an absent one means false. Built without `delete`, which
// would turn the copy into a slow dictionary-mode object for the comparison that follows.
function normalizedSpec(spec: Readonly<WorkSpec>): JsonObject {
  return Object.fromEntries(
    Object.entries(spec).filter(
      ([key, value]) =>
        value !== false || (key !== 'suspendDispatching' && key !== 'preserveResourcesOnDeletion'),
    ),
  );
}
