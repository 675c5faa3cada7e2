// A bounded map of review outcomes with per-entry expiry. Two reviews per scrape would put a Prometheus that
// scrapes every few seconds, or a dashboard tab, on the API server's hot path; a short memory keeps that to two
// reviews per token per TTL, and the bound keeps a stream of made-up tokens from growing it without limit.

export interface ReviewCacheOptions {
  readonly maxEntries: number;
  readonly now: () => number;
}

export class ReviewCache<V> {
  readonly #entries = new Map<string, { readonly value: V; readonly expiresAt: number }>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: ReviewCacheOptions) {
    if (!Number.isInteger(options.maxEntries) || options.maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${options.maxEntries}`);
    }
    this.#maxEntries = options.maxEntries;
    this.#now = options.now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value stored under key unless it expired (an expired entry is dropped). */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    // Re-insert so the map's order is least recently used first.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
  }
}
