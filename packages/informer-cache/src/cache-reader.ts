// CacheReader: the controllers' read handle. Reads come from informer stores only: a read of a resource whose
// informer has not synced waits on that informer's gate (with the caller's signal and a deadline); a read of a
// resource with no informer fails with NotCachedError (strict) or registers and starts one (lazy). It never
// sends a request to the API server.
import { CacheSyncTimeoutError, NotCachedError } from './errors.js';
import { gvrToString } from './gvr.js';
import type { SharedInformer } from './informer.js';
import type { Lister, ListOptions } from './lister.js';
import type { InformerManager } from './manager.js';
import type { ReaderWaitOutcome } from './metrics.js';
import type { GroupVersionResource, KubeObject, ObjectKey, ObjectOf, WaitOptions } from './types.js';

/** What every read takes: the caller's AbortSignal and deadlines (absolute, stall) for the sync wait. */
export type ReadOptions = WaitOptions;

/**
 * The read capability controllers get. Implemented by CacheReader and, for benchmarks only, FallbackCacheReader.
 * The object type comes from the resource: `get(Works, key)` is a `Work` when `Works` is a typed descriptor
 * (`resource<Work>(...)`), a KubeObject for an untyped GroupVersionResource. `R` narrows which resources may be
 * read at all: a `Reader<typeof Works | typeof Clusters>` refuses, at compile time, a read of any other typed
 * resource (a runtime's controller gets one for the resources it registered).
 */
export interface Reader<R extends GroupVersionResource = GroupVersionResource> {
  /** The object, or undefined when it does not exist (in the synced cache). */
  get<D extends R>(resource: D, key: ObjectKey, options?: ReadOptions): Promise<ObjectOf<D> | undefined>;
  list<D extends R>(resource: D, options?: ListOptions & ReadOptions): Promise<ObjectOf<D>[]>;
  byIndex<D extends R>(
    resource: D,
    indexName: string,
    value: string,
    options?: ReadOptions,
  ): Promise<ObjectOf<D>[]>;
}

export interface CacheReaderOptions {
  /**
   * `strict` (default): a resource with no registered informer throws NotCachedError. `lazy`: it registers the
   * informer, starts it, and waits for it like any unsynced read (with the same deadline).
   */
  readonly mode?: 'strict' | 'lazy' | undefined;
  /**
   * Default stall deadline of a read that waits for sync: it fails once its informer's list has made no progress
   * for this long, however long the list has been moving before. Default 2 minutes (controller-runtime's
   * CacheSyncTimeout), so a list that is stuck fails as soon as before and one that is large does not fail.
   */
  readonly stallTimeoutMs?: number | undefined;
  /** Default absolute deadline of such a read, from its start. Default none: the stall deadline bounds it. */
  readonly timeoutMs?: number | undefined;
}

export const DEFAULT_READ_STALL_TIMEOUT_MS = 120_000;

export class CacheReader implements Reader {
  readonly mode: 'strict' | 'lazy';
  readonly stallTimeoutMs: number;
  readonly timeoutMs: number | undefined;

  constructor(
    readonly manager: InformerManager,
    options: CacheReaderOptions = {},
  ) {
    this.mode = options.mode ?? 'strict';
    this.stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_READ_STALL_TIMEOUT_MS;
    this.timeoutMs = options.timeoutMs;
  }

  async get<D extends GroupVersionResource>(
    resource: D,
    key: ObjectKey,
    options: ReadOptions = {},
  ): Promise<ObjectOf<D> | undefined> {
    return (await this.lister(resource, options)).get(key);
  }

  async list<D extends GroupVersionResource>(
    resource: D,
    options: ListOptions & ReadOptions = {},
  ): Promise<ObjectOf<D>[]> {
    return (await this.lister(resource, options)).list(options);
  }

  async byIndex<D extends GroupVersionResource>(
    resource: D,
    indexName: string,
    value: string,
    options: ReadOptions = {},
  ): Promise<ObjectOf<D>[]> {
    return (await this.lister(resource, options)).byIndex(indexName, value);
  }

  /** The resource's lister once its informer has synced; synchronous reads from it need no further waits. */
  async lister<D extends GroupVersionResource>(
    resource: D,
    options: ReadOptions = {},
  ): Promise<Lister<ObjectOf<D>>> {
    const informer = this.#informer(resource);
    if (!informer.hasSynced) await this.#wait(informer, options);
    return informer.lister;
  }

  #informer<D extends GroupVersionResource>(resource: D): SharedInformer<ObjectOf<D>> {
    const existing = this.manager.informer(resource);
    if (existing !== undefined) return existing;
    if (this.mode === 'strict') throw new NotCachedError(resource, this.manager.cluster);
    const informer = this.manager.forResource(resource);
    // A lazily registered informer starts now even if the manager has not been started, or the read could only
    // time out.
    if (!informer.isStarted) informer.start();
    return informer;
  }

  async #wait<T extends KubeObject>(informer: SharedInformer<T>, options: ReadOptions): Promise<void> {
    const started = Date.now();
    let outcome: ReaderWaitOutcome = 'served';
    try {
      await informer.waitForSync({
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? this.timeoutMs,
        stallTimeoutMs: options.stallTimeoutMs ?? this.stallTimeoutMs,
      });
    } catch (error) {
      outcome =
        error instanceof CacheSyncTimeoutError ? 'timeout' : options.signal?.aborted ? 'aborted' : 'failed';
      throw error;
    } finally {
      this.manager.metrics?.readerWaited?.(
        { cluster: this.manager.cluster, resource: gvrToString(informer.gvr) },
        Date.now() - started,
        outcome,
      );
    }
  }
}
