// MutationCache: the objects our own writes returned, laid over the informer stores until the informers catch up
// (client-go's MutationCache idea), so a reconcile that runs again before its own write reaches the cache sees that
// write instead of acting on the older state (a second create answered 409 AlreadyExists, a second status write).
// It only ever holds write responses: nothing in it was read from the API server.
//
// A read is two steps, the store's answer and then the overlay, with `await`s in between. An informer event applied
// in between (a reflector resuming in the same event-loop turn as the reading worker) can bring the store up to one
// of our writes: the overlay then drops the write as caught up, while the answer in hand predates it. So a reader
// marks the informer's position before the store read (`mark`), and when the informer has moved on by the overlay,
// the overlay reads the store again, in the same synchronous step as its own look at the entries.
import { realClock } from './clock.js';
import { gvrToString, toKey } from './gvr.js';
import type { SharedInformer } from './informer.js';
import { toSelector } from './label-selector.js';
import type { ListOptions } from './lister.js';
import type { InformerManager } from './manager.js';
import { defaultTransform, freezeDeep, type Transform } from './transform.js';
import type { GroupVersionResource, KubeObject, ObjectKey } from './types.js';

export interface MutationCacheOptions {
  /**
   * How long a written object is served at most. An informer normally catches up within milliseconds; this bounds
   * what a write the informer never delivers (filtered out, deleted and re-created elsewhere) can hide. Default 2 min.
   */
  readonly ttlMs?: number | undefined;
  /** At most this many written objects are held; the oldest go first. Default 10,000. */
  readonly maxEntries?: number | undefined;
  readonly clock?: { now(): number } | undefined;
}

export const DEFAULT_MUTATION_TTL_MS = 120_000;
export const DEFAULT_MUTATION_MAX_ENTRIES = 10_000;

// How many of the oldest entries each write checks for having been caught up with: keeps the cache about as large
// as the informers' lag without a timer.
const SWEEP_PER_WRITE = 16;

type Entry =
  | {
      readonly kind: 'object';
      readonly informer: SharedInformer;
      readonly resource: string;
      readonly key: string;
      readonly object: KubeObject;
      readonly rv: string;
      readonly expiresAt: number;
    }
  | {
      // Our delete: hides the object at or below `rv` until the store drops it or holds something newer.
      readonly kind: 'deleted';
      readonly informer: SharedInformer;
      readonly resource: string;
      readonly key: string;
      readonly rv: string;
      readonly expiresAt: number;
    };

export class MutationCache {
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly #manager: InformerManager;
  readonly #clock: { now(): number };
  // Oldest write first (an entry is re-inserted when written again), so expiry and the bound evict from the front.
  readonly #entries = new Map<string, Entry>();
  // The same entries by resource, for list and index overlays.
  readonly #byResource = new Map<string, Map<string, Entry>>();

  constructor(manager: InformerManager, options: MutationCacheOptions = {}) {
    this.#manager = manager;
    this.ttlMs = options.ttlMs ?? DEFAULT_MUTATION_TTL_MS;
    this.maxEntries = options.maxEntries ?? DEFAULT_MUTATION_MAX_ENTRIES;
    this.#clock = options.clock ?? realClock;
  }

  /** Written objects (and deletes) held now. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Records an object a create, update, patch or apply returned. Ignored for a resource no informer caches here,
   * an object without a numeric resourceVersion, or one the informer (or an earlier write) already has as new.
   */
  mutated(gvr: GroupVersionResource, object: KubeObject): void {
    const informer = this.#manager.informer(gvr);
    const rv = object.metadata?.resourceVersion;
    if (informer === undefined || !isVersion(rv)) return;
    const resource = gvrToString(gvr);
    const key = toKey({ namespace: object.metadata.namespace, name: object.metadata.name });
    if (!newer(rv, watermark(informer))) return;
    const stored = informer.store.get(key);
    if (stored !== undefined && !newer(rv, stored.metadata.resourceVersion)) return;
    const held = this.#byResource.get(resource)?.get(key);
    if (held !== undefined && !newer(rv, held.rv)) return;
    const prepared = freezeDeep(transformOf(informer)(structuredClone(object)));
    this.#put({ kind: 'object', informer, resource, key, object: prepared, rv, expiresAt: this.#expiry() });
  }

