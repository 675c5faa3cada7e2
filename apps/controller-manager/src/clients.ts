// The two handles a controller gets: a Reader that only reads caches (and counts the reads that had to wait
// for one), and a write-only client that refuses to write once this process is no longer the leader, so a
// deposed leader cannot race its successor even for the moments before it exits.
import type { GroupVersionResource, InformerManager, Reader, Writer } from '@warmstart/informer-cache';

/** The Writer's methods; there is no read method to call. */
export type WriteClient = Pick<
  Writer,
  'create' | 'update' | 'updateStatus' | 'patch' | 'patchStatus' | 'apply' | 'delete'
>;

export class NotLeaderError extends Error {
  constructor(controller: string) {
    super(`${controller}: refusing to write: this process is not (or no longer) the leader`);
    this.name = 'NotLeaderError';
  }
}

const WRITE_METHODS = [
  'create',
  'update',
  'updateStatus',
  'patch',
  'patchStatus',
  'apply',
  'delete',
] as const;

/** Wraps a Writer so every write first checks `isLeader()`. */
export function fencedWriter(writer: Writer, isLeader: () => boolean): WriteClient {
  const out: Partial<Record<(typeof WRITE_METHODS)[number], unknown>> = {};
  for (const m of WRITE_METHODS) {
    const fn = writer[m].bind(writer) as (...args: unknown[]) => Promise<unknown>;
    out[m] = (...args: unknown[]) => {
      if (!isLeader()) return Promise.reject(new NotLeaderError(writer.source));
      return fn(...args);
    };
  }
  return out as WriteClient;
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
