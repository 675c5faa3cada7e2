// A SharedInformer: one reflector, one store, any number of handlers, and a sync-gate Gate that opens when the
// first list is in the store. A list the server forbids (or does not serve) fails the gate so readers waiting on
// it reject at once; the reflector keeps retrying and the gate opens when it recovers.
import { Gate, GateAbortedError, GateFailedError, GateTimeoutError } from '@warmstart/sync-gate';
import {
  CacheSyncTimeoutError,
  ForbiddenResourceError,
  InformerStoppedError,
  ResourceNotServedError,
} from './errors.js';
import type { ReflectorEvent } from './events.js';
import { gvrToString } from './gvr.js';
import type { DeletedFinalStateUnknown, ResourceEventHandler } from './handlers.js';
import { Lister } from './lister.js';
import { type InformerLabels, type Logger, silentLogger } from './metrics.js';
import { NotificationQueue } from './notification-queue.js';
import { Reflector, type ReflectorOptions } from './reflector.js';
import { type Indexer, type IndexFunc, Store, type StoreSink } from './store.js';
import type { Transform } from './transform.js';
import type { ApiTransport } from './transport.js';
import type { GroupVersionResource, KubeObject, WaitOptions } from './types.js';

export interface InformerOptions<T extends KubeObject = KubeObject>
  extends Omit<ReflectorOptions, 'gvr' | 'transport'> {
  /** Custom indexes besides the built-in `namespace` index. */
  readonly indexers?: Readonly<Record<string, IndexFunc<T>>> | undefined;
  /**
   * Every this many milliseconds, replay every cached object to the handlers as update(obj, obj), with no API
   * call (client-go's resync). 0 or undefined: off.
   */
  readonly resyncPeriodMs?: number | undefined;
}

/** Returned by addEventHandler. */
export interface HandlerRegistration {
  /** The handler's name, or undefined when it is identified by reference. */
  readonly name: string | undefined;
  /**
   * True once the handler has been told of every object of the informer's first list (or, when it was added after
   * sync, of every cached object): client-go's registration HasSynced. The informer's own `hasSynced` turns true
   * when the store holds the list, which can be before a large list's notifications have all been delivered.
   */
  readonly hasSynced: boolean;
  remove(): void;
}

/** `informer:<cluster>/<group>/<version>/<resource>`, `core` for the core group. */
export function informerGateName(cluster: string, gvr: GroupVersionResource): string {
  return `informer:${cluster}/${gvrToString(gvr)}`;
}

const numbers = new Intl.NumberFormat('en-US');

export class SharedInformer<T extends KubeObject = KubeObject> {
  readonly gvr: GroupVersionResource;
  readonly cluster: string;
  /** Opens when the first list is in the store; fails while the server forbids the list. */
  readonly gate: Gate;
  readonly lister: Lister<T>;
  readonly #store: Store<T>;
  readonly #reflector: Reflector<T>;
  // Replaced, never mutated: a queued notification keeps the list of handlers registered when it was queued.
  #handlers: readonly ResourceEventHandler<T>[] = [];
  // Per handler: whether it has heard of the whole first list (or of the cache, when added after sync).
  readonly #handlerSynced = new Map<ResourceEventHandler<T>, { synced: boolean }>();
  readonly #notifications = new NotificationQueue((error) => this.#handlerFailed(error));
  readonly #labels: InformerLabels;
  readonly #options: InformerOptions<T>;
  readonly #logger: Logger;
  readonly #sink: StoreSink<T>;
  #abort: AbortController | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;
  #resyncTimer: NodeJS.Timeout | undefined;
  #lastError: Error | undefined;

