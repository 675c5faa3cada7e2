// The dependencies distributor (Karmada's dependencies-distributor at f8fdd02): a ResourceBinding with
// spec.propagateDeps gets its template's dependencies (ConfigMaps, Secrets, ServiceAccounts, PVCs, ...) recorded
// in an annotation and bound by "attached" ResourceBindings whose spec.requiredBy lists its clusters, so the
// binding controller sends them to the same members. A dependency no longer referenced is released from its
// attached binding. Every read is from a cache; every write happens only when the value changes.
import {
  Annotations,
  BuiltinResources,
  Finalizers,
  KarmadaResources,
  Labels,
  type ResourceBinding,
  type UnstructuredObject,
} from '@warmstart/api';
import {
  deletedObject,
  type GroupVersionResource,
  jsonEqual,
  type KubeObject,
  type ResourceEventHandler,
} from '@warmstart/informer-cache';
import { Controller } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import { type EventSubject, eventSink } from '../events.js';
import {
  attachedBindingPatch,
  buildAttachedBinding,
  dependedByLabelKey,
  dependenciesAnnotationValue,
  dependenciesRecorded,
  EmptyDependencyError,
  matchesBindingDependencies,
  mergedAttachedBinding,
  orphanAttachedBindings,
  recordedDependencies,
  releasedAttachedBinding,
} from './attached-binding.js';
import { cachedResource } from './cached-resource.js';
import { type DependentObjectReference, dependenciesOf, interpretsDependencies } from './dependencies.js';
import { isReportedFailure } from './reported-failure.js';

export const DEPENDENCIES_DISTRIBUTOR = 'dependencies-distributor';
/** Index of ResourceBindings by the dependencies their annotation records: `<apiVersion>/<kind>/<ns>/<name>`. */
export const BINDINGS_BY_DEPENDENCY = 'dependency';

/** Karmada's event reasons (pkg/events). */
export const DependencyEvents = {
  GetDependenciesSucceed: 'GetDependenciesSucceed',
  GetDependenciesFailed: 'GetDependenciesFailed',
  SyncSucceed: 'SyncScheduleResultToDependenciesSucceed',
  SyncFailed: 'SyncScheduleResultToDependenciesFailed',
  PolicyConflict: 'DependencyPolicyConflict',
} as const;

/** A dependency of a kind the manager has no informer for: it cannot be read without a direct read. */
export class DependencyNotCachedError extends Error {
  constructor(apiVersion: string, kind: string) {
    super(
      `no informer caches ${apiVersion} ${kind}, a dependency kind: the detector registers one per propagatable resource; is it served and not in --skipped-propagating-apis?`,
    );
    this.name = 'DependencyNotCachedError';
  }
}

type Binding = ResourceBinding & KubeObject;

// The kinds Karmada's pod-template interpreters name; their informers are registered up front and watched.
const WATCHED_DEPENDENCY_KINDS: readonly GroupVersionResource[] = [
  BuiltinResources.ConfigMap,
  BuiltinResources.Secret,
  BuiltinResources.ServiceAccount,
  BuiltinResources.PersistentVolumeClaim,
];

const keyOf = (namespace: string, name: string): string => `${namespace}/${name}`;

function hasFinalizer(b: Readonly<Binding>): boolean {
  return b.metadata.finalizers?.includes(Finalizers.BindingDependenciesDistributor) === true;
}

/** An independent binding this controller looks after: propagateDeps on, or its finalizer still to remove. */
function isIndependent(b: Readonly<Binding>): boolean {
  return b.spec.propagateDeps === true || hasFinalizer(b);
}

/** The index values of a binding's recorded dependencies; a selector dependency indexes under an empty name. */
export function bindingDependencyIndex(b: Readonly<Binding>): string[] {
  if (b.metadata.annotations?.[Annotations.Dependencies] === undefined) return [];
  try {
    return recordedDependencies(b).map(
      (d) =>
        `${d.apiVersion}/${d.kind}/${d.namespace ?? ''}/${d.labelSelector === undefined ? (d.name ?? '') : ''}`,
    );
  } catch {
    return [];
  }
}

