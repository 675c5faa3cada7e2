// The JSON merge patch (RFC 7386) that turns one JSON object into another: what the binding status controller
// sends when a template's status is replaced rather than added to (a key the new status lacks is removed), without
// a read-modify-write update that could conflict with a stale cache.
import { isRecord, type JsonObject, jsonEqual } from './json.js';

/** The merge patch from `from` to `to`: removed keys as null, changed values whole, nested objects recursively. */
export function mergePatch(from: Readonly<JsonObject>, to: Readonly<JsonObject>): JsonObject {
  const patch: JsonObject = {};
  for (const key of Object.keys(from)) if (!(key in to) && from[key] !== null) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const old = from[key];
    if (isRecord(old) && isRecord(value)) {
      const nested = mergePatch(old, value);
      if (Object.keys(nested).length > 0) patch[key] = nested;
    } else if (!jsonEqual(old ?? null, value ?? null)) {
      patch[key] = value;
    }
  }
  return patch;
}

/** Whether two statuses are the same as the API server would serve them (a null field is the same as none). */
export function sameStatus(a: unknown, b: unknown): boolean {
  return jsonEqual(withoutNulls(a), withoutNulls(b));
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isRecord(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) if (v !== null && v !== undefined) out[key] = withoutNulls(v);
  return out;
}
