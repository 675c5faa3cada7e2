// A named one-shot latch: pending -> open, or pending -> failed -> (reset) pending / (recovered) open.
// Waiters are settled in one pass when the state changes; an idle gate holds no timers and polls nothing.
import { describe, GateAbortedError, GateFailedError, GateStateError, GateTimeoutError } from './errors.js';
import { notify } from './notify.js';

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
  /** Epoch milliseconds of the owner's last reported progress (progressed()); creation counts as progress. */
  readonly progressedAt: number;
  /** Why the gate failed, as text; undefined unless state is failed. */
  readonly error: string | undefined;
}

export interface WaitOptions {
  /** Cancels the wait; the promise rejects with GateAbortedError. */
  readonly signal?: AbortSignal | undefined;
  /** Rejects with GateTimeoutError after this many milliseconds. Omit only where a signal bounds the wait. */
  readonly timeoutMs?: number | undefined;
  /**
   * Rejects with GateTimeoutError once the owner has reported no progress (progressed()) for this many
   * milliseconds, counted from the later of the wait's start and the last progress: a slow owner that keeps
   * moving is waited for, a stuck one is not. Combines with timeoutMs (whichever comes first).
   */
  readonly stallTimeoutMs?: number | undefined;
  /**
   * Keep waiting while the gate is failed, for owners that retry and reset their gate (an informer whose
   * list was forbidden). Only open, abort or the deadline end such a wait. Default false: failure rejects.
   */
  readonly tolerateFailure?: boolean | undefined;
}

export type GateListener = (snapshot: GateSnapshot) => void;

/**
 * What a waiter may use: every gate kind (a plain Gate, an AllOfGate) implements it, and only the owner holds
 * the handle that can open, fail or reset. Readiness, lifecycle groups and readers take this type.
 */
export interface ReadonlyGate {
  readonly name: string;
  readonly state: GateState;
  readonly isOpen: boolean;
  readonly cause: unknown;
  readonly waiters: number;
  readonly progress: string | undefined;
  /** Epoch milliseconds of the owner's last reported progress. */
  readonly progressedAt: number;
  wait(options?: WaitOptions): Promise<void>;
  onChange(listener: GateListener): () => void;
  snapshot(): GateSnapshot;
}

interface Waiter {
  readonly startedAt: number;
  /** Epoch ms of the absolute deadline; Infinity for none. */
  readonly deadlineAt: number;
  /** The stall deadline in ms; Infinity for none. */
  readonly stallMs: number;
  readonly signal: AbortSignal | undefined;
  readonly tolerateFailure: boolean;
  timer: NodeJS.Timeout | undefined;
  resolve: () => void;
  reject: (error: Error) => void;
}

// Many waiters often share one signal (a manager's stop signal). EventTarget.addEventListener scans the
// listener list for duplicates, so one listener per waiter makes 100k waits quadratic (minutes, measured);
// the gate therefore keeps one abort listener per distinct signal and a set of its waiters.
interface SignalGroup {
  readonly waiters: Set<Waiter>;
  readonly onAbort: () => void;
}

/** A named one-shot latch with a typed failure state. */
export class Gate implements ReadonlyGate {
  readonly name: string;
  #state: GateState = 'pending';
  #since = Date.now();
  #cause: unknown = undefined;
  #progress: string | undefined = undefined;
  #progressedAt = this.#since;
  readonly #waiters = new Set<Waiter>();
  readonly #bySignal = new Map<AbortSignal, SignalGroup>();
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

  /** Epoch milliseconds of the owner's last progress(ed) report. */
  get progressedAt(): number {
    return this.#progressedAt;
  }

