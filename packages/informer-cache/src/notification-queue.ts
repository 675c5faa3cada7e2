// Handlers hear of store changes in the order the store made them, but not always in the same turn of the event
// loop. A relist swaps the store in one synchronous step and then owes every handler one notification per object;
// at 50,000 objects and three handlers that was ~150 ms of unbroken work (twice that at 100,000), during which
// probes, Lease renewals and watch streams all waited. Notifications run at once while the turn's slice lasts;
// the rest follow after the event loop has had a turn, ahead of anything that arrives later. The slice is the
// process's one per turn (@warmstart/workqueue), shared with every other informer and every worker pool: with a
// slice per queue, 69 informers relisting together held one turn for 69 slices.
// A relist or a late handler's replay is queued as one batch over an array, not one closure per object: at
// 50,000 Works the loop that queued a closure per object still held one turn for ~15 ms and left them for the GC.

import { EVENT_LOOP_SLICE_MS, sliceKnownUsed, sliceUsed, yieldIfBusy } from '@warmstart/workqueue';

/** How long one turn may deliver notifications before timers and I/O get to run (the process's one slice). */
export const NOTIFY_SLICE_MS = EVENT_LOOP_SLICE_MS;

/** Reading the clock per notification costs more than most notifications; look every this many. */
const CLOCK_EVERY = 64;

/** Many notifications queued as one: `notify(i)` for each i from `next` to `count - 1`. */
interface Batch {
  readonly count: number;
  readonly notify: (index: number) => void;
  next: number;
}

type Entry = (() => void) | Batch;

export class NotificationQueue {
  #items: (Entry | undefined)[] = [];
  #head = 0;
  #pending = 0;
  #draining = false;
  #scheduled = false;
  #closed = false;
  #sinceClock = 0;
  readonly #onError: (error: unknown) => void;

  /** `onError` hears of a notification that threw; the ones after it are still delivered. */
  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  /** Notifications queued and not yet delivered. */
  get pending(): number {
    return this.#pending;
  }

  /**
   * Queues a notification, and delivers it before returning when nothing is queued ahead of it and this turn's
   * slice is not used up. A relist pushes one notification per object from one synchronous loop, so the slice is
   * counted across pushes, not per push.
   */
  push(notify: () => void): void {
    if (this.#closed) return;
    this.#items.push(notify);
    this.#pending += 1;
    if (!this.#draining && !this.#scheduled) this.#drain();
  }

  /**
   * Queues `notify(0)` to `notify(count - 1)`, in order, as one entry: delivered like `push`ed ones (as many as
   * this turn's slice allows, the rest after a turn) and ahead of anything queued later. What `notify` reads must
   * not change until it has run; give it a copy of anything live.
   */
  pushEach(count: number, notify: (index: number) => void): void {
    if (this.#closed || count <= 0) return;
    this.#items.push({ count, notify, next: 0 });
    this.#pending += count;
    if (!this.#draining && !this.#scheduled) this.#drain();
  }

  /** Drops what is queued and ignores later pushes (the informer stopped). */
  close(): void {
    this.#closed = true;
    this.#items = [];
    this.#head = 0;
    this.#pending = 0;
  }

  #drain(): void {
    this.#draining = true;
    try {
      if (sliceKnownUsed()) {
        void this.#resumeLater();
        return;
      }
      while (this.#head < this.#items.length) {
        const entry = this.#items[this.#head];
        if (entry !== undefined && typeof entry !== 'function') {
          // A batch stays at the head until its last item is delivered.
          while (entry.next < entry.count) {
            if (this.#sliceUsedNow()) {
              void this.#resumeLater();
              return;
            }
            const i = entry.next++;
            this.#pending -= 1;
            try {
              entry.notify(i);
            } catch (error) {
              this.#onError(error);
            }
            // close() from inside a notification drops the rest of the batch too.
            if (this.#closed) return;
          }
          this.#items[this.#head++] = undefined;
          continue;
        }
        if (this.#sliceUsedNow()) {
          void this.#resumeLater();
          return;
        }
        this.#items[this.#head++] = undefined;
        this.#pending -= 1;
        try {
          entry?.();
        } catch (error) {
          this.#onError(error);
        }
      }
      this.#items = [];
      this.#head = 0;
    } finally {
      this.#draining = false;
    }
  }

  #sliceUsedNow(): boolean {
    if (++this.#sinceClock < CLOCK_EVERY) return false;
    this.#sinceClock = 0;
    return sliceUsed();
  }

  async #resumeLater(): Promise<void> {
    this.#scheduled = true;
    await yieldIfBusy();
    this.#scheduled = false;
    if (!this.#closed) this.#drain();
  }
}
