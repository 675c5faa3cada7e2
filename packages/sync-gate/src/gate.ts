// A named one-shot latch: pending -> open, or pending -> failed -> (reset) pending / (recovered) open.
// Waiters are settled in one pass when the state changes; an idle gate holds no timers and polls nothing.
import { GateAbortedError, GateFailedError, GateStateError, GateTimeoutError, describe } from './errors.js';

export type GateState = 'pending' | 'open' | 'failed';

/** A point-in-time view of a gate, as readiness endpoints and dashboards show it. */
export interface GateSnapshot {
  readonly name: string;
  readonly state: GateState;
  /** Epoch milliseconds of the last state change (creation counts as one). */
  readonly since: number;
  /** How many callers are waiting right now. */
  readonly waiters: number;
  /** The owner's free-form progress text, e.g. "listed 41,000 objects". */
  readonly progress: string | undefined;
  /** Why the gate failed, as text; undefined unless state is failed. */
  readonly error: string | undefined;
}

export interface WaitOptions {
  /** Cancels the wait; the promise rejects with GateAbortedError. */
  readonly signal?: AbortSignal | undefined;
  /** Rejects with GateTimeoutError after this many milliseconds. Omit only where a signal bounds the wait. */
  readonly timeoutMs?: number | undefined;
}

export type GateListener = (snapshot: GateSnapshot) => void;

interface Waiter {
  readonly startedAt: number;
  resolve(): void;
  reject(error: Error): void;
}

/** A named one-shot latch with a typed failure state. */
export class Gate {
  readonly name: string;
  #state: GateState = 'pending';
  #since = Date.now();
  #cause: unknown = undefined;
  #progress: string | undefined = undefined;
  readonly #waiters = new Set<Waiter>();
  readonly #listeners = new Set<GateListener>();

  /** Creates a pending gate. The name appears in every error and readiness line. */
  constructor(name: string) {
    this.name = name;
  }

  /** The current state. */
  get state(): GateState {
    return this.#state;
  }

  /** True once the gate has opened. */
  get isOpen(): boolean {
    return this.#state === 'open';
  }

  /** The failure cause while failed, else undefined. */
  get cause(): unknown {
    return this.#cause;
  }

  /** Number of callers currently waiting. */
  get waiters(): number {
    return this.#waiters.size;
  }

  /** The owner's progress text. */
  get progress(): string | undefined {
    return this.#progress;
  }

  /** Sets the progress text shown in snapshots and timeout errors; notifies listeners. */
  setProgress(text: string | undefined): void {
    if (text === this.#progress) return;
    this.#progress = text;
    this.#emit();
  }

  /** Opens the gate and releases every waiter. Opening an open gate does nothing. */
  open(): void {
    if (this.#state === 'open') return;
    this.#state = 'open';
    this.#cause = undefined;
    this.#since = Date.now();
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const w of waiters) w.resolve();
    this.#emit();
  }

  /** Fails the gate: every current waiter rejects with GateFailedError, and so does every later wait until reset or open. */
  fail(cause: unknown): void {
    if (this.#state === 'open') {
      throw new GateStateError(`gate "${this.name}" is open and cannot fail; a one-shot latch stays open`);
    }
    this.#state = 'failed';
    this.#cause = cause;
    this.#since = Date.now();
    const now = Date.now();
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const w of waiters) w.reject(new GateFailedError(this.name, now - w.startedAt, cause));
    this.#emit();
  }

  /** Returns a failed gate to pending for a retry. Resetting a pending gate does nothing; an open gate throws. */
  reset(): void {
    if (this.#state === 'pending') return;
    if (this.#state === 'open') {
      throw new GateStateError(`gate "${this.name}" is open; only a failed gate can be reset`);
    }
    this.#state = 'pending';
    this.#cause = undefined;
    this.#since = Date.now();
    this.#emit();
  }

  /** Resolves when the gate opens; rejects on failure, abort or deadline with a GateWaitError subclass. */
  wait(options: WaitOptions = {}): Promise<void> {
    if (this.#state === 'open') return Promise.resolve();
    const startedAt = Date.now();
    if (this.#state === 'failed') return Promise.reject(new GateFailedError(this.name, 0, this.#cause));
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(new GateAbortedError(this.name, 0, signal.reason));

    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const cleanup = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        startedAt,
        resolve: () => {
          cleanup();
          resolve();
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      };
      const onAbort = (): void => {
        this.#waiters.delete(waiter);
        waiter.reject(new GateAbortedError(this.name, Date.now() - startedAt, signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
        timer = setTimeout(() => {
          this.#waiters.delete(waiter);
          waiter.reject(new GateTimeoutError(this.name, Date.now() - startedAt, this.#progress));
        }, Math.max(0, timeoutMs));
      }
      this.#waiters.add(waiter);
    });
  }

  /** Calls the listener after every state or progress change. Returns an unsubscribe function. */
  onChange(listener: GateListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A point-in-time view for readiness endpoints. */
  snapshot(): GateSnapshot {
    return {
      name: this.name,
      state: this.#state,
      since: this.#since,
      waiters: this.#waiters.size,
      progress: this.#progress,
      error: this.#state === 'failed' ? describe(this.#cause) : undefined,
    };
  }

  #emit(): void {
    if (this.#listeners.size === 0) return;
    const snap = this.snapshot();
    for (const l of this.#listeners) l(snap);
  }
}
