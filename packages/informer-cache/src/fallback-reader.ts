// LEGACY, FOR BENCHMARKS ONLY: the status quo this project replaces. While a resource's informer has not synced
// (or has none), reads go straight to the API server — a GET, or a LIST without resourceVersion — the "direct
// reads" that make a restart a read storm. Every direct read is counted. Never hand this to a real controller.
import type { CacheReader, Reader, ReadOptions } from './cache-reader.js';
import { ApiError } from './errors.js';
import { collectionPath, gvrToString, objectPath, splitKey, toKey } from './gvr.js';
import { toSelector } from './label-selector.js';
import type { ListOptions } from './lister.js';
import type { InformerManager } from './manager.js';
import type { GroupVersionResource, ObjectKey, ObjectOf } from './types.js';

export interface FallbackCacheReaderOptions {
  /** Accounting source of the direct reads; default `fallback-reader`. */
  readonly source?: string | undefined;
}

export interface DirectReadCount {
  readonly verb: 'get' | 'list';
  readonly resource: string;
  readonly count: number;
}

/** Reads from the cache once synced, from the API server before that. Counts each direct read. */
export class FallbackCacheReader implements Reader {
  readonly source: string;
  readonly #counts = new Map<string, { verb: 'get' | 'list'; resource: string; count: number }>();

  constructor(
    readonly manager: InformerManager,
    /** Used for byIndex, which the API server cannot answer: it waits for sync like the CacheReader. */
    readonly cacheReader: CacheReader,
    options: FallbackCacheReaderOptions = {},
  ) {
    this.source = options.source ?? 'fallback-reader';
  }

  /** Direct reads made so far. */
  get directReads(): number {
    let n = 0;
    for (const c of this.#counts.values()) n += c.count;
    return n;
  }

  /** Direct reads by verb and resource. */
  directReadCounts(): DirectReadCount[] {
    return [...this.#counts.values()].map((c) => ({ ...c }));
  }

  async get<D extends GroupVersionResource>(
    gvr: D,
    key: ObjectKey,
    options: ReadOptions = {},
  ): Promise<ObjectOf<D> | undefined> {
    const informer = this.manager.informer(gvr);
    if (informer?.hasSynced) return informer.lister.get(key);
    const { namespace, name } = splitKey(toKey(key));
    this.#count('get', gvr);
    try {
      const { body } = await this.manager.transport.request<ObjectOf<D>>({
        method: 'GET',
        verb: 'get',
        path: objectPath(gvr, gvr.namespaced ? namespace : undefined, name),
        source: this.source,
        resource: gvrToString(gvr),
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      });
      return body;
    } catch (error) {
      if (error instanceof ApiError && error.isNotFound) return undefined;
      throw error;
    }
  }

  async list<D extends GroupVersionResource>(
    gvr: D,
    options: ListOptions & ReadOptions = {},
  ): Promise<ObjectOf<D>[]> {
    const informer = this.manager.informer(gvr);
    if (informer?.hasSynced) return informer.lister.list(options);
    this.#count('list', gvr);
    const selector = toSelector(options.labelSelector);
    const { body } = await this.manager.transport.request<{ items?: ObjectOf<D>[] }>({
      method: 'GET',
      verb: 'list',
      path: collectionPath(gvr, options.namespace),
      // Deliberately no resourceVersion: a consistent read, as uncached clients do.
      query: { labelSelector: selector.empty ? undefined : selector.toString() },
      source: this.source,
      resource: gvrToString(gvr),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return body.items ?? [];
  }

  byIndex<D extends GroupVersionResource>(
    gvr: D,
    indexName: string,
    value: string,
    options: ReadOptions = {},
  ): Promise<ObjectOf<D>[]> {
    return this.cacheReader.byIndex(gvr, indexName, value, options);
  }

  #count(verb: 'get' | 'list', gvr: GroupVersionResource): void {
    const resource = gvrToString(gvr);
    const key = `${verb} ${resource}`;
    const entry = this.#counts.get(key);
    if (entry === undefined) this.#counts.set(key, { verb, resource, count: 1 });
    else entry.count++;
  }
}
