// The detector's typed reads. Every read goes through the Reader it was given (cache reads that wait for their
// informer to sync and never call the API server); the casts from cached objects to Karmada types live here only.
// Reads that wait for an unsynced informer are counted by the runtime Controller whose reader this is.
import {
  BuiltinResources,
  type ClusterPropagationPolicy,
  type ClusterResourceBinding,
  type GroupVersionResource,
  KarmadaResources,
  type PropagationPolicy,
  type ResourceBinding,
  type StringMap,
  type UnstructuredObject,
} from '@warmstart/api';
import type { Reader } from '@warmstart/informer-cache';

export interface ListFilter {
  readonly namespace?: string | undefined;
  /** Objects carrying all of these labels. */
  readonly labels?: StringMap | undefined;
}

export class DetectorCache {
  readonly #reader: Reader;
  readonly #signal: AbortSignal;

  /** `signal` bounds every read (the detector's lifetime); each read also has the Reader's own deadline. */
  constructor(reader: Reader, signal: AbortSignal) {
    this.#reader = reader;
    this.#signal = signal;
  }

  async #get<T>(
    gvr: GroupVersionResource,
    namespace: string | undefined,
    name: string,
  ): Promise<T | undefined> {
    const key = gvr.namespaced ? { namespace, name } : { name };
    return (await this.#reader.get(gvr, key, { signal: this.#signal })) as T | undefined;
  }

  async #list<T>(gvr: GroupVersionResource, filter: ListFilter): Promise<T[]> {
    return (await this.#reader.list(gvr, {
      namespace: gvr.namespaced ? filter.namespace || undefined : undefined,
      labelSelector: filter.labels === undefined ? undefined : { matchLabels: filter.labels },
      signal: this.#signal,
    })) as T[];
  }

  template(gvr: GroupVersionResource, namespace: string | undefined, name: string) {
    return this.#get<UnstructuredObject>(gvr, namespace, name);
  }

  templates(gvr: GroupVersionResource, filter: ListFilter) {
    return this.#list<UnstructuredObject>(gvr, filter);
  }

  propagationPolicy(namespace: string, name: string) {
    return this.#get<PropagationPolicy>(KarmadaResources.PropagationPolicy, namespace, name);
  }

  propagationPolicies(namespace: string) {
    return this.#list<PropagationPolicy>(KarmadaResources.PropagationPolicy, { namespace });
  }

  clusterPropagationPolicy(name: string) {
    return this.#get<ClusterPropagationPolicy>(KarmadaResources.ClusterPropagationPolicy, undefined, name);
  }

  clusterPropagationPolicies() {
    return this.#list<ClusterPropagationPolicy>(KarmadaResources.ClusterPropagationPolicy, {});
  }

  resourceBinding(namespace: string, name: string) {
    return this.#get<ResourceBinding>(KarmadaResources.ResourceBinding, namespace, name);
  }

  resourceBindings(filter: ListFilter) {
    return this.#list<ResourceBinding>(KarmadaResources.ResourceBinding, filter);
  }

  clusterResourceBinding(name: string) {
    return this.#get<ClusterResourceBinding>(KarmadaResources.ClusterResourceBinding, undefined, name);
  }

  clusterResourceBindings(filter: ListFilter) {
    return this.#list<ClusterResourceBinding>(KarmadaResources.ClusterResourceBinding, filter);
  }

  /** The value of a scheduling.k8s.io PriorityClass, or undefined when there is none by that name. */
  async priorityClassValue(name: string): Promise<number | undefined> {
    const pc = await this.#get<{ value?: unknown }>(BuiltinResources.PriorityClass, undefined, name);
    return typeof pc?.value === 'number' ? pc.value : undefined;
  }
}
