// The pure half of the dependencies distributor (Karmada's pkg/dependenciesdistributor at f8fdd02): the
// ResourceBinding a dependency gets ("attached binding"), how the bindings that need it are recorded on it
// (spec.requiredBy and a depended-by label each), which attached bindings a binding no longer needs, and the
// conflict resolution and deletion preservation an attached binding inherits. Cached objects in, the objects to
// write out; a result equal to what is stored means no write.
import {
  Annotations,
  type BindingSnapshot,
  bindingName,
  bindingReferenceKey,
  type ConflictResolution,
  Finalizers,
  Labels,
  type ResourceBinding,
  type TargetCluster,
  type UnstructuredObject,
} from '@warmstart/api';
import { compileLabelSelector } from '@warmstart/informer-cache';
import type { DependentObjectReference } from './dependencies.js';
import { deepCopy, isRecord, type JsonObject, jsonEqual } from './json.js';

/** The resourcebinding.karmada.io/dependencies annotation cannot be read. */
export class DependenciesAnnotationError extends Error {
  constructor(binding: string, problem: string) {
    super(
      `binding ${binding} has an unreadable ${Annotations.Dependencies} annotation (${problem}); remove it and the dependencies distributor writes it again`,
    );
    this.name = 'DependenciesAnnotationError';
  }
}

/** An attached binding of this name exists but is controlled by another object (Karmada issue #6034). */
export class AttachedBindingOwnerError extends Error {
  constructor(key: string) {
    super(
      `ResourceBinding ${key} is controlled by another object than the dependency it is named for; it is retried once the garbage collector has removed it (karmada-io/karmada#6034)`,
    );
    this.name = 'AttachedBindingOwnerError';
  }
}

/** A dependency names neither an object nor a label selector. */
export class EmptyDependencyError extends Error {
  constructor(binding: string) {
    super(
      `a dependency of binding ${binding} has neither a name nor a label selector; fix the interpreter's output`,
    );
    this.name = 'EmptyDependencyError';
  }
}

/** `resourcebinding.karmada.io/depended-by-<bindingReferenceKey(namespace, name)>`. */
export function dependedByLabelKey(namespace: string, name: string): string {
  return Labels.DependedByPrefix + bindingReferenceKey(namespace, name);
}

/** The label an attached binding carries for `independent`: its key, and the permanent id ('' if none) as value. */
export function dependedByLabel(independent: Readonly<ResourceBinding>): Record<string, string> {
  return {
    [dependedByLabelKey(independent.metadata.namespace ?? '', independent.metadata.name ?? '')]:
      independent.metadata.labels?.[Labels.ResourceBindingPermanentId] ?? '',
  };
}

/** Karmada's generateDependencyKey: `<kind>-<apiVersion>[-<namespace>]`. */
export function dependencyKey(kind: string, apiVersion: string, namespace: string | undefined): string {
  return namespace ? `${kind}-${apiVersion}-${namespace}` : `${kind}-${apiVersion}`;
}

function snapshotOf(independent: Readonly<ResourceBinding>): BindingSnapshot {
  const clusters = independent.spec.clusters ?? [];
  return {
    namespace: independent.metadata.namespace ?? '',
    name: independent.metadata.name ?? '',
    ...(clusters.length > 0 ? { clusters: deepCopy(clusters) as TargetCluster[] } : {}),
  };
}

/**
 * The attached binding Karmada builds for `object` on behalf of `independent` (buildAttachedBinding): named
 * `<name>-<kind>` in the independent binding's namespace, controlled by the object, with the binding
 * controller's finalizer, the depended-by label and one requiredBy entry.
 */