  /**
   * Records a delete of `key`. `response` is the DELETE's answer: an object still carrying finalizers is recorded
   * as written; otherwise the key reads as absent until the informer drops it (or holds a newer object).
   */
  deleted(gvr: GroupVersionResource, key: ObjectKey, response?: unknown): void {
    const informer = this.#manager.informer(gvr);
    if (informer === undefined) return;
    if (isObject(response) && response.metadata.deletionTimestamp !== undefined) {
      this.mutated(gvr, response);
      return;
    }
    const resource = gvrToString(gvr);
    const k = toKey(key);
    let rv = isObject(response) ? response.metadata.resourceVersion : undefined;
    for (const known of [
      informer.store.get(k)?.metadata.resourceVersion,
      this.#byResource.get(resource)?.get(k)?.rv,
    ]) {
      if (isVersion(known) && (!isVersion(rv) || newer(known, rv))) rv = known;
    }
    if (!isVersion(rv)) {
      this.#remove(resource, k);
      return;
    }
    this.#put({ kind: 'deleted', informer, resource, key: k, rv, expiresAt: this.#expiry() });
  }

  /**
   * Where `gvr`'s informer is now, to take before reading its store and to pass with the answer (`since`): an
   * answer from a store the informer has moved on from is read again before the overlay (see the top of the file).
   */
  mark(gvr: GroupVersionResource): string {
    return this.#manager.informer(gvr)?.lastSyncResourceVersion ?? '';
  }

  /**
   * The newer of the store's object and our last write of it; undefined when our delete is newer. `stored` is
   * read again from the store when the informer moved on after `since` (`mark`) was taken.
   */
  get<T extends KubeObject>(
    gvr: GroupVersionResource,
    key: ObjectKey,
    stored: T | undefined,
    since?: string,
  ): T | undefined {
    const resource = gvrToString(gvr);
    const entry = this.#live(resource, toKey(key));
    if (entry !== undefined) return entry.kind === 'deleted' ? undefined : (entry.object as T);
    const moved = this.#movedSince(gvr, since);
    return moved === undefined ? stored : (moved.lister.get(key) as T | undefined);
  }

