// InformerManager: the informers of one cluster, one per resource, shared by every controller (Karmada's
// genericmanager surface: ForResource / Lister / Start / Stop / WaitForCacheSync / IsHandlerExist).
import type { KubeConfig } from '@kubernetes/client-node';
import type { Gate } from '@warmstart/sync-gate';
import type { KubeConfigEndpointOptions } from './endpoint.js';
import { NotCachedError } from './errors.js';
import { gvrToString } from './gvr.js';
import type { ResourceEventHandler } from './handlers.js';
import { type InformerOptions, SharedInformer } from './informer.js';
import type { Lister } from './lister.js';
import type { CacheMetrics, Logger } from './metrics.js';
import type { IndexFunc } from './store.js';
import { ApiTransport, type ApiTransportOptions } from './transport.js';
import type { GroupVersionResource, KubeObject, ObjectOf, WaitOptions } from './types.js';

/** Options every informer of a manager gets, unless forResource overrides them. */
export type InformerDefaults = Omit<InformerOptions, 'indexers' | 'metrics' | 'logger'>;

export interface InformerManagerOptions {
  readonly transport: ApiTransport;
  readonly informers?: InformerDefaults | undefined;
  readonly metrics?: CacheMetrics | undefined;
  readonly logger?: Logger | undefined;
}

/** Per-resource options of forResource. Honoured on the call that registers the informer; indexers always. */
export interface ForResourceOptions<T extends KubeObject = KubeObject> extends InformerDefaults {
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>> | undefined;
}

/**
 * Informers started per event-loop turn. Each start sends its first request at once (a TLS connection, ~1 ms on
 * CPU): the controller manager's ~70 host informers in one turn held the loop ~60 ms on CPU, stretched to 241 ms by
 * waiting for a core, in a restart in front of 100k workloads (issue #16). The probes answer between batches.
 */
export const STARTS_PER_TURN = 8;

export class InformerManager {
  readonly cluster: string;
  readonly transport: ApiTransport;
  readonly metrics: CacheMetrics | undefined;
  readonly #options: InformerManagerOptions;
  readonly #informers = new Map<string, SharedInformer>();
  #signal: AbortSignal | undefined;
  #started = false;
  #stopped = false;

  /** A manager for the current context of a client-node KubeConfig. */
  static fromKubeConfig(
    kc: KubeConfig,
    options: Omit<InformerManagerOptions, 'transport'> & {
      readonly transport?: (ApiTransportOptions & KubeConfigEndpointOptions) | undefined;
    } = {},
  ): InformerManager {
    const transport = ApiTransport.fromKubeConfig(kc, { metrics: options.metrics, ...options.transport });
    return new InformerManager({ ...options, transport });
  }

  constructor(options: InformerManagerOptions) {
    this.#options = options;
    this.transport = options.transport;
    this.cluster = options.transport.cluster;
    this.metrics = options.metrics;
  }

  get started(): boolean {
    return this.#started;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * Registers the informer of a resource (once; later calls return the same informer) and adds the handler if
   * given and not already there. An informer registered after start() starts at once.
   */
  forResource<D extends GroupVersionResource, T extends KubeObject = ObjectOf<D>>(
    gvr: D,
    handler?: ResourceEventHandler<T>,
    options: ForResourceOptions<T> = {},
  ): SharedInformer<T> {
    if (this.#stopped) throw new Error(`informer manager of cluster "${this.cluster}" is stopped`);
    const id = gvrToString(gvr);
    let informer = this.#informers.get(id) as SharedInformer<T> | undefined;
    if (informer === undefined) {
      informer = new SharedInformer<T>(gvr, this.transport, {
        ...this.#options.informers,
        ...options,
        metrics: this.#options.metrics,
        logger: this.#options.logger,
      });
      // One map holds informers of every object type (TypeScript has no existential types); each is read back
      // through its resource's descriptor, which restores its T (informer() below).
      this.#informers.set(id, informer as unknown as SharedInformer);
      if (this.#started) informer.start(this.#signal);
    } else {
      if (informer.gvr.namespaced !== gvr.namespaced) {
        throw new Error(
          `${id} is registered as ${informer.gvr.namespaced ? '' : 'not '}namespaced; got the opposite`,
        );
      }
      if (options.indexers !== undefined) informer.addIndexers(options.indexers);
    }
    if (handler !== undefined) informer.addEventHandler(handler);
    return informer;
  }

  /** The informer of a resource, if registered. */
  informer<D extends GroupVersionResource>(gvr: D): SharedInformer<ObjectOf<D>> | undefined {
    return this.#informers.get(gvrToString(gvr)) as SharedInformer<ObjectOf<D>> | undefined;
  }

  isRegistered(gvr: GroupVersionResource): boolean {
    return this.#informers.has(gvrToString(gvr));
  }

  /** The lister of a registered resource. Throws NotCachedError for a resource with no informer. */
  lister<D extends GroupVersionResource>(gvr: D): Lister<ObjectOf<D>> {
    const informer = this.informer(gvr);
    if (informer === undefined) throw new NotCachedError(gvr, this.cluster);
    return informer.lister;
  }

  /**
   * Starts every registered informer, and every one registered later. Idempotent. The first
   * `STARTS_PER_TURN` start before this returns, the rest a batch per event-loop turn just after.
   */
  start(signal?: AbortSignal): void {
    if (this.#stopped) throw new Error(`informer manager of cluster "${this.cluster}" is stopped`);
    if (this.#started) return;
    this.#started = true;
    this.#signal = signal;
    const pending = [...this.#informers.values()];
    const startBatch = () => {
      if (this.#stopped || signal?.aborted) return;
      for (const informer of pending.splice(0, STARTS_PER_TURN)) informer.start(signal);
      if (pending.length > 0) setImmediate(startBatch);
    };
    startBatch();
  }

  /** Stops every informer and closes idle connections. Waiting readers reject with InformerStoppedError. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await Promise.all([...this.#informers.values()].map((i) => i.stop()));
    this.transport.close();
  }

  /** Whether the resource's informer has synced (false when not registered). */
  hasSynced(gvr: GroupVersionResource): boolean {
    return this.informer(gvr)?.hasSynced ?? false;
  }

  /** Waits until every informer registered now has synced; rejects with the first failure or the deadline. */
  async waitForSync(options: WaitOptions = {}): Promise<void> {
    await Promise.all([...this.#informers.values()].map((i) => i.waitForSync(options)));
  }

  /** Whether the handler (by reference, or by name when it has one) is registered for the resource. */
  isHandlerExist<D extends GroupVersionResource>(
    gvr: D,
    handler: ResourceEventHandler<ObjectOf<D>> | string,
  ): boolean {
    return this.informer(gvr)?.hasHandler(handler) ?? false;
  }

  informers(): SharedInformer[] {
    return [...this.#informers.values()];
  }

  /** The sync gates of all informers, for a readiness registry. */
  gates(): Gate[] {
    return this.informers().map((i) => i.gate);
  }
}