export function buildAttachedBinding(
  independent: Readonly<ResourceBinding>,
  object: Readonly<UnstructuredObject>,
): ResourceBinding {
  const { namespace, name, uid, resourceVersion } = object.metadata;
  const { preserveResourcesOnDeletion, conflictResolution } = independent.spec;
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: {
      name: bindingName(object.kind, name ?? ''),
      namespace: independent.metadata.namespace ?? '',
      ownerReferences: [
        {
          apiVersion: object.apiVersion,
          kind: object.kind,
          name: name ?? '',
          uid: uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      labels: dependedByLabel(independent),
      finalizers: [Finalizers.ResourceBinding],
    },
    spec: {
      resource: {
        apiVersion: object.apiVersion,
        kind: object.kind,
        ...(namespace ? { namespace } : {}),
        name: name ?? '',
        ...(uid ? { uid } : {}),
        ...(resourceVersion ? { resourceVersion } : {}),
      },
      requiredBy: [snapshotOf(independent)],
      ...(preserveResourcesOnDeletion === undefined ? {} : { preserveResourcesOnDeletion }),
      ...(conflictResolution ? { conflictResolution } : {}),
    },
  };
}

/**
 * Karmada's mergeBindingSnapshot: each new entry replaces the clusters of the existing entries with its
 * namespace and name, or is appended. The existing order is kept.
 */
export function mergeBindingSnapshot(
  existing: readonly BindingSnapshot[] | undefined,
  added: readonly BindingSnapshot[],
): BindingSnapshot[] {
  if (!existing || existing.length === 0) return [...added];
  const out: BindingSnapshot[] = [...existing];
  for (const entry of added) {
    let found = false;
    for (let i = 0; i < out.length; i++) {
      const current = out[i] as BindingSnapshot;
      if ((current.namespace ?? '') === (entry.namespace ?? '') && current.name === entry.name) {
        const { clusters: _old, ...rest } = current;
        out[i] = entry.clusters === undefined ? rest : { ...rest, clusters: entry.clusters };
        found = true;
      }
    }
    if (!found) out.push(entry);
  }
  return out;
}

/** Karmada's deleteBindingFromSnapshot: every entry of that namespace and name removed. */
export function deleteBindingFromSnapshot(
  namespace: string,
  name: string,
  existing: readonly BindingSnapshot[] | undefined,
): BindingSnapshot[] {
  return (existing ?? []).filter((s) => !((s.namespace ?? '') === namespace && s.name === name));
}

/** Any Overwrite wins; empty counts as Abort. Conflicted when both are present (detectAndResolveConflictResolution). */
export function resolveConflictResolution(referencing: readonly Readonly<ResourceBinding>[]): {
  readonly conflicted: boolean;
  readonly effective: ConflictResolution;
} {
  const values = new Set(referencing.map((b) => b.spec.conflictResolution || 'Abort'));
  return {
    conflicted: values.has('Overwrite') && values.has('Abort'),
    effective: values.has('Overwrite') ? 'Overwrite' : 'Abort',
  };
}

/** Any true wins; absent counts as false. Conflicted when both are present (detectAndResolvePreserveOnDeletion). */
export function resolvePreserveOnDeletion(referencing: readonly Readonly<ResourceBinding>[]): {
  readonly conflicted: boolean;
  readonly effective: boolean;
} {
  const values = new Set(referencing.map((b) => b.spec.preserveResourcesOnDeletion === true));
  return { conflicted: values.has(true) && values.has(false), effective: values.has(true) };
}

/** The message of Karmada's DependencyPolicyConflict Warning, or undefined without a conflict. */
export function policyConflictMessage(
  conflictResolution: boolean,
  preserveOnDeletion: boolean,
): string | undefined {
  const reasons: string[] = [];
  if (conflictResolution) reasons.push('ConflictResolution conflicted (Overwrite vs Abort)');
  if (preserveOnDeletion) reasons.push('PreserveResourcesOnDeletion conflicted (true vs false)');
  return reasons.length === 0 ? undefined : `Dependency policy conflict detected: ${reasons.join('; ')}.`;
}

/** The annotation value for `dependencies`: JSON with Go's field order (apiVersion, kind, namespace, name, labelSelector). */
export function dependenciesAnnotationValue(dependencies: readonly DependentObjectReference[]): string {
  // Karmada marshals a nil slice, which is what its interpreters return when there is nothing: "null".
  if (dependencies.length === 0) return 'null';
  return JSON.stringify(
    dependencies.map((d) => ({
      apiVersion: d.apiVersion,
      kind: d.kind,
      ...(d.namespace ? { namespace: d.namespace } : {}),
      ...(d.name ? { name: d.name } : {}),
      ...(d.labelSelector === undefined ? {} : { labelSelector: goLabelSelector(d.labelSelector) }),
    })),
  );
}

function goLabelSelector(selector: NonNullable<DependentObjectReference['labelSelector']>): JsonObject {
  return {
    ...(selector.matchLabels && Object.keys(selector.matchLabels).length > 0
      ? { matchLabels: selector.matchLabels }
      : {}),
    ...(selector.matchExpressions && selector.matchExpressions.length > 0
      ? {
          matchExpressions: selector.matchExpressions.map((e) => ({
            key: e.key,
            operator: e.operator,
            ...(e.values && e.values.length > 0 ? { values: e.values } : {}),
          })),
        }
      : {}),
  };
}

/** The dependencies recorded on a binding; [] without the annotation. Throws DependenciesAnnotationError. */
export function recordedDependencies(binding: Readonly<ResourceBinding>): DependentObjectReference[] {
  const raw = binding.metadata.annotations?.[Annotations.Dependencies];
  if (raw === undefined) return [];
  const where = `${binding.metadata.namespace ?? ''}/${binding.metadata.name ?? ''}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new DependenciesAnnotationError(where, error instanceof Error ? error.message : String(error));
  }
  if (parsed === null) return [];
  if (!Array.isArray(parsed)) throw new DependenciesAnnotationError(where, 'not a JSON list');
  return parsed.map((d: unknown, i) => {
    if (!isDependentObjectReference(d)) {
      throw new DependenciesAnnotationError(where, `entry ${i} has no apiVersion and kind`);
    }
    return d;
  });
}

// An entry is taken as a reference once it names apiVersion and kind; its other fields are kept as Karmada
// wrote them (not rebuilt), so comparing recorded and desired dependencies sees exactly what is stored.
function isDependentObjectReference(d: unknown): d is DependentObjectReference {
  return isRecord(d) && typeof d.apiVersion === 'string' && typeof d.kind === 'string';
}

/**
 * Whether the annotation already records these dependencies. Compared as a set, not as text: Karmada lists the
 * names of one kind in a Go map's order, so its annotation and ours may differ only in order.
 */
export function dependenciesRecorded(
  binding: Readonly<ResourceBinding>,
  dependencies: readonly DependentObjectReference[],
): boolean {
  if (binding.metadata.annotations?.[Annotations.Dependencies] === undefined) return false;
  let recorded: DependentObjectReference[];
  try {
    recorded = recordedDependencies(binding);
  } catch {
    return false;
  }
  const canonical = (list: readonly DependentObjectReference[]): string[] =>
    list.map((d) => dependenciesAnnotationValue([d])).sort();
  return jsonEqual(canonical(recorded), canonical(dependencies));
}

/** An object as the distributor matches it: its kind, place and labels (Karmada's LabelsKey). */
export interface DependencyCandidate {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string | undefined;
  readonly name?: string | undefined;
  readonly labels?: Readonly<Record<string, string>> | undefined;
}

/**
 * Karmada's matchesWithBindingDependencies: whether `object` is one of the binding's recorded dependencies, by
 * name or by label selector. Throws DependenciesAnnotationError for an unreadable annotation, and the selector's
 * error when no dependency matched and one of the selectors is invalid.
 */
export function matchesBindingDependencies(
  object: DependencyCandidate,
  binding: Readonly<ResourceBinding>,
): boolean {
  const dependencies = recordedDependencies(binding);
  const errors: Error[] = [];
  for (const d of dependencies) {
    if (d.apiVersion !== object.apiVersion || d.kind !== object.kind) continue;
    if ((d.namespace ?? '') !== (object.namespace ?? '')) continue;
    if (d.name) {
      if (d.name === object.name) return true;
      continue;
    }
    try {
      if (compileLabelSelector(d.labelSelector).matches(object.labels ?? {})) return true;
    } catch (error) {
      errors.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
  if (errors.length > 0) throw errors[0];
  return false;
}

/**
 * Karmada's findOrphanAttachedBindings: the attached bindings none of `dependencies` names or selects.
 * `labelsOf` gives the labels of an attached binding's resource from the cache (undefined when it is gone),
 * needed only for label-selector dependencies.
 */
export function orphanAttachedBindings(
  attached: readonly Readonly<ResourceBinding>[],
  dependencies: readonly DependentObjectReference[],
  labelsOf: (binding: Readonly<ResourceBinding>) => Readonly<Record<string, string>> | undefined,
): Readonly<ResourceBinding>[] {
  const byKey = new Map<string, DependentObjectReference[]>();
  for (const d of dependencies) {
    const key = dependencyKey(d.kind, d.apiVersion, d.namespace);
    byKey.set(key, [...(byKey.get(key) ?? []), d]);
  }
  return attached.filter((binding) => {
    const r = binding.spec.resource;
    const candidates = byKey.get(dependencyKey(r.kind, r.apiVersion, r.namespace));
    if (!candidates) return true;
    for (const d of candidates) {
      if (d.name) {
        if (d.name === r.name) return false;
      } else if (d.labelSelector !== undefined) {
        const selector = compileLabelSelector(d.labelSelector);
        const labels = labelsOf(binding);
        if (labels !== undefined && selector.matches(labels)) return false;
      }
    }
    return true;
  });
}

/**
 * The stored attached binding after Karmada's CreateOrUpdate mutation for `desired` (from buildAttachedBinding):
 * requiredBy merged, labels merged (desired wins), spec.resource replaced, and for a binding the distributor
 * owns (no placement) the effective conflict resolution and preservation of the bindings that require it.
 * `existing` undefined: the object to create. Throws AttachedBindingOwnerError.
 */
export function mergedAttachedBinding(
  existing: Readonly<ResourceBinding> | undefined,
  desired: Readonly<ResourceBinding>,
  referencing: (requiredBy: readonly BindingSnapshot[]) => readonly Readonly<ResourceBinding>[],
): { readonly binding: ResourceBinding; readonly conflict: string | undefined } {
  const base: ResourceBinding = deepCopy(existing ?? desired);
  const owner = base.metadata.ownerReferences?.find((o) => o.controller === true);
  const wanted = desired.metadata.ownerReferences?.[0];
  if (existing && owner && wanted && owner.uid !== wanted.uid) {
    throw new AttachedBindingOwnerError(`${desired.metadata.namespace ?? ''}/${desired.metadata.name ?? ''}`);
  }
  const requiredBy = mergeBindingSnapshot(base.spec.requiredBy, desired.spec.requiredBy ?? []);
  let spec: ResourceBinding['spec'] = { ...base.spec, requiredBy, resource: desired.spec.resource };
  let conflict: string | undefined;
  if (base.spec.placement === undefined) {
    const rbs = referencing(requiredBy);
    const cr = resolveConflictResolution(rbs);
    const preserve = resolvePreserveOnDeletion(rbs);
    conflict = policyConflictMessage(cr.conflicted, preserve.conflicted);
    spec = { ...spec, conflictResolution: cr.effective, preserveResourcesOnDeletion: preserve.effective };
  }
  return {
    binding: {
      ...base,
      metadata: { ...base.metadata, labels: { ...base.metadata.labels, ...desired.metadata.labels } },
      spec,
    },
    conflict,
  };
}

/**
 * The attached binding once `independent` (namespace/name) no longer requires it
 * (removeScheduleResultFromAttachedBindings): its label and requiredBy entry gone; for a binding the distributor
 * owns, conflict resolution and preservation cleared when nothing requires it any more, else recomputed.
 */
export function releasedAttachedBinding(
  attached: Readonly<ResourceBinding>,
  namespace: string,
  name: string,
  referencing: (requiredBy: readonly BindingSnapshot[]) => readonly Readonly<ResourceBinding>[],
): ResourceBinding {
  const copy: ResourceBinding = deepCopy(attached);
  const labels = { ...copy.metadata.labels };
  delete labels[dependedByLabelKey(namespace, name)];
  const requiredBy = deleteBindingFromSnapshot(namespace, name, copy.spec.requiredBy);
  const { conflictResolution, preserveResourcesOnDeletion, requiredBy: _old, ...rest } = copy.spec;
  // An empty requiredBy is left out, as Go's omitempty leaves it out of Karmada's update.
  const remaining = requiredBy.length > 0 ? { requiredBy } : {};
  let spec: ResourceBinding['spec'];
  if (copy.spec.placement !== undefined) {
    spec = {
      ...rest,
      ...remaining,
      ...(conflictResolution ? { conflictResolution } : {}),
      ...(preserveResourcesOnDeletion === undefined ? {} : { preserveResourcesOnDeletion }),
    };
  } else if (requiredBy.length === 0) {
    spec = rest;
  } else {
    const rbs = referencing(requiredBy);
    spec = {
      ...rest,
      ...remaining,
      conflictResolution: resolveConflictResolution(rbs).effective,
      preserveResourcesOnDeletion: resolvePreserveOnDeletion(rbs).effective,
    };
  }
  return { ...copy, metadata: { ...copy.metadata, labels }, spec };
}

/**
 * The merge patch that writes `next` over the cached `current`, or undefined when nothing changes: changed labels
 * (null for a removed one) and changed top-level spec fields whole (null for a removed one). Conditional on the
 * cached resourceVersion, as Karmada's Update is: two bindings adding themselves to one requiredBy list at once
 * must not lose an entry (a merge patch replaces the list whole).
 */
export function attachedBindingPatch(
  current: Readonly<ResourceBinding>,
  next: Readonly<ResourceBinding>,
): JsonObject | undefined {
  if (!attachedBindingChanged(current, next)) return undefined;
  const labels: Record<string, string | null> = {};
  const have = current.metadata.labels ?? {};
  const want = next.metadata.labels ?? {};
  for (const key of Object.keys(have)) if (!Object.hasOwn(want, key)) labels[key] = null;
  for (const [key, value] of Object.entries(want)) if (have[key] !== value) labels[key] = value;
  const spec: JsonObject = {};
  const from: Readonly<Record<string, unknown>> = { ...current.spec };
  const to: Readonly<Record<string, unknown>> = { ...next.spec };
  for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
    if (!jsonEqual(from[key], to[key])) spec[key] = to[key] === undefined ? null : deepCopy(to[key]);
  }
  return {
    metadata: {
      resourceVersion: current.metadata.resourceVersion,
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
    },
    ...(Object.keys(spec).length > 0 ? { spec } : {}),
  };
}

/** Whether writing `next` over the cached `current` would change it. */
export function attachedBindingChanged(
  current: Readonly<ResourceBinding>,
  next: Readonly<ResourceBinding>,
): boolean {
  return (
    !jsonEqual(current.metadata.labels ?? {}, next.metadata.labels ?? {}) ||
    !jsonEqual(current.spec, next.spec)
  );
}