  /**
   * `stored` (a list from the store) with our newer writes in place, our creates added and our deletes removed;
   * `since` as in `get`.
   */
  list<T extends KubeObject>(
    gvr: GroupVersionResource,
    stored: T[],
    options: ListOptions = {},
    since?: string,
  ): T[] {
    const selector = toSelector(options.labelSelector);
    return this.#overlay(
      gvr,
      stored,
      since,
      (informer) => informer.lister.list(options) as T[],
      (o) =>
        (options.namespace === undefined || (o.metadata.namespace ?? '') === options.namespace) &&
        selector.matches(o.metadata.labels),
    );
  }

  /** `stored` (objects of an index value) overlaid as `list`, by the informer's own index function. */
  byIndex<T extends KubeObject>(
    gvr: GroupVersionResource,
    indexName: string,
    value: string,
    stored: T[],
    since?: string,
  ): T[] {
    const informer = this.#manager.informer(gvr);
    if (informer === undefined) return stored;
    return this.#overlay(
      gvr,
      stored,
      since,
      (i) => i.lister.byIndex(indexName, value) as T[],
      (o) => informer.store.indexValues(indexName, o).includes(value),
    );
  }

  /**
   * The informer, when it has synced and moved on since the mark `since` was taken: an answer read from its store
   * before may be older than a write the overlay now finds caught up, so the store is read again. Undefined when
   * the answer stands (no mark given, the store has not moved, or the informer has not synced).
   */
  #movedSince(gvr: GroupVersionResource, since: string | undefined): SharedInformer | undefined {
    if (since === undefined) return undefined;
    const informer = this.#manager.informer(gvr);
    if (informer === undefined || !informer.hasSynced) return undefined;
    return informer.lastSyncResourceVersion === since ? undefined : informer;
  }

  #overlay<T extends KubeObject>(
    gvr: GroupVersionResource,
    answer: T[],
    since: string | undefined,
    reread: (informer: SharedInformer) => T[],
    matches: (o: KubeObject) => boolean,
  ): T[] {
    const moved = this.#movedSince(gvr, since);
    const stored = moved === undefined ? answer : reread(moved);
    const resource = gvrToString(gvr);
    const held = this.#byResource.get(resource);
    if (held === undefined || held.size === 0) return stored;
    const live = new Map<string, Entry>();
    for (const key of [...held.keys()]) {
      const entry = this.#live(resource, key);
      if (entry !== undefined) live.set(key, entry);
    }
    if (live.size === 0) return stored;
    const out: T[] = [];
    for (const object of stored) {
      const key = toKey({ namespace: object.metadata.namespace, name: object.metadata.name });
      const entry = live.get(key);
      if (entry === undefined) {
        out.push(object);
        continue;
      }
      live.delete(key);
      if (entry.kind === 'object' && matches(entry.object)) out.push(entry.object as T);
    }
    // What is left was written by us and is not in the store's answer yet (created, or now matching).
    for (const entry of live.values()) {
      if (entry.kind === 'object' && matches(entry.object)) out.push(entry.object as T);
    }
    return out;
  }

  /** The entry for a key if it is still newer than what the informer has; drops it otherwise. */
  #live(resource: string, key: string): Entry | undefined {
    const entry = this.#byResource.get(resource)?.get(key);
    if (entry === undefined) return undefined;
    if (this.#obsolete(entry)) {
      this.#remove(resource, key);
      return undefined;
    }
    return entry;
  }

  #obsolete(entry: Entry): boolean {
    if (this.#clock.now() >= entry.expiresAt) return true;
    const { informer } = entry;
    const stored = informer.store.get(entry.key);
    if (entry.kind === 'object') {
      // The informer has seen the store at or past our write: whatever it holds (even nothing) is authoritative.
      if (!newer(entry.rv, watermark(informer))) return true;
      return stored !== undefined && !newer(entry.rv, stored.metadata.resourceVersion);
    }
    if (stored !== undefined) return newer(stored.metadata.resourceVersion ?? '', entry.rv);
    return !newer(entry.rv, watermark(informer));
  }

  #put(entry: Entry): void {
    const id = `${entry.resource}|${entry.key}`;
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    let held = this.#byResource.get(entry.resource);
    if (held === undefined) {
      held = new Map();
      this.#byResource.set(entry.resource, held);
    }
    held.set(entry.key, entry);
    this.#sweep();
  }

  #remove(resource: string, key: string): void {
    this.#entries.delete(`${resource}|${key}`);
    this.#byResource.get(resource)?.delete(key);
  }

  /** Evicts over the bound, then drops the oldest entries the informers have caught up with or that expired. */
  #sweep(): void {
    while (this.#entries.size > this.maxEntries) {
      const first = this.#entries.values().next().value;
      if (first === undefined) break;
      this.#remove(first.resource, first.key);
    }
    let checked = 0;
    for (const entry of this.#entries.values()) {
      if (checked++ >= SWEEP_PER_WRITE || !this.#obsolete(entry)) break;
      this.#remove(entry.resource, entry.key);
    }
  }

  #expiry(): number {
    return this.#clock.now() + this.ttlMs;
  }
}

/** The resourceVersion up to which the informer's store reflects the server ('' before its first list). */
function watermark(informer: SharedInformer): string {
  return informer.lastSyncResourceVersion;
}

function transformOf(informer: SharedInformer): Transform {
  return informer.transform ?? defaultTransform;
}

// Kubernetes resourceVersions are opaque, but etcd-backed ones are decimal integers, and only those can be
// compared (client-go's MutationCache makes the same assumption). Anything else is not held: the store wins.
const DECIMAL = /^(0|[1-9][0-9]*)$/;

function isVersion(rv: unknown): rv is string {
  return typeof rv === 'string' && DECIMAL.test(rv);
}

/** True when `a` is a later resourceVersion than `b`; a non-numeric `b` ('' before a list) is older than any. */
function newer(a: string, b: string | undefined): boolean {
  if (!isVersion(b)) return true;
  if (a.length !== b.length) return a.length > b.length;
  return a > b;
}

function isObject(value: unknown): value is KubeObject {
  if (typeof value !== 'object' || value === null) return false;
  const metadata = (value as { metadata?: unknown }).metadata;
  return (
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof (metadata as { name?: unknown }).name === 'string' &&
    (value as { kind?: unknown }).kind !== 'Status'
  );
}
