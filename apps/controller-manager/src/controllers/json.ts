// JSON-shaped values as the controllers handle them: cached objects are frozen and shared, so anything we
// change is a deep copy first; and "unchanged" means equal as JSON, not equal as JavaScript objects.

/** A mutable JSON object, as a deep copy of a cached object is. */
export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A deep, unfrozen copy of a JSON value. Cached objects are frozen; this is how we get one we may change.
 * A plain walk, not structuredClone: for a Deployment it is about ten times faster (5 vs 56 µs), and the binding
 * controller copies every template once per member while it works through a restart's backlog (a CPU profile
 * of a 2,000-workload restart had structuredClone at 1.1 s of the 10 s the manager was busy).
 */
export function deepCopy<T>(value: T): T {
  return copyJson(value) as T;
}

function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const copied = copyJson((value as JsonObject)[key]);
    // A "__proto__" key (JSON.parse makes it an own property) must stay data, not become the prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = copied;
  }
  return out;
}

/** JSON equality: the one deep-equal, from @warmstart/informer-cache. */
export { jsonEqual } from '@warmstart/informer-cache';

/** A string map field (labels, annotations) of a JSON object, copied; absent or malformed gives {}. */
export function stringMapOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(value)) return out;
  for (const [key, v] of Object.entries(value)) if (typeof v === 'string') out[key] = v;
  return out;
}

/** Go's sort.Strings order (byte-wise), which is what Karmada's recorded key lists use. */
export function compareStrings(a: string, b: string): number {
  // Below U+D800, UTF-16 code units and UTF-8 bytes sort alike, so label and annotation keys (ASCII) are
  // compared in place; only a surrogate or a later code unit needs the UTF-8 bytes themselves. The stamps of
  // every Work sort two key lists with this, and encoding each key for each comparison was most of their cost.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca >= 0xd800 || cb >= 0xd800) return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
    if (ca !== cb) return ca < cb ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/**
 * `keys` sorted in place in Go's sort.Strings order. When no key holds a surrogate or a later code unit, that
 * is the engine's own string order (UTF-16 code units sort as UTF-8 bytes below U+D800), which needs no
 * comparator call per pair; otherwise each pair is compared as UTF-8 bytes.
 */
export function sortStrings(keys: string[]): string[] {
  for (const key of keys) if (BEYOND_D7FF.test(key)) return keys.sort(compareStrings);
  return keys.sort();
}

const BEYOND_D7FF = /[\ud800-\uffff]/;
