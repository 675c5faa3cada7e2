// A ResourceEventHandler that writes down every notification, so a test can check what handlers were told (not
// only what the store holds): adds per key, tombstones, and the state obtained by replaying the notifications.
import {
  DeletedFinalStateUnknown,
  type KubeObject,
  keyOf,
  type ResourceEventHandler,
} from '@warmstart/informer-cache';
import { Recorder } from '@warmstart/informer-cache/testing';

export type Notification =
  | { readonly type: 'add'; readonly key: string; readonly rv: string; readonly initial: boolean }
  | { readonly type: 'update'; readonly key: string; readonly rv: string; readonly oldRv: string }
  | { readonly type: 'delete'; readonly key: string; readonly tombstone: boolean };

export class HandlerLog<T extends KubeObject = KubeObject> implements ResourceEventHandler<T> {
  readonly name: string;
  readonly notes = new Recorder<Notification>();
  /** Every object a handler received, as received (to check what the transform left in it). */
  readonly objects: T[] = [];
  /** key -> resourceVersion, built only from the notifications. */
  readonly replayed = new Map<string, string>();
  readonly #adds = new Map<string, number>();

  constructor(name: string) {
    this.name = name;
  }

  onAdd = (object: T, initial: boolean): void => {
    const key = keyOf(object);
    this.objects.push(object);
    this.#adds.set(key, (this.#adds.get(key) ?? 0) + 1);
    this.replayed.set(key, object.metadata.resourceVersion ?? '');
    this.notes.push({ type: 'add', key, rv: object.metadata.resourceVersion ?? '', initial });
  };

  onUpdate = (old: T, object: T): void => {
    const key = keyOf(object);
    this.objects.push(object);
    this.replayed.set(key, object.metadata.resourceVersion ?? '');
    this.notes.push({
      type: 'update',
      key,
      rv: object.metadata.resourceVersion ?? '',
      oldRv: old.metadata.resourceVersion ?? '',
    });
  };

  onDelete = (object: T | DeletedFinalStateUnknown<T>): void => {
    const tombstone = object instanceof DeletedFinalStateUnknown;
    const key = tombstone ? object.key : keyOf(object);
    this.replayed.delete(key);
    this.notes.push({ type: 'delete', key, tombstone });
  };

  /** Keys that were added more than once, with their counts. */
  duplicateAdds(): string[] {
    return [...this.#adds].filter(([, n]) => n > 1).map(([k, n]) => `${k} x${n}`);
  }

  adds(key: string): number {
    return this.#adds.get(key) ?? 0;
  }

  /** Resolves at the first add of `key` (past or future); rejects after `timeoutMs`. */
  async added(key: string, timeoutMs: number): Promise<void> {
    await this.notes.waitFor((n) => n.type === 'add' && n.key === key, timeoutMs, `add of ${key}`);
  }

  deletes(key: string): Notification[] {
    return this.notes.values.filter((n) => n.type === 'delete' && n.key === key);
  }
}
