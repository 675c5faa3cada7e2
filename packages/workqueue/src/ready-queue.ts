// The keys that can be handed out now, in priority order: one FIFO bucket per priority and a heap of the
// priorities that have a bucket. Push and pop are O(1) while the priority already has a bucket and O(log p)
// when one is created or emptied (p = distinct priorities, usually two or three). A raised priority leaves a
// stale entry behind (its `queued` flag cleared) that pop skips, so raising is O(1) too. bench/ compares this
// with one binary heap keyed by (priority, sequence).
import { BinaryHeap } from './binary-heap.js';
import { Fifo } from './fifo.js';

/** One key's pending turn: created on add, handed to a worker by get, dropped at done. */
export interface QueueEntry {
  readonly key: string;
  readonly priority: number;
  /** Clock time of the add that made the key dirty; queue_duration is measured from here. */
  readonly addedAt: number;
  /** True while this entry sits in the ready queue and is the key's current entry. */
  queued: boolean;
  /** Clock time the entry was handed out; 0 until then. */
  startedAt: number;
}

export class ReadyQueue {
  readonly #buckets = new Map<number, Fifo<QueueEntry>>();
  readonly #priorities = new BinaryHeap<number>((a, b) => a > b);
  #size = 0;

  /** Entries that pop would return (stale ones excluded). */
  get size(): number {
    return this.#size;
  }

  push(entry: QueueEntry): void {
    let bucket = this.#buckets.get(entry.priority);
    if (bucket === undefined) {
      bucket = new Fifo();
      this.#buckets.set(entry.priority, bucket);
      this.#priorities.push(entry.priority);
    }
    entry.queued = true;
    bucket.push(entry);
    this.#size += 1;
  }

  /** Takes a queued entry out of turn (its priority is being raised); pop will skip it. */
  remove(entry: QueueEntry): void {
    if (!entry.queued) return;
    entry.queued = false;
    this.#size -= 1;
  }

  /** The first entry of the highest priority, or undefined when nothing is queued. */
  pop(): QueueEntry | undefined {
    for (;;) {
      const priority = this.#priorities.peek();
      if (priority === undefined) return undefined;
      const bucket = this.#buckets.get(priority) as Fifo<QueueEntry>;
      let entry = bucket.shift();
      while (entry !== undefined && !entry.queued) entry = bucket.shift();
      if (bucket.size === 0) {
        this.#buckets.delete(priority);
        this.#priorities.pop();
      }
      if (entry !== undefined) {
        entry.queued = false;
        this.#size -= 1;
        return entry;
      }
    }
  }
}
