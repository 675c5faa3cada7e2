// The informer's Store: objects keyed `namespace/name`, secondary indexes, and the application of reflector events.
// A relist fills a side buffer that replaces the maps in one synchronous step, so readers never see half a list.
// The buffer is indexed as its objects arrive, page by page, so the swap itself does no per-object work: at
// 100,000 objects building the indexes at the swap held the event loop for ~50-150 ms.
import type { ReflectorEvent } from './events.js';
import { keyOf } from './gvr.js';
import { DeletedFinalStateUnknown } from './handlers.js';
import type { KubeObject } from './types.js';

/** Computes the index values of an object (client-go's IndexFunc). Must be pure and must not throw. */
export type IndexFunc<T extends KubeObject = KubeObject> = (object: T) => readonly string[];

/** The built-in index every store has: objects by `metadata.namespace` ('' for cluster-scoped objects). */
export const NAMESPACE_INDEX = 'namespace';

export const namespaceIndexFunc: IndexFunc = (object) => [object.metadata.namespace ?? ''];

/** The read side of a store (client-go's Indexer). Returned objects are frozen and shared, never copies. */
export interface Indexer<T extends KubeObject = KubeObject> {
  readonly size: number;
  get(key: string): T | undefined;
  has(key: string): boolean;
  list(): T[];
  listKeys(): string[];
  /** Objects whose index `indexName` includes `value`. Throws for an unknown index. */
  byIndex(indexName: string, value: string): T[];
  /** Keys of the objects whose index `indexName` includes `value`. */
  indexKeys(indexName: string, value: string): string[];
  /** Every value index `indexName` currently holds. */
  listIndexValues(indexName: string): string[];
  indexNames(): string[];
  /** The values index `indexName` computes for `object` (which need not be in the store). */
  indexValues(indexName: string, object: T): readonly string[];
}

/** Where the store reports the changes it applied; the informer forwards them to handlers. */
export interface StoreSink<T extends KubeObject> {
  added(object: T, isInInitialList: boolean): void;
  updated(oldObject: T, newObject: T): void;
  deleted(object: T | DeletedFinalStateUnknown<T>): void;
  /**
   * A relist's changes, all at once, for a sink that reports them later and bit by bit: `changes.report(i, to)`
   * reports the i-th of `changes.count` as the calls above would, in the same order. Without it the store makes
   * those calls itself, one per object, before the swap returns.
   */
  replaced?(changes: RelistChanges<T>): void;
}

/**
 * What a relist changed, computed as it is reported: the objects listed, in list order, then the objects the list
 * no longer holds. Both are copies taken at the swap, so later watch events do not alter them.
 */
export class RelistChanges<T extends KubeObject> {
  readonly count: number;
  readonly #keys: readonly string[];
  readonly #objects: readonly T[];
  readonly #previous: ReadonlyMap<string, T>;
  readonly #gone: readonly (readonly [string, T])[];
  readonly #firstSync: boolean;

  constructor(previous: ReadonlyMap<string, T>, next: ReadonlyMap<string, T>, firstSync: boolean) {
    this.#keys = Array.from(next.keys());
    this.#objects = Array.from(next.values());
    this.#previous = previous;
    const gone: [string, T][] = [];
    if (previous.size > 0) for (const entry of previous) if (!next.has(entry[0])) gone.push(entry);
    this.#gone = gone;
    this.#firstSync = firstSync;
    this.count = this.#keys.length + gone.length;
  }

