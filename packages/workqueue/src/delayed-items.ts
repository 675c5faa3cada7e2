// Keys waiting for a time (addAfter, rate-limited retries). A min-heap by due time and exactly one timer, armed
// for the earliest due key and unref'd so a queue alone never keeps the process alive. A key waits at most once:
// a second addAfter keeps the earlier due time and the higher priority, as client-go's delaying queue does.
import { BinaryHeap } from './binary-heap.js';

/** Node turns a longer setTimeout into 1 ms; a timer for a later key is armed for this long and re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Waiting {
  readonly key: string;
  readonly dueAt: number;
  readonly seq: number;
  priority: number;
  /** False once replaced by an earlier due time for the same key; the heap skips it. */
  live: boolean;
}

export class DelayedItems {
  readonly #heap = new BinaryHeap<Waiting>(
    (a, b) => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq),
  );
  readonly #byKey = new Map<string, Waiting>();
  readonly #now: () => number;
  readonly #onDue: (key: string, priority: number) => void;
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDueAt = Number.POSITIVE_INFINITY;

  constructor(now: () => number, onDue: (key: string, priority: number) => void) {
    this.#now = now;
    this.#onDue = onDue;
  }

  /** Keys waiting. */
  get size(): number {
    return this.#byKey.size;
  }

  schedule(key: string, dueAt: number, priority: number): void {
    const existing = this.#byKey.get(key);
    if (existing !== undefined) {
      if (existing.dueAt <= dueAt) {
        if (priority > existing.priority) existing.priority = priority;
        return;
      }
      existing.live = false;
      if (existing.priority > priority) priority = existing.priority;
    }
    const waiting: Waiting = { key, dueAt, seq: this.#seq++, priority, live: true };
    this.#heap.push(waiting);
    this.#byKey.set(key, waiting);
    this.#arm();
  }

  /** Drops every waiting key and the timer (shutdown). */
  clear(): void {
    this.#disarm();
    this.#heap.clear();
    this.#byKey.clear();
  }

  #earliest(): Waiting | undefined {
    let top = this.#heap.peek();
    while (top !== undefined && !top.live) {
      this.#heap.pop();
      top = this.#heap.peek();
    }
    return top;
  }

  #arm(): void {
    const top = this.#earliest();
    if (top === undefined) {
      this.#disarm();
      return;
    }
    if (this.#timer !== undefined && this.#timerDueAt <= top.dueAt) return;
    this.#disarm();
    this.#timerDueAt = top.dueAt;
    // Ceil: a timer that fires a fraction of a millisecond early would find nothing due and re-arm for 0 ms.
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(top.dueAt - this.#now())));
    this.#timer = setTimeout(() => this.#fire(), delay);
    this.#timer.unref?.();
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDueAt = Number.POSITIVE_INFINITY;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerDueAt = Number.POSITIVE_INFINITY;
    const now = this.#now();
    for (let top = this.#earliest(); top !== undefined && top.dueAt <= now; top = this.#earliest()) {
      this.#heap.pop();
      this.#byKey.delete(top.key);
      this.#onDue(top.key, top.priority);
    }
    this.#arm();
  }
}
