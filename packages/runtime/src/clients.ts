// The two handles a controller gets: a Reader that only reads caches (and counts the reads that had to wait
// for one), and a write-only client that refuses to write once this process is no longer the leader, so a
// deposed leader cannot race its successor even for the moments before it exits.
import type {
  GroupVersionResource,
  InformerManager,
  Reader,
  WriteMethods,
  Writer,
} from '@warmstart/informer-cache';

/** The Writer's methods (informer-cache's WriteMethods); there is no read method to call. */
export type WriteClient = WriteMethods;

export class NotLeaderError extends Error {
  constructor(controller: string) {
    super(`${controller}: refusing to write: this process is not (or no longer) the leader`);
    this.name = 'NotLeaderError';
  }
}

/** Wraps a Writer so every write first checks `isLeader()`. */
export function fencedWriter(writer: Writer, isLeader: () => boolean): WriteClient {
  const fence = <R>(write: () => Promise<R>): Promise<R> =>
    isLeader() ? write() : Promise.reject(new NotLeaderError(writer.source));
  return {
    create: (gvr, object, options) => fence(() => writer.create(gvr, object, options)),
    update: (gvr, object, options) => fence(() => writer.update(gvr, object, options)),
    updateStatus: (gvr, object, options) => fence(() => writer.updateStatus(gvr, object, options)),
    patch: (gvr, key, patch, options) => fence(() => writer.patch(gvr, key, patch, options)),
    patchStatus: (gvr, key, patch, options) => fence(() => writer.patchStatus(gvr, key, patch, options)),
    apply: (gvr, object, options) => fence(() => writer.apply(gvr, object, options)),
    delete: (gvr, key, options) => fence(() => writer.delete(gvr, key, options)),
  };
}

/** A Reader that reports to `onWait` whenever a read finds its informer not yet synced (and so waits). */
export function countingReader(
  reader: Reader,
  manager: InformerManager,
  onWait: (gvr: GroupVersionResource) => void,
): Reader {
  const note = (gvr: GroupVersionResource): void => {
    if (!manager.hasSynced(gvr)) onWait(gvr);
  };
  return {
    get: (gvr, key, options) => {
      note(gvr);
      return reader.get(gvr, key, options);
    },
    list: (gvr, options) => {
      note(gvr);
      return reader.list(gvr, options);
    },
    byIndex: (gvr, index, value, options) => {
      note(gvr);
      return reader.byIndex(gvr, index, value, options);
    },
  };
}
