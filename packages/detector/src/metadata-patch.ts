import type { Labelled, MetadataChange } from './metadata-change.js';

type MapPatch = Record<string, string | null>;

function mapPatch(
  current: Readonly<Record<string, string>> | undefined,
  set: Readonly<Record<string, string>>,
  remove: readonly string[],
): MapPatch | undefined {
  const patch: MapPatch = {};
  for (const key of remove) {
    if (current !== undefined && Object.hasOwn(current, key) && !Object.hasOwn(set, key)) patch[key] = null;
  }
  for (const [key, value] of Object.entries(set)) {
    if (current?.[key] !== value) patch[key] = value;
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}

/**
 * The merge patch that turns `meta`'s labels and annotations into what `change` asks for, or undefined when
 * nothing would change. `resourceVersion`, when given, makes the patch conditional on it.
 */
export function metadataMergePatch(
  meta: Labelled,
  change: MetadataChange,
  resourceVersion?: string,
): Record<string, unknown> | undefined {
  const labels = mapPatch(meta.labels, change.setLabels, change.removeLabels);
  const annotations = mapPatch(meta.annotations, change.setAnnotations, change.removeAnnotations);
  if (labels === undefined && annotations === undefined) return undefined;
  return {
    metadata: {
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
      ...(labels === undefined ? {} : { labels }),
      ...(annotations === undefined ? {} : { annotations }),
    },
  };
}
