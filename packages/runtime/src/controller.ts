// A controller declared, not wired: `for` the resource it reconciles, `owns` the ones it creates, `watches`
// others through a map function, then `reconcile`. The runtime owns what every controller used to repeat:
// handlers that turn events into keys (tombstones unwrapped, initial-list items at low priority), the work
// queue and its workers, the count of reads that waited for a cache, leader-fenced writes, metrics and status.
import {
  deletedObject,
  type ForResourceOptions,
  type GroupVersionResource,
  type KubeObject,
  type Logger,
  type ObjectOf,
  type Reader,
  type ResourceEventHandler,
  SharedInformer,
  toKey,
} from '@warmstart/informer-cache';
import { LOW_PRIORITY, type RateLimiter, runWorkers, WorkQueue } from '@warmstart/workqueue';
import type { WriteClient } from './clients.js';
import { ControllerStateError } from './errors.js';
import type { ControllerHost } from './host.js';
import type { Runnable } from './lifecycle.js';
import { ControllerMetrics, type ReconcileResultLabel } from './metrics.js';
import { ownerKeys } from './owners.js';

/** What a reconcile asks for after it succeeded. */
export interface ReconcileResult {
  /** Reconcile the key again after this many milliseconds. */
  readonly requeueAfter?: number | undefined;
  /** Reconcile the key again, rate-limited, as after an error but without reporting one. */
  readonly requeue?: boolean | undefined;
}

/**
 * What a reconcile gets besides its key. `R` is the resources the reader may read: every resource, or, for a
 * reconcile given after `for` / `owns` / `watches` / `reads`, exactly the ones the controller registered.
 */
export interface ReconcileContext<R extends GroupVersionResource = GroupVersionResource> {
  /** Aborts when the controller's stop deadline passes (or the manager stops): pass it to every read and write. */
  readonly signal: AbortSignal;
  /** Cache reads only; a read of an informer not yet synced waits for it (and is counted in status()). */
  readonly reader: Reader<R>;
  /** Writes only, refused while this process is not the leader. */
  readonly writer: WriteClient;
  readonly log: Logger;
  /** Failures of this key in a row before this run. */
  readonly retries: number;
}

export type Reconciler<R extends GroupVersionResource = GroupVersionResource> = (
  key: string,
  context: ReconcileContext<R>,
) => Promise<ReconcileResult | undefined> | Promise<void> | ReconcileResult | undefined | void;

/** What to do with a key whose reconcile failed (kube-rs' error_policy). */
export type ErrorAction =
  /** Retry with the rate limiter's per-key backoff (the default). */
  | 'backoff'
  /** Do not retry; a later event for the key enqueues it again. */
  | 'forget'
  /** Retry after a fixed delay. */
  | { readonly requeueAfter: number };

export type ErrorPolicy = (error: unknown, key: string, context: { readonly retries: number }) => ErrorAction;

/** Filters events before they become keys; an absent function lets every event of its kind through. */
export interface Predicates<T extends KubeObject = KubeObject> {
  create?(object: Readonly<T>, isInInitialList: boolean): boolean;
  update?(oldObject: Readonly<T>, newObject: Readonly<T>): boolean;
  /** Gets the last known state, tombstone unwrapped. */
  delete?(object: Readonly<T>): boolean;
}

/**
 * Turns an object into the keys to reconcile. An update enqueues the new object's keys, or the old object's
 * when the new one maps to none (the change took it out of the mapping: a label removed).
 */
export type MapFunc<T extends KubeObject = KubeObject> = (
  object: Readonly<T>,
) => Iterable<string> | string | undefined;

export interface WatchOptions<T extends KubeObject = KubeObject> extends ForResourceOptions<T> {
  readonly predicates?: Predicates<T> | undefined;
  /**
   * Every key this watch maps goes in at low priority, in slices with event-loop turns between: for bulk
   * requeues (every binding after a Cluster change), so a change made meanwhile overtakes them.
   */
  readonly lowPriority?: boolean | undefined;
}

export interface ForOptions<T extends KubeObject = KubeObject> extends WatchOptions<T> {
  /** The key of an object; default `namespace/name` (or `name`). */
  readonly map?: MapFunc<T> | undefined;
}

