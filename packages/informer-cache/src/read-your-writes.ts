// Read-your-writes handles: a Writer that records what each write returned in a MutationCache, and a Reader that
// lays those objects over its cache reads until the informer catches up. Both sides must share one MutationCache;
// the Reader still reads nothing but informer stores and our own write responses.
import type { Reader } from './cache-reader.js';
import type { MutationCache } from './mutation-cache.js';
import type { GroupVersionResource, KubeObject } from './types.js';
import type { WriteOptions, Writer } from './writer.js';

/** The write methods of a Writer (and of anything that wraps one, such as a leader-fenced client). */
export type WriteMethods = Pick<
  Writer,
  'create' | 'update' | 'updateStatus' | 'patch' | 'patchStatus' | 'apply' | 'delete'
>;

/** `writer`, with every successful write (but a dry run) recorded in `cache`. */
export function recordingWriter(writer: WriteMethods, cache: MutationCache): WriteMethods {
  const recorded = <T extends KubeObject>(
    gvr: GroupVersionResource,
    options: WriteOptions | undefined,
    object: T,
  ): T => {
    if (!options?.dryRun) cache.mutated(gvr, object);
    return object;
  };
  return {
    create: async (gvr, object, options) => recorded(gvr, options, await writer.create(gvr, object, options)),
    update: async (gvr, object, options) => recorded(gvr, options, await writer.update(gvr, object, options)),
    updateStatus: async (gvr, object, options) =>
      recorded(gvr, options, await writer.updateStatus(gvr, object, options)),
    patch: async (gvr, key, patch, options) =>
      recorded(gvr, options, await writer.patch(gvr, key, patch, options)),
    patchStatus: async (gvr, key, patch, options) =>
      recorded(gvr, options, await writer.patchStatus(gvr, key, patch, options)),
    apply: async (gvr, object, options) => recorded(gvr, options, await writer.apply(gvr, object, options)),
    delete: async (gvr, key, options) => {
      const response = await writer.delete(gvr, key, options);
      if (!options?.dryRun) cache.deleted(gvr, key, response);
      return response;
    },
  };
}

/**
 * `reader`, with the objects recorded in `cache` served in place of older cached ones. The mark is taken before
 * the store read: the informer may catch up with one of our writes before the overlay runs (see mutation-cache.ts).
 */
export function readYourWritesReader(reader: Reader, cache: MutationCache): Reader {
  return {
    get: async (gvr, key, options) => {
      const since = cache.mark(gvr);
      return cache.get(gvr, key, await reader.get(gvr, key, options), since);
    },
    list: async (gvr, options) => {
      const since = cache.mark(gvr);
      return cache.list(gvr, await reader.list(gvr, options), options, since);
    },
    byIndex: async (gvr, index, value, options) => {
      const since = cache.mark(gvr);
      return cache.byIndex(gvr, index, value, await reader.byIndex(gvr, index, value, options), since);
    },
  };
}
