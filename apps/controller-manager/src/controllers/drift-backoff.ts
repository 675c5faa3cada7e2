// Back-off for drift repairs of one member object: a member controller that changes an object right back after
// each repair (an autoscaler on replicas, a mutating webhook) must not meet a write loop. A few repairs in a
// window are free; past that each repair waits twice as long as the previous one, up to a cap, and the first
// wait of a streak is reported once, so the user learns who fights whom. A quiet window resets the streak.

export interface DriftBackoffOptions {
  /** Repairs made at once before any waits (within `windowMs` of each other). Default 3. */
  readonly freeRepairs?: number;
  readonly windowMs?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

export type DriftRepairDecision =
  | { readonly kind: 'repair' }
  /** Wait this long before the next repair; `report` is true for the first wait of a streak. */
  | { readonly kind: 'wait'; readonly delayMs: number; readonly repairs: number; readonly report: boolean };

interface Streak {
  /** Times of the repairs in the current streak, oldest first. */
  readonly repairs: number[];
  /** No repair before this time. */
  notBefore: number;
  reported: boolean;
}

export class DriftBackoff {
  readonly #free: number;
  readonly #windowMs: number;
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #streaks = new Map<string, Streak>();

  constructor(o: DriftBackoffOptions = {}) {
    this.#free = o.freeRepairs ?? 3;
    this.#windowMs = o.windowMs ?? 60_000;
    this.#baseMs = o.baseDelayMs ?? 5_000;
    this.#maxMs = o.maxDelayMs ?? 300_000;
  }

  /** Asks to repair `key` now; on 'repair' the repair is counted. */
  attempt(key: string, now: number): DriftRepairDecision {
    let streak = this.#streaks.get(key);
    const last = streak?.repairs.at(-1);
    if (
      streak === undefined ||
      last === undefined ||
      now - last > Math.max(this.#windowMs, streak.notBefore - last)
    ) {
      streak = { repairs: [], notBefore: 0, reported: false };
      this.#streaks.set(key, streak);
    }
    if (now < streak.notBefore) {
      const report = !streak.reported;
      streak.reported = true;
      return { kind: 'wait', delayMs: streak.notBefore - now, repairs: streak.repairs.length, report };
    }
    streak.repairs.push(now);
    // The free repairs go at once; from the last of them on, each repair holds the next one back, twice as long.
    const over = streak.repairs.length - this.#free;
    if (over >= 0) streak.notBefore = now + Math.min(this.#maxMs, this.#baseMs * 2 ** over);
    return { kind: 'repair' };
  }

  forget(key: string): void {
    this.#streaks.delete(key);
  }
}
