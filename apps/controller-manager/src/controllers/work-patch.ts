// The write that brings an existing Work to the desired one, as a JSON merge patch rather than Karmada's full
// update: it names only what the binding controller owns (its labels and annotations, the spec), so it carries
// no resourceVersion and cannot fail with 409 Conflict because something else (the execution controller's
// status, another label) changed the Work since the cache saw it. The result on the server is the same as the
// update's. Only a missing finalizer (a list the patch must replace whole) makes it conditional on the version.
import type { Work } from '@warmstart/api';
import { deepCopy, type JsonObject } from './json.js';

export function workMergePatch(existing: Readonly<Work>, desired: Readonly<Work>): JsonObject {
  const metadata: JsonObject = {};
  const changed = (
    want: Readonly<Record<string, string>> | undefined,
    have: Readonly<Record<string, string>> | undefined,
  ) => Object.fromEntries(Object.entries(want ?? {}).filter(([k, v]) => have?.[k] !== v));
  const labels = changed(desired.metadata.labels, existing.metadata.labels);
  if (Object.keys(labels).length > 0) metadata.labels = labels;
  const annotations = changed(desired.metadata.annotations, existing.metadata.annotations);
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  const finalizers = existing.metadata.finalizers ?? [];
  const missing = (desired.metadata.finalizers ?? []).filter((f) => !finalizers.includes(f));
  if (missing.length > 0) {
    metadata.finalizers = [...finalizers, ...missing];
    metadata.resourceVersion = existing.metadata.resourceVersion;
  }
  // The desired spec whole, and null for what it no longer sets (a merge patch removes a key set to null).
  const spec: JsonObject = deepCopy(desired.spec) as JsonObject;
  for (const key of Object.keys(existing.spec ?? {})) if (!Object.hasOwn(spec, key)) spec[key] = null;
  return Object.keys(metadata).length > 0 ? { metadata, spec } : { spec };
}
