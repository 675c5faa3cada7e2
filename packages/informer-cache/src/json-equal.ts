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
    // Every key a sets must be equal in b, and b must set no more keys than that: no set of the keys' union
    // (controllers compare whole manifests with this, so it runs over every node of a Work at each reconcile).
    // for-in rather than Object.keys: no array per object (JSON objects have no enumerable inherited keys, and
    // the hasOwn checks keep any such key out).
    let defined = 0;
    for (const key in a) {
      if (!Object.hasOwn(a, key)) continue;
      const value = a[key];
      if (value === undefined) continue;
      defined += 1;
      if (!Object.hasOwn(b, key) || !jsonEqual(value, b[key])) return false;
    }
    for (const key in b) if (Object.hasOwn(b, key) && b[key] !== undefined) defined -= 1;
    return defined === 0;
  }
  return false;
}
