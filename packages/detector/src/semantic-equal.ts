// "Would this write change anything?" for JSON objects, in the spirit of apimachinery's equality.Semantic:
// an absent, null, empty-list and empty-map value are all the same (Go decodes them to the same zero value);
// everything else must be equal exactly.

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

/** Deep equality of JSON values where absent ≡ null ≡ [] ≡ {}. */
export function semanticallyEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => semanticallyEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!semanticallyEqual(a[key], b[key])) return false;
    }
    return true;
  }
  return false;
}
