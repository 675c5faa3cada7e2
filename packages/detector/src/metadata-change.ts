// A change to an object's labels and annotations, computed once and applied to any object (template or
// binding). Keeping "what to add/remove" as data lets a caller log it, test it, or turn it into a patch.
import type { ObjectMeta, StringMap } from '@warmstart/api';

/** The part of an object's metadata a change touches. */
export type Labelled = Pick<ObjectMeta, 'labels' | 'annotations'>;

export interface MetadataChange {
  readonly setLabels: StringMap;
  readonly removeLabels: readonly string[];
  readonly setAnnotations: StringMap;
  readonly removeAnnotations: readonly string[];
}

export const NO_CHANGE: MetadataChange = Object.freeze({
  setLabels: {},
  removeLabels: [],
  setAnnotations: {},
  removeAnnotations: [],
});

function applyToMap(
  current: StringMap | undefined,
  set: StringMap,
  remove: readonly string[],
): StringMap | undefined {
  const next: Record<string, string> = { ...current };
  for (const key of remove) delete next[key];
  Object.assign(next, set);
  // An empty map is omitted on the wire, so it is absent here too.
  return Object.keys(next).length === 0 ? undefined : next;
}

function sameMap(a: StringMap | undefined, b: StringMap | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b ?? {}, k) && a?.[k] === b?.[k]);
}

/** The labels and annotations after the change; removals apply before additions. */
export function applyMetadataChange(
  meta: Labelled,
  change: MetadataChange,
): { readonly labels: StringMap | undefined; readonly annotations: StringMap | undefined } {
  return {
    labels: applyToMap(meta.labels, change.setLabels, change.removeLabels),
    annotations: applyToMap(meta.annotations, change.setAnnotations, change.removeAnnotations),
  };
}

/** Whether applying the change would leave the object's labels and annotations as they are. */
export function changesNothing(meta: Labelled, change: MetadataChange): boolean {
  const next = applyMetadataChange(meta, change);
  return sameMap(meta.labels, next.labels) && sameMap(meta.annotations, next.annotations);
}

/** Returns a copy of `meta` with the change applied (absent maps stay absent when they end up empty). */
export function withMetadataChange<M extends Partial<ObjectMeta>>(meta: M, change: MetadataChange): M {
  const { labels, annotations } = applyMetadataChange(meta, change);
  const { labels: _l, annotations: _a, ...rest } = meta;
  return {
    ...rest,
    ...(labels === undefined ? {} : { labels }),
    ...(annotations === undefined ? {} : { annotations }),
  } as M;
}