  constructor(gvr: GroupVersionResource, transport: ApiTransport, options: InformerOptions<T> = {}) {
    this.gvr = gvr;
    this.cluster = transport.cluster;
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#labels = { cluster: this.cluster, resource: gvrToString(gvr) };
    this.gate = new Gate(informerGateName(this.cluster, gvr));
    this.gate.setProgress('not started');
    this.#store = new Store<T>(options.indexers ?? {});
    this.lister = new Lister(this.#store);
    this.#sink = {
      added: (o, initial) => this.#dispatch((h) => h.onAdd?.(o, initial)),
      updated: (a, b) => this.#dispatch((h) => h.onUpdate?.(a, b)),
      deleted: (o) => this.#dispatch((h) => h.onDelete?.(o as T | DeletedFinalStateUnknown<T>)),
      // One queued batch for a whole relist: queuing a closure per object held the swap's turn for milliseconds
      // per 10,000 objects.
      replaced: (changes) => {
        const handlers = this.#handlers;
        const to = this.#directSink(handlers);
        this.#notifications.pushEach(changes.count, (i) => changes.report(i, to));
      },
    };
    this.#reflector = new Reflector<T>(
      { ...options, gvr, transport },
      {
        onEvent: (event) => this.#onEvent(event),
        onListProgress: (n) => this.gate.progressed(`listed ${numbers.format(n)} objects`),
        onError: (error, phase, retryInMs) => this.#onError(error, phase, retryInMs),
      },
    );
  }

  /** The store's read side. Objects are frozen and shared. */
  get store(): Indexer<T> {
    return this.#store;
  }

  /** True once the first list is in the store (client-go's HasSynced). */
  get hasSynced(): boolean {
    return this.#store.synced;
  }

  get isStarted(): boolean {
    return this.#running !== undefined;
  }

  /** The last list or watch failure, cleared by the next successful sync. */
  get lastError(): Error | undefined {
    return this.#lastError;
  }

  /** The transform applied to every object before it is stored (undefined: the default transform). */
  get transform(): Transform | undefined {
    return this.#options.transform;
  }

  get lastSyncResourceVersion(): string {
    return this.#reflector.lastSyncResourceVersion;
  }

  /**
   * Adds a handler. If the informer has synced, the handler first gets onAdd(obj, true) for every cached object, so
   * it misses nothing: at once while this turn's notification slice lasts, the rest after a turn of the event loop
   * (see NotificationQueue), and ahead of any later change. `hasSynced` on the returned registration turns true
   * when that replay has been delivered. A handler with a name already present is not added twice.
   */
  addEventHandler(handler: ResourceEventHandler<T>): HandlerRegistration {
    const registered = this.#handlers.find((h) => sameHandler(h, handler));
    if (registered !== undefined) return this.#registration(registered);
    const state = { synced: false };
    this.#handlerSynced.set(handler, state);
    this.#handlers = [...this.#handlers, handler];
    if (this.hasSynced) {
      // Only this handler: the others heard of these objects when they arrived. A copy: the store moves on.
      const only = [handler];
      const objects = this.#store.list();
      this.#notifications.pushEach(objects.length, (i) => {
        const o = objects[i] as T;
        this.#callHandlers(only, (h) => h.onAdd?.(o, true));
      });
      this.#markSynced(only);
    }
    return this.#registration(handler);
  }

  #registration(handler: ResourceEventHandler<T>): HandlerRegistration {
    const state = this.#handlerSynced.get(handler) ?? { synced: false };
    return {
      name: handler.name,
      get hasSynced() {
        return state.synced;
      },
      remove: () => this.removeEventHandler(handler),
    };
  }

  /** Queued behind what the handlers are owed: when it runs, they have heard of everything before it. */
  #markSynced(handlers: readonly ResourceEventHandler<T>[]): void {
    this.#notifications.push(() => {
      for (const h of handlers) {
        const state = this.#handlerSynced.get(h);
        if (state !== undefined) state.synced = true;
      }
    });
  }

  /** Removes a handler by reference or name. Returns whether one was removed. */
  removeEventHandler(handler: ResourceEventHandler<T> | string): boolean {
    const i = this.#handlers.findIndex((h) => sameHandler(h, handler));
    if (i < 0) return false;
    const removed = this.#handlers[i];
    if (removed !== undefined) this.#handlerSynced.delete(removed);
    this.#handlers = this.#handlers.filter((_, j) => j !== i);
    return true;
  }

  /** Whether a handler (by reference, or by name when it has one) is registered. */
  hasHandler(handler: ResourceEventHandler<T> | string): boolean {
    return this.#handlers.some((h) => sameHandler(h, handler));
  }

  get handlerCount(): number {
    return this.#handlers.length;
  }

  /** Store changes whose handler notifications are still queued (see NotificationQueue). */
  get pendingNotifications(): number {
    return this.#notifications.pending;
  }

  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void {
    this.#store.addIndexers(indexers);
  }

  /** Starts listing and watching. Idempotent. The informer stops when `signal` aborts or stop() is called. */
  start(signal?: AbortSignal): void {
    if (this.#running !== undefined) return;
    if (this.#stopped)
      throw new Error(`informer ${this.gate.name} was stopped; create a new one to start again`);
    const abort = new AbortController();
    this.#abort = abort;
    if (signal !== undefined) {
      if (signal.aborted) abort.abort(signal.reason);
      else signal.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
    }
    this.gate.setProgress('listing');
    this.#running = this.#reflector.run(abort.signal).catch((error: unknown) => {
      this.#logger.error('reflector stopped unexpectedly', {
        informer: this.gate.name,
        error: String(error),
      });
    });
    const period = this.#options.resyncPeriodMs ?? 0;
    if (period > 0) {
      this.#resyncTimer = setInterval(() => this.resync(), period);
      this.#resyncTimer.unref();
    }
  }

  /** Stops the reflector and waits for it. Readers still waiting for sync reject with InformerStoppedError. */
  async stop(): Promise<void> {
    if (this.#stopped) return this.#running;
    this.#stopped = true;
    if (this.#resyncTimer !== undefined) clearInterval(this.#resyncTimer);
    this.#notifications.close();
    this.#abort?.abort(new InformerStoppedError(this.gvr, this.cluster));
    if (!this.gate.isOpen) this.gate.fail(new InformerStoppedError(this.gvr, this.cluster));
    await this.#running;
  }

  /** Replays every cached object to every handler as update(obj, obj). No API call is made. */
  resync(): void {
    if (!this.hasSynced || this.#handlers.length === 0) return;
    const handlers = this.#handlers;
    const objects = this.#store.list();
    this.#notifications.pushEach(objects.length, (i) => {
      const o = objects[i] as T;
      this.#callHandlers(handlers, (h) => h.onUpdate?.(o, o));
    });
  }

  /**
   * Resolves when the informer has synced. Rejects with CacheSyncTimeoutError after `timeoutMs`, or once its list
   * has made no progress for `stallTimeoutMs`, with the typed
   * cause (ForbiddenResourceError, ResourceNotServedError, InformerStoppedError) when the gate fails, and with
   * GateAbortedError when the signal aborts.
   */
  async waitForSync(options: WaitOptions = {}): Promise<void> {
    if (this.hasSynced) return;
    try {
      await this.gate.wait(options);
    } catch (error) {
      throw this.#mapWaitError(error);
    }
  }

  #mapWaitError(error: unknown): unknown {
    if (error instanceof GateTimeoutError) {
      return new CacheSyncTimeoutError(this.gvr, this.cluster, error.waitedMs, error.progress, {
        cause: error,
        stalledMs: error.stalledMs,
      });
    }
    if (error instanceof GateFailedError && error.cause instanceof Error) return error.cause;
    if (error instanceof GateAbortedError) return error;
    return error;
  }

  #onEvent(event: ReflectorEvent<T>): void {
    this.#store.apply(event, this.#handlers.length === 0 ? undefined : this.#sink);
    if (event.type === 'init-apply' || event.type === 'init') return;
    this.#options.metrics?.objects?.(this.#labels, this.#store.size);
    if (event.type === 'init-done') {
      this.#lastError = undefined;
      this.gate.setProgress(`synced ${numbers.format(this.#store.size)} objects`);
      if (!this.gate.isOpen) {
        if (this.#handlers.length > 0) this.#markSynced(this.#handlers);
        this.gate.open();
        this.#options.metrics?.synced?.(this.#labels, true);
        this.#logger.info('informer synced', { informer: this.gate.name, objects: this.#store.size });
      }
    }
  }

  #onError(error: Error, phase: 'list' | 'watch', retryInMs: number): void {
    this.#lastError = error;
    if (this.gate.isOpen) return;
    const retry = `retrying in ${(retryInMs / 1000).toFixed(1)} s`;
    if (
      phase === 'list' &&
      (error instanceof ForbiddenResourceError || error instanceof ResourceNotServedError)
    ) {
      this.gate.setProgress(`${error.message} (${retry})`);
      this.gate.fail(error);
      return;
    }
    this.gate.setProgress(`${phase} failed: ${error.message} (${retry})`);
  }

  #dispatch(call: (handler: ResourceEventHandler<T>) => void): void {
    const handlers = this.#handlers;
    this.#notifications.push(() => this.#callHandlers(handlers, call));
  }

  /** Calls each of `handlers` now; the store changes a batch reports, for handlers taken when it was queued. */
  #directSink(handlers: readonly ResourceEventHandler<T>[]): Omit<StoreSink<T>, 'replaced'> {
    return {
      added: (o, initial) => this.#callHandlers(handlers, (h) => h.onAdd?.(o, initial)),
      updated: (a, b) => this.#callHandlers(handlers, (h) => h.onUpdate?.(a, b)),
      deleted: (o) => this.#callHandlers(handlers, (h) => h.onDelete?.(o as T | DeletedFinalStateUnknown<T>)),
    };
  }

  #callHandlers(
    handlers: readonly ResourceEventHandler<T>[],
    call: (handler: ResourceEventHandler<T>) => void,
  ): void {
    for (const h of handlers) {
      // Removed while the notification waited: a removed handler hears nothing more.
      if (handlers !== this.#handlers && !this.#handlers.includes(h)) continue;
      try {
        call(h);
      } catch (error) {
        this.#handlerFailed(error);
      }
    }
  }

  #handlerFailed(error: unknown): void {
    // A throwing handler must not break the store or the other handlers.
    this.#logger.error('event handler threw', { informer: this.gate.name, error: String(error) });
  }
}

function sameHandler<T extends KubeObject>(
  registered: ResourceEventHandler<T>,
  wanted: ResourceEventHandler<T> | string,
): boolean {
  if (typeof wanted === 'string') return registered.name === wanted;
  if (registered === wanted) return true;
  return wanted.name !== undefined && registered.name === wanted.name;
}