export interface ControllerOptions {
  /** Names the controller in logs, metrics, status and its queue. Unique per manager. */
  readonly name: string;
  /** Keys reconciled at once (controller-runtime's MaxConcurrentReconciles). Default 1. */
  readonly concurrency?: number | undefined;
  /** Delays of failed keys. Default: per-key exponential 5 ms .. 1000 s. */
  readonly rateLimiter?: RateLimiter | undefined;
  /** What a failure does; default: retry with backoff. Every failure is logged and shown in status(). */
  readonly errorPolicy?: ErrorPolicy | undefined;
  /** Who the writes are accounted to (User-Agent, metrics, audit log). Default: the name. */
  readonly source?: string | undefined;
  /** The reconcile function, or give it later with `.reconcile()`. */
  readonly reconcile?: Reconciler | undefined;
}

/** One controller's state for a dashboard. */
export interface ControllerStatus {
  readonly name: string;
  /** Keys waiting in the queue. */
  readonly queueDepth: number;
  /** Keys being reconciled now. */
  readonly inFlight: number;
  /** Keys waiting for a retry or requeue delay (not in queueDepth, as in client-go). */
  readonly delayed: number;
  /** Cache reads that had to wait for an informer to sync. */
  readonly readerWaits: number;
  /** The last failed reconcile: the key, the error text and when (epoch ms). */
  readonly lastError: Readonly<{ key: string; message: string; at: number }> | undefined;
  /** Whether the workers run (false until the manager starts the controller, e.g. before leading). */
  readonly started: boolean;
}

type State = 'building' | 'started' | 'stopped';

interface Registered {
  readonly source: SharedInformer;
  readonly handler: ResourceEventHandler;
}

/** Thrown inside the runtime only: a reconcile asked for a rate-limited requeue without failing. */
class RequeueRequest extends Error {}

/**
 * `R` is the set of host resources the controller registered, so far: a reconcile given with `.reconcile()`
 * after them may read those and no others (a read of any other typed resource does not compile). A reconcile
 * given in the constructor's options reads any resource.
 */
export class Controller<R extends GroupVersionResource = never> implements Runnable {
  readonly name: string;
  /** The controller's queue; keys may be added from anywhere (a timer, another informer's handler). */
  readonly queue: WorkQueue;
  /** Cache reads whose waits count for this controller. */
  readonly reader: Reader;
  /** Leader-fenced writes accounted to the controller's source. */
  readonly writer: WriteClient;
  readonly log: Logger;
  readonly #host: ControllerHost;
  readonly #concurrency: number;
  readonly #errorPolicy: ErrorPolicy;
  readonly #metrics: ControllerMetrics;
  readonly #handlers: Registered[] = [];
  readonly #closing = new AbortController();
  readonly #hard = new AbortController();
  #forResource: GroupVersionResource | undefined;
  #reconciler: Reconciler | undefined;
  #workers: Promise<void> | undefined;
  #lastError: ControllerStatus['lastError'];
  #readerWaits = 0;
  #state: State = 'building';

