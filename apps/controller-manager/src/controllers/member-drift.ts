// Which member-side changes to an applied object matter, Karmada's way (pkg/controllers/execution's member event
// handlers and objectwatcher): an object the execution controller applied names its Work in its labels and
// annotations; a change made by anyone else (its resourceVersion is not the one recorded at our last apply) to
// anything but status or server bookkeeping sends that Work back to the execution controller, which compares the
// object with the Work's manifest and repairs it only where the manifest's own fields differ. Fields the manifest
// does not set (status, a member controller's annotations, defaults) belong to the member and are left alone.
import { Annotations, Labels, type UnstructuredObject } from '@warmstart/api';
import { LAST_APPLIED_ANNOTATION } from '@warmstart/informer-cache';
import { isRecord } from './json.js';

/** `namespace/name` of the Work a member object was applied from, when Karmada manages it. */
export function workKeyOfMemberObject(object: Readonly<UnstructuredObject>): string | undefined {
  if (object.metadata.labels?.[Labels.Managed] !== 'true') return undefined;
  const namespace = object.metadata.annotations?.[Annotations.WorkNamespace];
  const name = object.metadata.annotations?.[Annotations.WorkName];
  return namespace && name ? `${namespace}/${name}` : undefined;
}

// Written by the member's API server or controllers on every change, so they say nothing about drift.
const BOOKKEEPING = ['resourceVersion', 'managedFields', 'generation'] as const;

/** Whether an update of a member object changed more than status and server bookkeeping. */
export function isRelevantMemberChange(
  old: Readonly<UnstructuredObject>,
  next: Readonly<UnstructuredObject>,
): boolean {
  return !sameIgnoring(old, next);
}

function sameIgnoring(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (key === 'status') continue;
    if (key === 'metadata' && isRecord(a.metadata) && isRecord(b.metadata)) {
      const ma = { ...a.metadata };
      const mb = { ...b.metadata };
      for (const f of BOOKKEEPING) {
        delete ma[f];
        delete mb[f];
      }
      if (!jsonSubset(ma, mb) || !jsonSubset(mb, ma)) return false;
      continue;
    }
    if (!jsonSubset(a[key], b[key]) || !jsonSubset(b[key], a[key])) return false;
  }
  return true;
}

/**
 * Whether every field the manifest sets has the same value on the member object (status aside; labels and
 * annotations as subsets, since member controllers add their own). What the manifest leaves out is the member's.
 */
export function memberMatchesManifest(
  manifest: Readonly<UnstructuredObject>,
  member: Readonly<UnstructuredObject>,
): boolean {
  for (const [key, value] of Object.entries(manifest)) {
    if (key === 'status') continue;
    if (key === 'metadata') {
      const m = manifest.metadata;
      if (!jsonSubset(m.labels ?? {}, member.metadata.labels ?? {})) return false;
      // The member's cache drops kubectl's last-applied annotation (the informer transform): not a difference.
      const { [LAST_APPLIED_ANNOTATION]: _lastApplied, ...annotations } = m.annotations ?? {};
      if (!jsonSubset(annotations, member.metadata.annotations ?? {})) return false;
      continue;
    }
    if (!jsonSubset(value, (member as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * `want` ⊆ `have` as JSON: every key of an object in `want` is in `have` with a value that is itself a subset;
 * arrays match element by element at equal length; null or an empty object/array in `want` also matches an
 * absent value (the API server drops them).
 */
export function jsonSubset(want: unknown, have: unknown): boolean {
  if (want === undefined) return true;
  if (want === null) return have === null || have === undefined;
  if (Array.isArray(want)) {
    if (have === undefined && want.length === 0) return true;
    if (!Array.isArray(have) || have.length !== want.length) return false;
    return want.every((w, i) => jsonSubset(w, have[i]));
  }
  if (isRecord(want)) {
    if (have === undefined && Object.keys(want).length === 0) return true;
    if (!isRecord(have)) return false;
    for (const [k, v] of Object.entries(want)) if (!jsonSubset(v, have[k])) return false;
    return true;
  }
  return want === have;
}
