// Resource event handlers, as client-go's ResourceEventHandler, and the tombstone for deletes seen only on relist.
import type { KubeObject } from './types.js';

/**
 * A delete the informer did not watch happen: the object was in the cache, then missing from a relist (for example
 * after a 410 gap). `obj` is the last state the cache knew, which may be stale.
 */
export class DeletedFinalStateUnknown<T extends KubeObject = KubeObject> {
  constructor(
    readonly key: string,
    readonly obj: T,
  ) {
    Object.freeze(this);
  }
}

/** The object of a delete notification, whether it was watched or found missing on relist. */
export function deletedObject<T extends KubeObject>(value: T | DeletedFinalStateUnknown<T>): T {
  return value instanceof DeletedFinalStateUnknown ? value.obj : value;
}

/**
 * Callbacks for changes to the cache. They run after the store has changed, in the order of the changes: at once
 * for a single change, spread over several turns of the event loop for a relist of many objects (so a lister read
 * inside them sees that state or a newer one, as in client-go). A handler added to a synced informer first gets
 * onAdd(obj, true) for every cached object, synchronously. Keep them short (enqueue a key) and do not throw.
 * Objects are frozen and shared.
 */
export interface ResourceEventHandler<T extends KubeObject = KubeObject> {
  /** Identity for isHandlerExist and removal; without it, identity is the handler object itself. */
  readonly name?: string;
  /** `isInInitialList` is true for objects of the list that first synced the informer (and on replay to a late handler). */
  onAdd?(object: T, isInInitialList: boolean): void;
  /** `oldObject === newObject` for a local resync. */
  onUpdate?(oldObject: T, newObject: T): void;
  onDelete?(object: T | DeletedFinalStateUnknown<T>): void;
}
