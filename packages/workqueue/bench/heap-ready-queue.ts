// The alternative to src/ready-queue.ts that the bench measures it against: one binary heap of every queued
// entry, keyed by (priority desc, sequence asc). Same contract: push, remove (lazy), pop.
import { BinaryHeap } from '../src/binary-heap.js';
import type { QueueEntry } from '../src/ready-queue.js';

interface Slot {
  readonly entry: QueueEntry;
  readonly seq: number;
}

export class HeapReadyQueue {
  readonly #heap = new BinaryHeap<Slot>(
    (a, b) => a.entry.priority > b.entry.priority || (a.entry.priority === b.entry.priority && a.seq < b.seq),
  );
  #seq = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(entry: QueueEntry): void {
    entry.queued = true;
    this.#heap.push({ entry, seq: this.#seq++ });
    this.#size += 1;
  }

  remove(entry: QueueEntry): void {
    if (!entry.queued) return;
    entry.queued = false;
    this.#size -= 1;
  }

  pop(): QueueEntry | undefined {
    for (let slot = this.#heap.pop(); slot !== undefined; slot = this.#heap.pop()) {
      if (!slot.entry.queued) continue;
      slot.entry.queued = false;
      this.#size -= 1;
      return slot.entry;
    }
    return undefined;
  }
}
