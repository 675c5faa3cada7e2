// The write that turns a cached binding into the one Karmada's mutate function produced, as a JSON merge patch
// of the difference (Karmada's scheduler patches the same way, helper.GenMergePatch) instead of a full update
// with the cached resourceVersion. The detector owns the fields it changes; the scheduler owns spec.clusters and
// status, which the difference never holds. So a scheduler write between our read and our write is no conflict:
// under churn the update made most of the detector's binding writes fail with 409. Lists are replaced whole by
// a merge patch, so a change of finalizers or ownerReferences keeps the cached resourceVersion as precondition.
import { semanticallyEqual } from './semantic-equal.js';

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 7386 merge patch from `from` to `to`: changed keys, nested objects diffed, removed keys set to null. */
export function mergePatchOf(from: Json, to: Json): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
    const a = from[key];
    const b = to[key];
    if (semanticallyEqual(a, b)) continue;
    if (b === undefined) patch[key] = null;
    else if (isObject(a) && isObject(b)) patch[key] = mergePatchOf(a, b);
    else patch[key] = b;
  }
  return patch;
}

/** The merge patch that writes `mutated` over `existing`, a binding as the cache holds it. */
export function bindingMergePatch(
  existing: { readonly metadata: object; readonly spec: object },
  mutated: { readonly metadata: object; readonly spec: object },
): Record<string, unknown> {
  const { resourceVersion, ...fromMeta }: { resourceVersion?: unknown } = existing.metadata;
  const { resourceVersion: _to, ...toMeta }: { resourceVersion?: unknown } = mutated.metadata;
  const patch = mergePatchOf(
    { metadata: fromMeta, spec: { ...existing.spec } },
    { metadata: toMeta, spec: { ...mutated.spec } },
  );
  const metadata = patch.metadata;
  if (isObject(metadata) && ('finalizers' in metadata || 'ownerReferences' in metadata))
    patch.metadata = { ...metadata, resourceVersion };
  return patch;
}