export function dependenciesDistributorController(ctx: ManagerContext): Controller {
  const writer = ctx.manager.writer(DEPENDENCIES_DISTRIBUTOR);
  const emit = eventSink(writer, DEPENDENCIES_DISTRIBUTOR, ctx.log);
  const controller: Controller = new Controller(ctx.manager, {
    name: DEPENDENCIES_DISTRIBUTOR,
    concurrency: ctx.options.concurrentResourceBindingSyncs,
    reconcile: (key, { signal }) => reconcile(key, signal),
  });
  const { reader } = controller;
  const bindingLister = () => ctx.host.lister(KarmadaResources.ResourceBinding);

  // The independent binding itself; an attached binding deleted behind our back requeues the bindings that
  // require it, so it is made again.
  controller.for(KarmadaResources.ResourceBinding, {
    map: (b) => {
      const keys = isIndependent(b) ? [keyOf(b.metadata.namespace ?? '', b.metadata.name ?? '')] : [];
      for (const s of b.spec.requiredBy ?? []) keys.push(keyOf(s.namespace ?? '', s.name));
      return keys;
    },
    indexers: { [BINDINGS_BY_DEPENDENCY]: bindingDependencyIndex },
    predicates: {
      // Karmada's create filter: with propagateDeps, once scheduled. A binding whose finalizer is still there
      // after propagateDeps was turned off while no manager ran needs its attached bindings released.
      create: (b) => hasFinalizer(b) || (b.spec.propagateDeps === true && (b.spec.clusters ?? []).length > 0),
      update: (o, n) =>
        (isIndependent(o) || isIndependent(n)) &&
        (o.metadata.generation !== n.metadata.generation ||
          o.metadata.deletionTimestamp !== n.metadata.deletionTimestamp ||
          o.metadata.labels?.[Labels.ResourceBindingPermanentId] !==
            n.metadata.labels?.[Labels.ResourceBindingPermanentId]),
      delete: (b) => isIndependent(b) || (b.spec.requiredBy ?? []).length > 0,
    },
  });
  for (const gvr of WATCHED_DEPENDENCY_KINDS) controller.watchesRaw(gvr, dependencyHandler(gvr));

  // A dependency that appears, changes or goes requeues the bindings that record it. Its initial list needs no
  // requeue: every independent binding is reconciled at start. A label change matters to selector dependencies
  // under the old labels and the new.
  function dependencyHandler(gvr: GroupVersionResource): ResourceEventHandler {
    const requeue = (o: Readonly<KubeObject>): void => {
      for (const key of bindingsDependingOn(gvr, o)) controller.enqueue(key);
    };
    return {
      onAdd: (o, initial) => {
        if (!initial) requeue(o);
      },
      onUpdate: (o, n) => {
        requeue(n);
        if (!jsonEqual(o.metadata.labels ?? {}, n.metadata.labels ?? {})) requeue(o);
      },
      onDelete: (d) => requeue(deletedObject(d)),
    };
  }

  function bindingsDependingOn(gvr: GroupVersionResource, o: Readonly<KubeObject>): Set<string> {
    const apiVersion = gvr.group === '' ? gvr.version : `${gvr.group}/${gvr.version}`;
    const namespace = o.metadata.namespace ?? '';
    const keys = new Set<string>();
    const prefix = `${apiVersion}/${gvr.kind}/${namespace}/`;
    const lister = bindingLister();
    for (const b of [
      ...lister.byIndex(BINDINGS_BY_DEPENDENCY, prefix + (o.metadata.name ?? '')),
      ...lister.byIndex(BINDINGS_BY_DEPENDENCY, prefix),
    ]) {
      if (b.metadata.deletionTimestamp) continue;
      try {
        const candidate = {
          apiVersion,
          kind: gvr.kind ?? '',
          namespace,
          name: o.metadata.name,
          labels: o.metadata.labels,
        };
        if (matchesBindingDependencies(candidate, b)) keys.add(keyOf(namespace, b.metadata.name ?? ''));
      } catch (error) {
        ctx.log.warn(
          { binding: keyOf(namespace, b.metadata.name ?? ''), err: String(error) },
          'unreadable dependencies',
        );
      }
    }
    return keys;
  }

  async function reconcile(key: string, signal: AbortSignal): Promise<void> {
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const binding = await reader.get(KarmadaResources.ResourceBinding, { namespace, name }, { signal });
    // Gone (its finalizer removed by someone else) or no longer propagating its dependencies: release them all.
    if (binding?.spec.propagateDeps !== true || binding.metadata.deletionTimestamp) {
      const id = binding?.metadata.labels?.[Labels.ResourceBindingPermanentId] ?? '';
      const attached = await attachedBindingsOf(namespace, name, binding ? id : undefined, signal);
      await release(attached, namespace, name, signal);
      if (binding) await removeFinalizer(binding, signal);
      return;
    }
    const r = binding.spec.resource;
    if (!interpretsDependencies(r.apiVersion, r.kind)) return;
    const template = await reader.get(
      resourceOf(r.apiVersion, r.kind),
      { namespace: r.namespace, name: r.name },
      { signal },
    );
    if (!template) return; // the garbage collector removes the binding with its template
    let dependencies: DependentObjectReference[];
    try {
      dependencies = dependenciesOf(template);
    } catch (error) {
      emit(template, 'Warning', DependencyEvents.GetDependenciesFailed, String((error as Error).message));
      throw error;
    }
    try {
      const wrote = await sync(binding, dependencies, signal);
      if (wrote) {
        emit(
          template,
          'Normal',
          DependencyEvents.GetDependenciesSucceed,
          `Get dependencies(${dependenciesAnnotationValue(dependencies)}) succeed.`,
        );
        emit(
          bindingSubject(binding),
          'Normal',
          DependencyEvents.SyncSucceed,
          'Sync schedule results to dependencies succeed.',
        );
      }
    } catch (error) {
      if (isReportedFailure(error, signal)) {
        emit(
          bindingSubject(binding),
          'Warning',
          DependencyEvents.SyncFailed,
          String((error as Error).message),
        );
      }
      throw error;
    }
  }

  /** Karmada's addFinalizer + syncScheduleResultToAttachedBindings; true when anything was written. */
  async function sync(
    binding: Readonly<Binding>,
    dependencies: readonly DependentObjectReference[],
    signal: AbortSignal,
  ): Promise<boolean> {
    let wrote = false;
    const namespace = binding.metadata.namespace ?? '';
    const name = binding.metadata.name ?? '';
    const ref = { namespace, name };
    const annotate = !dependenciesRecorded(binding, dependencies);
    if (!hasFinalizer(binding) || annotate) {
      await writer.patch(
        KarmadaResources.ResourceBinding,
        ref,
        {
          type: 'merge',
          patch: {
            metadata: {
              resourceVersion: binding.metadata.resourceVersion,
              ...(hasFinalizer(binding)
                ? {}
                : {
                    finalizers: [
                      ...(binding.metadata.finalizers ?? []),
                      Finalizers.BindingDependenciesDistributor,
                    ],
                  }),
              ...(annotate
                ? { annotations: { [Annotations.Dependencies]: dependenciesAnnotationValue(dependencies) } }
                : {}),
            },
          },
        },
        { signal },
      );
      wrote = true;
    }

    const id = binding.metadata.labels?.[Labels.ResourceBindingPermanentId] ?? '';
    const attached = await attachedBindingsOf(namespace, name, id, signal);
    const labels = new Map<string, Readonly<Record<string, string>> | undefined>();
    for (const a of attached) {
      const r = a.spec.resource;
      if (
        dependencies.some(
          (d) => d.labelSelector !== undefined && d.kind === r.kind && d.apiVersion === r.apiVersion,
        )
      ) {
        const object = await reader.get(
          resourceOf(r.apiVersion, r.kind),
          { namespace: r.namespace, name: r.name },
          { signal },
        );
        labels.set(
          `${r.kind}/${r.namespace ?? ''}/${r.name}`,
          object?.metadata.labels ?? (object ? {} : undefined),
        );
      }
    }
    const orphans = orphanAttachedBindings(attached, dependencies, (a) => {
      const r = a.spec.resource;
      return labels.get(`${r.kind}/${r.namespace ?? ''}/${r.name}`);
    });
    if (await release(orphans, namespace, name, signal)) wrote = true;

    for (const d of dependencies) {
      if (!d.name && d.labelSelector === undefined) throw new EmptyDependencyError(keyOf(namespace, name));
      const gvr = resourceOf(d.apiVersion, d.kind);
      const objects = d.name
        ? [await reader.get(gvr, { namespace: d.namespace, name: d.name }, { signal })]
        : await reader.list(gvr, {
            ...(d.namespace ? { namespace: d.namespace } : {}),
            labelSelector: d.labelSelector,
            signal,
          });
      for (const object of objects) {
        if (object && (await ensureAttached(binding, object, signal))) wrote = true;
      }
    }
    return wrote;
  }

  async function ensureAttached(
    independent: Readonly<Binding>,
    object: Readonly<UnstructuredObject & KubeObject>,
    signal: AbortSignal,
  ): Promise<boolean> {
    const desired = buildAttachedBinding(independent, object);
    const ref = { namespace: desired.metadata.namespace ?? '', name: desired.metadata.name ?? '' };
    const existing = await reader.get(KarmadaResources.ResourceBinding, ref, { signal });
    const referencing = await referencingBindings(
      [...(existing?.spec.requiredBy ?? []), ...(desired.spec.requiredBy ?? [])],
      signal,
    );
    const { binding: next, conflict } = mergedAttachedBinding(existing, desired, (requiredBy) =>
      requiredBy.flatMap((s) => referencing.get(keyOf(s.namespace ?? '', s.name)) ?? []),
    );
    // Karmada reports a conflict on every reconcile; here only with a write, so a restart stays silent.
    const report = (): void => {
      if (conflict) emit(bindingSubject(next), 'Warning', DependencyEvents.PolicyConflict, conflict);
    };
    if (!existing) {
      await writer.create(KarmadaResources.ResourceBinding, next, { signal });
      report();
      return true;
    }
    const wrote = await patchAttached(existing, next, signal);
    if (wrote) report();
    return wrote;
  }

  /** Releases `attached` from namespace/name; true when anything was written. */
  async function release(
    attached: readonly Readonly<ResourceBinding>[],
    namespace: string,
    name: string,
    signal: AbortSignal,
  ): Promise<boolean> {
    let wrote = false;
    for (const a of attached) {
      const referencing = await referencingBindings(a.spec.requiredBy ?? [], signal);
      const next = releasedAttachedBinding(a, namespace, name, (requiredBy) =>
        requiredBy.flatMap((s) => referencing.get(keyOf(s.namespace ?? '', s.name)) ?? []),
      );
      if (await patchAttached(a, next, signal)) wrote = true;
    }
    return wrote;
  }

  /** Writes `next` over the cached `current` when they differ; true when it wrote. */
  async function patchAttached(
    current: Readonly<ResourceBinding>,
    next: Readonly<ResourceBinding>,
    signal: AbortSignal,
  ): Promise<boolean> {
    const patch = attachedBindingPatch(current, next);
    if (patch === undefined) return false;
    await writer.patch(
      KarmadaResources.ResourceBinding,
      { namespace: current.metadata.namespace, name: current.metadata.name ?? '' },
      { type: 'merge', patch },
      { signal },
    );
    return true;
  }

  /**
   * The attached bindings that carry namespace/name's depended-by label; with its permanent id when the binding
   * is known (Karmada's listAttachedBindings), any value when it is gone.
   */
  async function attachedBindingsOf(
    namespace: string,
    name: string,
    id: string | undefined,
    signal: AbortSignal,
  ): Promise<Binding[]> {
    const label = dependedByLabelKey(namespace, name);
    return reader.list(KarmadaResources.ResourceBinding, {
      namespace,
      labelSelector:
        id === undefined
          ? { matchExpressions: [{ key: label, operator: 'Exists' }] }
          : { matchLabels: { [label]: id } },
      signal,
    });
  }

  /**
   * The bindings named by requiredBy entries, from the cache (Karmada GETs each). One that is gone is left out:
   * it no longer has a say in the attached binding's conflict resolution or preservation.
   */
  async function referencingBindings(
    requiredBy: readonly { readonly namespace?: string; readonly name: string }[],
    signal: AbortSignal,
  ): Promise<Map<string, Binding>> {
    const out = new Map<string, Binding>();
    for (const s of requiredBy) {
      const key = keyOf(s.namespace ?? '', s.name);
      if (out.has(key)) continue;
      const b = await reader.get(
        KarmadaResources.ResourceBinding,
        { namespace: s.namespace, name: s.name },
        { signal },
      );
      if (b) out.set(key, b);
    }
    return out;
  }

  async function removeFinalizer(binding: Readonly<Binding>, signal: AbortSignal): Promise<void> {
    if (!hasFinalizer(binding)) return;
    await writer.patch(
      KarmadaResources.ResourceBinding,
      { namespace: binding.metadata.namespace, name: binding.metadata.name ?? '' },
      {
        type: 'merge',
        patch: {
          metadata: {
            resourceVersion: binding.metadata.resourceVersion,
            finalizers: (binding.metadata.finalizers ?? []).filter(
              (f) => f !== Finalizers.BindingDependenciesDistributor,
            ),
          },
        },
      },
      { signal },
    );
  }

  function resourceOf(apiVersion: string, kind: string): GroupVersionResource {
    const gvr = cachedResource(ctx.host, apiVersion, kind);
    if (!gvr) throw new DependencyNotCachedError(apiVersion, kind);
    return gvr;
  }

  return controller;
}

function bindingSubject(b: Readonly<ResourceBinding>): EventSubject {
  return { ...b, apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding' };
}