  constructor(host: ControllerHost, options: ControllerOptions) {
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new RangeError(
        `controller ${options.name}: concurrency must be a whole number >= 1 (got ${concurrency})`,
      );
    }
    this.name = options.name;
    this.#host = host;
    this.#concurrency = concurrency;
    this.#errorPolicy = options.errorPolicy ?? (() => 'backoff');
    this.#reconciler = options.reconcile;
    this.log = host.log;
    this.queue = new WorkQueue({
      name: options.name,
      ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
      ...(host.metrics?.workqueue ? { metrics: host.metrics.workqueue } : {}),
    });
    this.#metrics = new ControllerMetrics(options.name, concurrency, host.metrics?.controllers);
    this.reader = host.reader(() => {
      this.#readerWaits++;
    });
    this.writer = host.writer(options.source ?? options.name);
    host.add(this);
  }

  /** The resource this controller reconciles: each object's key (or `options.map`'s keys) is enqueued. */
  for<D extends GroupVersionResource>(resource: D, options?: ForOptions<ObjectOf<D>>): Controller<R | D>;
  for(resource: GroupVersionResource, options: ForOptions = {}): Controller<R | GroupVersionResource> {
    if (this.#forResource) {
      throw new ControllerStateError(
        `controller ${this.name}: for() was called twice; a controller reconciles one resource`,
      );
    }
    this.#forResource = resource;
    this.#watch(this.#informer(resource, options), options.map ?? ((o) => toKey(o.metadata)), options);
    return this;
  }

  /**
   * A resource this controller creates: an object enqueues the key of its controlling owner of the `for`
   * resource's kind (ownerReferences with controller: true).
   */
  owns<D extends GroupVersionResource>(resource: D, options?: WatchOptions<ObjectOf<D>>): Controller<R | D>;
  owns(resource: GroupVersionResource, options: WatchOptions = {}): Controller<R | GroupVersionResource> {
    const owner = this.#forResource;
    if (!owner) throw new ControllerStateError(`controller ${this.name}: call for() before owns()`);
    this.#watch(this.#informer(resource, options), (o) => ownerKeys(o, owner), options);
    return this;
  }

  /**
   * Any other source: a resource of this manager's cluster, or an informer of another cluster (a member's);
   * `map` turns each changed object into the keys to reconcile. The runtime adds the handler, unwraps
   * tombstones, and removes the handler when the controller stops. May be called while the controller runs (a
   * member's informer registered when the first object of its kind is applied there).
   */
  watches<T extends KubeObject>(
    source: SharedInformer<T>,
    map: MapFunc<T>,
    options?: WatchOptions<T>,
  ): Controller<R>;
  watches<D extends GroupVersionResource>(
    source: D,
    map: MapFunc<ObjectOf<D>>,
    options?: WatchOptions<ObjectOf<D>>,
  ): Controller<R | D>;
  watches(
    source: SharedInformer | GroupVersionResource,
    map: MapFunc,
    options: WatchOptions = {},
  ): Controller<R | GroupVersionResource> {
    const informer = source instanceof SharedInformer ? source : this.#informer(source, options);
    this.#watch(informer, map, options);
    return this;
  }

  /**
   * A resource whose events need more than a map function to become keys (an asynchronous cache lookup, a
   * priority of their own): `handler` enqueues through `queue` itself. The runtime registers it and removes it
   * when the controller stops. Keep it short and make it not throw, as any informer handler.
   */
  watchesRaw<D extends GroupVersionResource>(
    resource: D,
    handler: ResourceEventHandler<ObjectOf<D>>,
    options?: ForResourceOptions<ObjectOf<D>>,
  ): Controller<R | D>;
  watchesRaw(
    resource: GroupVersionResource,
    handler: ResourceEventHandler,
    options: ForResourceOptions = {},
  ): Controller<R | GroupVersionResource> {
    const informer = this.#informer(resource, options);
    this.#register(informer, handler.name ? handler : { ...handler, name: this.#handlerName(informer) });
    return this;
  }

  /**
   * Resources the reconcile reads but no event of which needs a reconcile: their informers are registered
   * (so the reads are served from a cache, and /readyz waits for it) and the typed reader admits them.
   */
  reads<D extends readonly GroupVersionResource[]>(...resources: D): Controller<R | D[number]> {
    for (const resource of resources) this.#host.informers.forResource(resource);
    return this;
  }

  /** The reconcile function. Required before the manager starts the controller. */
  reconcile(reconciler: Reconciler<R>): this {
    this.#reconciler = reconciler;
    return this;
  }

  /**
   * Enqueues a key. `low`: items of an initial list and bulk requeues go in at low priority, so a change made
   * meanwhile overtakes them instead of waiting behind tens of thousands of keys.
   */
  enqueue(key: string, low = false): void {
    this.queue.add(key, low ? { priority: LOW_PRIORITY } : undefined);
  }

  /** Enqueues many keys at low priority, in slices with event-loop turns between (WorkQueue.addAll). */
  async enqueueAll(keys: Iterable<string>): Promise<void> {
    await this.queue.addAll(keys, { priority: LOW_PRIORITY, signal: this.#closing.signal });
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.#state !== 'building') {
      throw new ControllerStateError(
        `controller ${this.name} was started twice; build a new one to start again`,
      );
    }
    const reconciler = this.#reconciler;
    if (!reconciler) throw new ControllerStateError(`controller ${this.name} has no reconcile function`);
    this.#state = 'started';
    const abort = (): void => {
      this.#closing.abort(signal.reason);
      this.#hard.abort(signal.reason);
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    this.#workers = runWorkers({
      queue: this.queue,
      concurrency: this.#concurrency,
      signal: this.#closing.signal,
      reconcile: (key) => this.#reconcileOne(reconciler, key),
      onError: (key, error) => this.#failed(key, error),
    });
  }

  /**
   * Stops taking keys; reconciles in flight may finish until `deadline` aborts, then their signal aborts.
   * Handlers are removed, so the informers may serve another controller later.
   */
  async stop(deadline: AbortSignal): Promise<void> {
    if (this.#state === 'stopped') return;
    this.#state = 'stopped';
    this.queue.shutDown();
    this.#closing.abort(new ControllerStateError(`controller ${this.name} is stopping`));
    for (const { source, handler } of this.#handlers.splice(0)) source.removeEventHandler(handler);
    const onDeadline = (): void => this.#hard.abort(deadline.reason);
    if (deadline.aborted) onDeadline();
    else deadline.addEventListener('abort', onDeadline, { once: true });
    try {
      await this.#workers;
    } finally {
      deadline.removeEventListener('abort', onDeadline);
      this.#hard.abort(new ControllerStateError(`controller ${this.name} stopped`));
    }
  }

  status(): ControllerStatus {
    const snap = this.queue.snapshot();
    return {
      name: this.name,
      queueDepth: snap.depth,
      inFlight: snap.inFlight,
      delayed: snap.delayed,
      readerWaits: this.#readerWaits,
      lastError: this.#lastError,
      started: this.#state === 'started',
    };
  }

  /** The host's informer of a resource, registered with the indexers and resync period a watch asks for. */
  #informer(resource: GroupVersionResource, options: ForResourceOptions): SharedInformer {
    const { predicates: _p, lowPriority: _l, map: _m, ...informerOptions } = options as ForOptions;
    return this.#host.informers.forResource(resource, undefined, informerOptions);
  }

  #watch(informer: SharedInformer, map: MapFunc, options: WatchOptions): void {
    const { predicates: p, lowPriority } = options;
    const keysOf = (object: Readonly<KubeObject>): Iterable<string> | string | undefined => {
      const keys = map(object);
      return keys === undefined || (Array.isArray(keys) && keys.length === 0) ? undefined : keys;
    };
    const enqueue = (keys: Iterable<string> | string | undefined, low: boolean): void => {
      if (keys === undefined) return;
      if (typeof keys === 'string') {
        this.enqueue(keys, low);
      } else if (lowPriority) {
        void this.enqueueAll(keys);
      } else {
        for (const key of keys) this.enqueue(key, low);
      }
    };
    this.#register(informer, {
      name: this.#handlerName(informer),
      onAdd: (object, initial) => {
        if (p?.create && !p.create(object, initial)) return;
        enqueue(keysOf(object), initial || lowPriority === true);
      },
      onUpdate: (oldObject, newObject) => {
        if (p?.update && !p.update(oldObject, newObject)) return;
        enqueue(keysOf(newObject) ?? keysOf(oldObject), lowPriority === true);
      },
      onDelete: (deleted) => {
        const object = deletedObject(deleted);
        if (p?.delete && !p.delete(object)) return;
        enqueue(keysOf(object), lowPriority === true);
      },
    });
  }

  #register(informer: SharedInformer, handler: ResourceEventHandler): void {
    informer.addEventHandler(handler);
    this.#handlers.push({ source: informer, handler });
  }

  /** The controller's name; `name#2`, ... for a second handler of the same controller on one informer. */
  #handlerName(informer: SharedInformer): string {
    const same = this.#handlers.filter((h) => h.source === informer).length;
    return same === 0 ? this.name : `${this.name}#${same + 1}`;
  }

  async #reconcileOne(reconciler: Reconciler, key: string): Promise<{ requeueAfter?: number }> {
    const retries = this.queue.numRequeues(key);
    const started = performance.now();
    this.#metrics.started();
    let label: ReconcileResultLabel = 'error';
    try {
      const result = await reconciler(key, {
        signal: this.#hard.signal,
        reader: this.reader,
        writer: this.writer,
        log: this.log,
        retries,
      });
      if (result?.requeue) {
        label = 'requeue';
        // The workers' failure path retries rate-limited and keeps the key's priority; #failed skips it.
        throw new RequeueRequest();
      }
      const after = result?.requeueAfter;
      label = after !== undefined && after > 0 ? 'requeue_after' : 'success';
      return after !== undefined && after > 0 ? { requeueAfter: after } : {};
    } catch (error) {
      if (error instanceof RequeueRequest || this.#hard.signal.aborted) throw error;
      const action = this.#errorPolicy(error, key, { retries });
      if (action === 'backoff') throw error;
      this.#failed(key, error);
      return action === 'forget' ? {} : { requeueAfter: action.requeueAfter };
    } finally {
      this.#metrics.finished(label, (performance.now() - started) / 1000);
    }
  }

  #failed(key: string, error: unknown): void {
    if (error instanceof RequeueRequest || this.#hard.signal.aborted) return;
    const message = error instanceof Error ? error.message : String(error);
    this.#lastError = { key, message, at: Date.now() };
    // The message as a value, not the Error: a retried failure is an expected state (a forbidden cache, a
    // conflict), and a stack trace per retry only buries it.
    this.log.error('reconcile failed', {
      controller: this.name,
      key,
      error: message,
      retries: this.queue.numRequeues(key),
    });
  }
}