  /** Reports change `i` (0 <= i < count) to `to`; an object unchanged since the last list reports nothing. */
  report(i: number, to: Omit<StoreSink<T>, 'replaced'>): void {
    const listed = this.#keys.length;
    if (i >= listed) {
      const entry = this.#gone[i - listed];
      if (entry !== undefined) to.deleted(new DeletedFinalStateUnknown(entry[0], entry[1]));
      return;
    }
    const key = this.#keys[i] as string;
    const object = this.#objects[i] as T;
    const old = this.#previous.get(key);
    if (old === undefined) to.added(object, this.#firstSync);
    else if (old === object) return;
    else if (old.metadata.uid !== object.metadata.uid) {
      to.deleted(new DeletedFinalStateUnknown(key, old));
      to.added(object, false);
    } else to.updated(old, object);
  }
}

interface Index<T extends KubeObject> {
  readonly fn: IndexFunc<T>;
  values: Map<string, Set<string>>;
}

export class UnknownIndexError extends Error {
  constructor(name: string, known: readonly string[]) {
    super(
      `no index named "${name}" (known: ${known.join(', ')}); add it with addIndexers before reading by it`,
    );
    this.name = 'UnknownIndexError';
  }
}

const NO_VALUES: readonly string[] = [];

/** A keyed, indexed store of frozen objects that applies ReflectorEvents. */
export class Store<T extends KubeObject = KubeObject> implements Indexer<T> {
  #items = new Map<string, T>();
  #indexes = new Map<string, Index<T>>();
  #buffer: { readonly items: Map<string, T>; readonly indexes: Map<string, Index<T>> } | undefined;
  #synced = false;
  #resourceVersion = '';

  constructor(indexers: Readonly<Record<string, IndexFunc<T>>> = {}) {
    this.#indexes.set(NAMESPACE_INDEX, { fn: namespaceIndexFunc, values: new Map() });
    this.addIndexers(indexers);
  }

