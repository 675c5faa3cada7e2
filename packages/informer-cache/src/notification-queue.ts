// Handlers hear of store changes in the order the store made them, but not always in the same turn of the event
// loop. A relist swaps the store in one synchronous step and then owes every handler one notification per object;
// at 50,000 objects and three handlers that was ~150 ms of unbroken work (twice that at 100,000), during which
// probes, Lease renewals and watch streams all waited. Notifications run at once while the turn's slice lasts;
// the rest follow after the event loop has had a turn, ahead of anything that arrives later. The slice is the
// process's one per turn (@warmstart/workqueue), shared with every other informer and every worker pool: with a
// slice per queue, 69 informers relisting together held one turn for 69 slices.

import { EVENT_LOOP_SLICE_MS, sliceKnownUsed, sliceUsed, yieldIfBusy } from '@warmstart/workqueue';

/** How long one turn may deliver notifications before timers and I/O get to run (the process's one slice). */
export const NOTIFY_SLICE_MS = EVENT_LOOP_SLICE_MS;

/** Reading the clock per notification costs more than most notifications; look every this many. */
const CLOCK_EVERY = 64;

export class NotificationQueue {
  #items: ((() => void) | undefined)[] = [];
  #head = 0;
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
    return this.#items.length - this.#head;
  }

  /**
   * Queues a notification, and delivers it before returning when nothing is queued ahead of it and this turn's
   * slice is not used up. A relist pushes one notification per object from one synchronous loop, so the slice is
   * counted across pushes, not per push.
   */
  push(notify: () => void): void {
    if (this.#closed) return;
    this.#items.push(notify);
    if (!this.#draining && !this.#scheduled) this.#drain();
  }

  /** Drops what is queued and ignores later pushes (the informer stopped). */
  close(): void {
    this.#closed = true;
    this.#items = [];
    this.#head = 0;
  }

  #drain(): void {
    this.#draining = true;
    try {
      if (sliceKnownUsed()) {
        void this.#resumeLater();
        return;
      }
      while (this.#head < this.#items.length) {
        if (++this.#sinceClock >= CLOCK_EVERY) {
          this.#sinceClock = 0;
          if (sliceUsed()) {
            void this.#resumeLater();
            return;
          }
        }
        const notify = this.#items[this.#head];
        this.#items[this.#head++] = undefined;
        try {
          notify?.();
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

  async #resumeLater(): Promise<void> {
    this.#scheduled = true;
    await yieldIfBusy();
    this.#scheduled = false;
    if (!this.#closed) this.#drain();
  }
}
