// Equality of decoded JSON as the API server would see the two values once serialised (reflect.DeepEqual on
// the wire form): key order does not matter, and a key holding `undefined` is the same as an absent key
// (TypeScript spreads produce the former; JSON.stringify drops it). The one deep-equal of warmstart.

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!jsonEqual(a[key], b[key])) return false;
    }
    return true;
  }
  return false;
}