  /** Adds indexes; existing objects are indexed at once. Adding an existing name with another function throws. */
  addIndexers(indexers: Readonly<Record<string, IndexFunc<T>>>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      const existing = this.#indexes.get(name);
      if (existing !== undefined) {
        if (existing.fn === fn) continue;
        throw new Error(`index "${name}" already exists with another function`);
      }
      const index: Index<T> = { fn, values: new Map() };
      for (const [key, object] of this.#items) addToIndex(index, key, safeValues(fn, object));
      this.#indexes.set(name, index);
      if (this.#buffer !== undefined) {
        const pending: Index<T> = { fn, values: new Map() };
        for (const [key, object] of this.#buffer.items) addToIndex(pending, key, safeValues(fn, object));
        this.#buffer.indexes.set(name, pending);
      }
    }
  }

  /** True once an `init-done` has been applied. */
  get synced(): boolean {
    return this.#synced;
  }

  /** The resourceVersion of the last completed list. */
  get resourceVersion(): string {
    return this.#resourceVersion;
  }

  /** Objects received so far by an unfinished relist; undefined when none is running. */
  get pendingSize(): number | undefined {
    return this.#buffer?.items.size;
  }

  get size(): number {
    return this.#items.size;
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  has(key: string): boolean {
    return this.#items.has(key);
  }

  list(): T[] {
    return [...this.#items.values()];
  }

  listKeys(): string[] {
    return [...this.#items.keys()];
  }

  /** Calls `fn` for every object without building an array. */
  forEach(fn: (object: T, key: string) => void): void {
    for (const [key, object] of this.#items) fn(object, key);
  }

  byIndex(indexName: string, value: string): T[] {
    const keys = this.#index(indexName).values.get(value);
    if (keys === undefined) return [];
    const out: T[] = [];
    for (const key of keys) {
      const object = this.#items.get(key);
      if (object !== undefined) out.push(object);
    }
    return out;
  }

  indexKeys(indexName: string, value: string): string[] {
    const keys = this.#index(indexName).values.get(value);
    return keys === undefined ? [] : [...keys];
  }

  listIndexValues(indexName: string): string[] {
    return [...this.#index(indexName).values.keys()];
  }

  indexNames(): string[] {
    return [...this.#indexes.keys()];
  }

  indexValues(indexName: string, object: T): readonly string[] {
    return safeValues(this.#index(indexName).fn, object);
  }

  /** Applies one reflector event, reporting what changed to `sink` after the store reflects it. */
  apply(event: ReflectorEvent<T>, sink?: StoreSink<T>): void {
    switch (event.type) {
      case 'init': {
        const indexes = new Map<string, Index<T>>();
        for (const [name, { fn }] of this.#indexes) indexes.set(name, { fn, values: new Map() });
        this.#buffer = { items: new Map(), indexes };
        return;
      }
      case 'init-apply': {
        if (this.#buffer === undefined)
          throw new Error('init-apply without init: the reflector broke the protocol');
        const key = keyOf(event.object);
        const old = this.#items.get(key);
        // An object unchanged since the last list keeps its instance: the new copy becomes garbage at once, and
        // handlers can tell "unchanged" by identity.
        const object = old !== undefined && sameVersion(old, event.object) ? old : event.object;
        const { items, indexes } = this.#buffer;
        const listedBefore = items.get(key);
        items.set(key, object);
        reindex(indexes, key, listedBefore, object);
        return;
      }
      case 'init-done':
        this.#replace(event.resourceVersion, sink);
        return;
      case 'apply': {
        const key = keyOf(event.object);
        const old = this.#items.get(key);
        this.#items.set(key, event.object);
        reindex(this.#indexes, key, old, event.object);
        if (sink === undefined) return;
        if (old === undefined) sink.added(event.object, false);
        else if (old.metadata.uid !== event.object.metadata.uid) {
          // Deleted and re-created while we were not looking: tell handlers both halves.
          sink.deleted(new DeletedFinalStateUnknown(key, old));
          sink.added(event.object, false);
        } else sink.updated(old, event.object);
        return;
      }
      case 'delete': {
        const key = keyOf(event.object);
        const old = this.#items.get(key);
        if (old === undefined) return;
        this.#items.delete(key);
        reindex(this.#indexes, key, old, undefined);
        sink?.deleted(event.object);
        return;
      }
    }
  }

  #replace(resourceVersion: string, sink: StoreSink<T> | undefined): void {
    const buffer = this.#buffer;
    if (buffer === undefined) throw new Error('init-done without init: the reflector broke the protocol');
    this.#buffer = undefined;
    const previous = this.#items;
    const { items: next, indexes } = buffer;
    const firstSync = !this.#synced;
    // The swap: two assignments in one synchronous step.
    this.#items = next;
    this.#indexes = indexes;
    this.#synced = true;
    this.#resourceVersion = resourceVersion;
    if (sink === undefined) return;
    const changes = new RelistChanges(previous, next, firstSync);
    if (sink.replaced !== undefined) sink.replaced(changes);
    else for (let i = 0; i < changes.count; i++) changes.report(i, sink);
  }

  #index(name: string): Index<T> {
    const index = this.#indexes.get(name);
    if (index === undefined) throw new UnknownIndexError(name, [...this.#indexes.keys()]);
    return index;
  }
}

function reindex<T extends KubeObject>(
  indexes: Map<string, Index<T>>,
  key: string,
  old: T | undefined,
  next: T | undefined,
): void {
  for (const index of indexes.values()) {
    const before = old === undefined ? NO_VALUES : safeValues(index.fn, old);
    const after = next === undefined ? NO_VALUES : safeValues(index.fn, next);
    if (sameValues(before, after)) continue;
    removeFromIndex(index, key, before);
    addToIndex(index, key, after);
  }
}

function sameVersion(a: KubeObject, b: KubeObject): boolean {
  return a.metadata.uid === b.metadata.uid && a.metadata.resourceVersion === b.metadata.resourceVersion;
}

function safeValues<T extends KubeObject>(fn: IndexFunc<T>, object: T): readonly string[] {
  try {
    return fn(object);
  } catch {
    // An index function that throws must not take the informer down; the object is simply not indexed.
    return NO_VALUES;
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function addToIndex<T extends KubeObject>(index: Index<T>, key: string, values: readonly string[]): void {
  for (const value of values) {
    let keys = index.values.get(value);
    if (keys === undefined) {
      keys = new Set();
      index.values.set(value, keys);
    }
    keys.add(key);
  }
}

function removeFromIndex<T extends KubeObject>(
  index: Index<T>,
  key: string,
  values: readonly string[],
): void {
  for (const value of values) {
    const keys = index.values.get(value);
    if (keys === undefined) continue;
    keys.delete(key);
    if (keys.size === 0) index.values.delete(value);
  }
}