  /**
   * Sets the progress text shown in snapshots and timeout errors; notifies listeners. Text alone is not
   * progress (an owner may report a failing retry here): stall deadlines restart only on progressed().
   */
  setProgress(text: string | undefined): void {
    if (text === this.#progress) return;
    this.#progress = text;
    this.#emit();
  }

  /**
   * Records that the owner moved forward (another page listed), optionally with new progress text: waits with a
   * stallTimeoutMs count their stall from now. Notifies listeners.
   */
  progressed(text?: string): void {
    this.#progressedAt = Date.now();
    if (text !== undefined) this.#progress = text;
    this.#emit();
  }

  /** Opens the gate and releases every waiter. Opening an open gate does nothing. */
  open(): void {
    if (this.#state === 'open') return;
    this.#state = 'open';
    this.#cause = undefined;
    this.#since = Date.now();
    // Settling a promise runs nothing synchronously, so iterating the live set cannot be re-entered.
    for (const w of this.#waiters) {
      if (w.timer !== undefined) clearTimeout(w.timer);
      w.resolve();
    }
    this.#waiters.clear();
    for (const [signal, group] of this.#bySignal) signal.removeEventListener('abort', group.onAbort);
    this.#bySignal.clear();
    this.#emit();
  }

  /**
   * Fails the gate: current waiters reject with GateFailedError (except those waiting with tolerateFailure),
   * and so does every later wait until reset or open. Failing a failed gate replaces the cause.
   */
  fail(cause: unknown): void {
    if (this.#state === 'open') {
      throw new GateStateError(`gate "${this.name}" is open and cannot fail; a one-shot latch stays open`);
    }
    this.#state = 'failed';
    this.#cause = cause;
    const now = Date.now();
    this.#since = now;
    for (const w of this.#waiters) {
      if (w.tolerateFailure) continue;
      this.#detach(w);
      w.reject(new GateFailedError(this.name, now - w.startedAt, cause));
    }
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
    const { signal, timeoutMs, stallTimeoutMs, tolerateFailure = false } = options;
    if (this.#state === 'failed' && !tolerateFailure) {
      return Promise.reject(new GateFailedError(this.name, 0, this.#cause));
    }
    if (signal?.aborted) return Promise.reject(new GateAbortedError(this.name, 0, signal.reason));

    const startedAt = Date.now();
    const stallMs = stallTimeoutMs ?? Number.POSITIVE_INFINITY;
    const deadlineAt = startedAt + (timeoutMs ?? Number.POSITIVE_INFINITY);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        startedAt,
        deadlineAt,
        stallMs,
        signal,
        tolerateFailure,
        timer: undefined,
        resolve,
        reject,
      };
      this.#arm(waiter, startedAt);
      this.#waiters.add(waiter);
      if (signal !== undefined) this.#attach(signal, waiter);
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
      progressedAt: this.#progressedAt,
      error: this.#state === 'failed' ? describe(this.#cause) : undefined,
    };
  }

  #attach(signal: AbortSignal, waiter: Waiter): void {
    let group = this.#bySignal.get(signal);
    if (group === undefined) {
      const waiters = new Set<Waiter>();
      const onAbort = (): void => {
        this.#bySignal.delete(signal);
        const now = Date.now();
        for (const w of waiters) {
          this.#waiters.delete(w);
          if (w.timer !== undefined) clearTimeout(w.timer);
          w.reject(new GateAbortedError(this.name, now - w.startedAt, signal.reason));
        }
      };
      group = { waiters, onAbort };
      this.#bySignal.set(signal, group);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    group.waiters.add(waiter);
  }

  // Removes one waiter from every index and drops its timer and, if it was the last on its signal, the listener.
  #detach(waiter: Waiter): void {
    this.#waiters.delete(waiter);
    if (waiter.timer !== undefined) clearTimeout(waiter.timer);
    const signal = waiter.signal;
    if (signal === undefined) return;
    const group = this.#bySignal.get(signal);
    if (group === undefined) return;
    group.waiters.delete(waiter);
    if (group.waiters.size === 0) {
      this.#bySignal.delete(signal);
      signal.removeEventListener('abort', group.onAbort);
    }
  }

  // The stall deadline moves with progress, so its timer is re-armed when it fires early instead of on every
  // progress report: progress comes every few hundred objects, a deadline check once per stall period at most.
  #arm(waiter: Waiter, now: number): void {
    const stallAt = Math.max(waiter.startedAt, this.#progressedAt) + waiter.stallMs;
    const at = Math.min(waiter.deadlineAt, stallAt);
    if (!Number.isFinite(at)) return;
    waiter.timer = setTimeout(() => this.#check(waiter), Math.max(0, at - now));
  }

  #check(waiter: Waiter): void {
    waiter.timer = undefined;
    const now = Date.now();
    const stalledMs = now - Math.max(waiter.startedAt, this.#progressedAt);
    const stalled = stalledMs >= waiter.stallMs;
    if (now < waiter.deadlineAt && !stalled) {
      this.#arm(waiter, now);
      return;
    }
    this.#detach(waiter);
    const lastError = this.#state === 'failed' ? describe(this.#cause) : undefined;
    waiter.reject(
      new GateTimeoutError(
        this.name,
        now - waiter.startedAt,
        this.#progress,
        lastError,
        now < waiter.deadlineAt ? stalledMs : undefined,
      ),
    );
  }

  #emit(): void {
    if (this.#listeners.size === 0) return;
    const snap = this.snapshot();
    notify(this.#listeners, snap);
  }
}
