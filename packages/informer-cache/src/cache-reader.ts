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
import type { GroupVersionResource, KubeObject, ObjectKey, WaitOptions } from './types.js';

/** What every read takes: the caller's AbortSignal and a deadline for the sync wait. */
export type ReadOptions = WaitOptions;

/** The read capability controllers get. Implemented by CacheReader and, for benchmarks only, FallbackCacheReader. */
export interface Reader {
  /** The object, or undefined when it does not exist (in the synced cache). */
  get<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    key: ObjectKey,
    options?: ReadOptions,
  ): Promise<T | undefined>;
  list<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    options?: ListOptions & ReadOptions,
  ): Promise<T[]>;
  byIndex<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    indexName: string,
    value: string,
    options?: ReadOptions,
  ): Promise<T[]>;
}

export interface CacheReaderOptions {
  /**
   * `strict` (default): a resource with no registered informer throws NotCachedError. `lazy`: it registers the
   * informer, starts it, and waits for it like any unsynced read (with the same deadline).
   */
  readonly mode?: 'strict' | 'lazy' | undefined;
  /** Default deadline of a read that waits for sync. Default 2 minutes (controller-runtime's CacheSyncTimeout). */
  readonly timeoutMs?: number | undefined;
}

export const DEFAULT_READ_TIMEOUT_MS = 120_000;

export class CacheReader implements Reader {
  readonly mode: 'strict' | 'lazy';
  readonly timeoutMs: number;

  constructor(
    readonly manager: InformerManager,
    options: CacheReaderOptions = {},
  ) {
    this.mode = options.mode ?? 'strict';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  }

  async get<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    key: ObjectKey,
    options: ReadOptions = {},
  ): Promise<T | undefined> {
    return (await this.lister<T>(gvr, options)).get(key);
  }

  async list<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    options: ListOptions & ReadOptions = {},
  ): Promise<T[]> {
    return (await this.lister<T>(gvr, options)).list(options);
  }

  async byIndex<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    indexName: string,
    value: string,
    options: ReadOptions = {},
  ): Promise<T[]> {
    return (await this.lister<T>(gvr, options)).byIndex(indexName, value);
  }

  /** The resource's lister once its informer has synced; synchronous reads from it need no further waits. */
  async lister<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    options: ReadOptions = {},
  ): Promise<Lister<T>> {
    const informer = this.#informer<T>(gvr);
    if (!informer.hasSynced) await this.#wait(informer, options);
    return informer.lister;
  }

  #informer<T extends KubeObject>(gvr: GroupVersionResource): SharedInformer<T> {
    const existing = this.manager.informer<T>(gvr);
    if (existing !== undefined) return existing;
    if (this.mode === 'strict') throw new NotCachedError(gvr, this.manager.cluster);
    const informer = this.manager.forResource<T>(gvr);
    // A lazily registered informer starts now even if the manager has not been started, or the read could only
    // time out.
    if (!informer.isStarted) informer.start();
    return informer;
  }

  async #wait<T extends KubeObject>(informer: SharedInformer<T>, options: ReadOptions): Promise<void> {
    const started = Date.now();
    let outcome: ReaderWaitOutcome = 'served';
    try {
      await informer.waitForSync({ signal: options.signal, timeoutMs: options.timeoutMs ?? this.timeoutMs });
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
