// The two handles a controller gets: a Reader that only reads caches (and counts the reads that had to wait
// for one), and a write-only client that refuses to write once this process is no longer the leader, so a
// deposed leader cannot race its successor even for the moments before it exits.
import type {
  DeleteOptions,
  GroupVersionResource,
  InformerManager,
  KubeObject,
  KubeObjectInput,
  ObjectKey,
  Patch,
  Reader,
  WriteMethods,
  WriteOptions,
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
  const fence = (): void => {
    if (!isLeader()) throw new NotLeaderError(writer.source);
  };
  // Each method is written out so the wrapper keeps the Writer's generic signatures without a cast.
  return {
    create: async <T extends KubeObject = KubeObject>(
      gvr: GroupVersionResource,
      object: KubeObjectInput,
      options?: WriteOptions,
    ) => {
      fence();
      return writer.create<T>(gvr, object, options);
    },
    update: async <T extends KubeObject = KubeObject>(
      gvr: GroupVersionResource,
      object: KubeObjectInput,
      options?: WriteOptions,
    ) => {
      fence();
      return writer.update<T>(gvr, object, options);
    },
    updateStatus: async <T extends KubeObject = KubeObject>(
      gvr: GroupVersionResource,
      object: KubeObjectInput,
      options?: WriteOptions,
    ) => {
      fence();
      return writer.updateStatus<T>(gvr, object, options);
    },
    patch: async <T extends KubeObject = KubeObject>(
      gvr: GroupVersionResource,
      key: ObjectKey,
      patch: Patch,
      options?: WriteOptions,
    ) => {
      fence();
      return writer.patch<T>(gvr, key, patch, options);
    },
    patchStatus: async <T extends KubeObject = KubeObject>(
      gvr: GroupVersionResource,
      key: ObjectKey,
      patch: Patch,
      options?: WriteOptions,
    ) => {
      fence();
      return writer.patchStatus<T>(gvr, key, patch, options);
    },
    apply: async <T extends KubeObject = KubeObject>(
      gvr: GroupVersionResource,
      object: KubeObjectInput,
      options?: WriteOptions & { readonly force?: boolean | undefined },
    ) => {
      fence();
      return writer.apply<T>(gvr, object, options);
    },
    delete: async (gvr: GroupVersionResource, key: ObjectKey, options?: DeleteOptions) => {
      fence();
      return writer.delete(gvr, key, options);
    },
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
