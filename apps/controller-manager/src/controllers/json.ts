// JSON-shaped values as the controllers handle them: cached objects are frozen and shared, so anything we
// change is a deep copy first; and "unchanged" means equal as JSON, not equal as JavaScript objects.

/** A mutable JSON object, as a deep copy of a cached object is. */
export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep, unfrozen copy of a JSON value. Cached objects are frozen; this is how we get one we may change. */
export function deepCopy<T>(value: T): T {
  return structuredClone(value);
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
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return Buffer.compare(ba, bb);
}
