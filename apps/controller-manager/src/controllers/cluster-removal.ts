// What removing a Cluster takes, in Karmada's order (pkg/controllers/cluster): delete its execution namespace
// karmada-es-<cluster> (the namespace controller then deletes its Works, whose finalizer the execution
// controller drops after deleting their objects on a reachable member), wait until the namespace is gone and
// no binding targets the cluster any more (the scheduler moves them), then drop the karmada.io/cluster-controller
// finalizer. Each wait is bounded: past the removal deadline the step is reported, and the wait goes on.
import { type Cluster, Finalizers } from '@warmstart/api';

/** What the cluster controller sees of a Cluster being removed, all from its caches. */
export interface ClusterRemovalState {
  readonly cluster: Readonly<Cluster>;
  /** The execution namespace as cached; undefined once it is gone. */
  readonly namespace: { readonly deleting: boolean } | undefined;
  /** Works still in the execution namespace. */
  readonly works: number;
  /** Bindings (`rb:ns/name` / `crb:name`) whose spec.clusters still name this cluster. */
  readonly bindings: readonly string[];
  /** Now, in ms since the epoch. */
  readonly now: number;
  /** How long removal may take before a step counts as stuck and is reported. */
  readonly timeoutMs: number;
}

export type ClusterRemovalStep =
  | { readonly kind: 'delete-namespace'; readonly namespace: string }
  | { readonly kind: 'wait'; readonly for: 'namespace' | 'bindings'; readonly stuck: string | undefined }
  /** Everything is gone: drop our finalizer (undefined when it is already gone: nothing to write). */
  | { readonly kind: 'remove-finalizer'; readonly finalizers: readonly string[] | undefined };

export function planClusterRemoval(s: ClusterRemovalState): ClusterRemovalStep {
  const name = s.cluster.metadata.name;
  const namespace = `karmada-es-${name}`;
  const started = Date.parse(s.cluster.metadata.deletionTimestamp ?? '');
  const overdue = Number.isFinite(started) && s.now - started > s.timeoutMs;
  const waited = Number.isFinite(started) ? Math.round((s.now - started) / 1000) : 0;
  if (s.namespace !== undefined) {
    if (!s.namespace.deleting) return { kind: 'delete-namespace', namespace };
    return {
      kind: 'wait',
      for: 'namespace',
      stuck: overdue
        ? `cluster ${name} has been removed for ${waited}s, and namespace ${namespace} still holds ${s.works} Work(s); ` +
          "a Work stays while its objects cannot be deleted from a member that is Ready: check the Works' Applied condition and the manager log, or remove the karmada.io/execution-controller finalizer from them to leave their objects on the member"
        : undefined,
    };
  }
  if (s.bindings.length > 0) {
    const shown = s.bindings.slice(0, 5).join(', ') + (s.bindings.length > 5 ? ', ...' : '');
    return {
      kind: 'wait',
      for: 'bindings',
      stuck: overdue
        ? `cluster ${name} has been removed for ${waited}s, and ${s.bindings.length} binding(s) still target it (${shown}); the scheduler moves them when another cluster fits: check their Scheduled condition`
        : undefined,
    };
  }
  const finalizers = s.cluster.metadata.finalizers ?? [];
  return {
    kind: 'remove-finalizer',
    finalizers: finalizers.includes(Finalizers.Cluster)
      ? finalizers.filter((f) => f !== Finalizers.Cluster)
      : undefined,
  };
}

/** Whether a binding's spec.clusters names the cluster. */
export function bindingTargets(
  binding: { readonly spec?: { readonly clusters?: readonly { readonly name: string }[] | undefined } },
  cluster: string,
): boolean {
  return binding.spec?.clusters?.some((c) => c.name === cluster) ?? false;
}

/**
 * Whether a binding targets a cluster that is being removed: Karmada's scheduler schedules such a binding again
 * whatever its other triggers say (HasTerminatingTargetClusters), so the removal is not left waiting on it.
 */
export function targetsTerminatingCluster(
  binding: { readonly spec?: { readonly clusters?: readonly { readonly name: string }[] | undefined } },
  clusters: readonly { readonly metadata: { readonly name?: string; readonly deletionTimestamp?: string } }[],
): boolean {
  return clusters.some(
    (c) => c.metadata.deletionTimestamp !== undefined && bindingTargets(binding, c.metadata.name ?? ''),
  );
}
