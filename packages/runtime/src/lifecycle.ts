// Start-up and shutdown order for a controller manager: groups of runnables start one group after another
// (servers -> caches -> leader election -> controllers), each group optionally held back by gates; stop runs
// in reverse order under one deadline. A runnable that fails stops everything that started, in order.
import { describeCause as describe, Gate, type Readiness, type ReadonlyGate } from '@warmstart/sync-gate';
import { GroupStartError, LifecycleStateError, RunnableFailedError } from './errors.js';
import { type CacheSyncStrategy, CONTROLLERS_GROUP, strategyWaits } from './strategy.js';

/** What a runnable gets besides its signal. */
export interface RunnableContext {
  /**
   * Reports a failure after start resolved (a lost lease, a server that died). The lifecycle stops every
   * started runnable in reverse order and reports this cause. Ignored once the lifecycle is stopping.
   */
  fail(cause: unknown): void;
}

/**
 * A unit of work the lifecycle starts and stops.
 *
 * `start` resolves once the work is running (a server listening, informers started, a campaign launched),
 * not when it ends; a throw or rejection fails the lifecycle. `signal` is the runnable's lifetime: it aborts
 * when the runnable's turn to stop comes (after `stop` settles, if there is one), or at once if the
 * lifecycle stops while `start` is still in flight. `stop` is the graceful part (drain a queue, release a
 * lease, close a server) and must finish before `deadline` aborts; without it, aborting `signal` is the stop.
 */
export interface Runnable {
  readonly name: string;
  start(signal: AbortSignal, context: RunnableContext): Promise<void> | void;
  stop?(deadline: AbortSignal): Promise<void> | void;
}

/** A gate a group waits for: the gate itself, or the name of a gate in the lifecycle's Readiness registry. */
export type GateRef = ReadonlyGate | string;

/** A set of runnables that start together once every gate in `waitFor` is open, and stop together. */
export interface RunnableGroup {
  readonly name: string;
  /** Started concurrently when the group's turn comes; more can be added with Lifecycle.add. */
  readonly runnables?: readonly Runnable[] | undefined;
  /**
   * Gates to wait for before the group starts. Names are resolved in the Readiness registry when the group's
   * turn comes. A failed gate does not fail the lifecycle: its owner is expected to retry and reset it.
   */
  readonly waitFor?: readonly GateRef[] | undefined;
  /** Deadline for those gates, counted from the group's turn; on expiry the lifecycle fails. Omit to wait until stopped. */
  readonly waitTimeoutMs?: number | undefined;
}

/** The manager's group names, in start order. Groups are free-form; these are the conventional ones. */
export const GROUPS = {
  servers: 'servers',
  caches: 'caches',
  leaderElection: 'leader-election',
  controllers: CONTROLLERS_GROUP,
} as const;

/** Options for new Lifecycle(). */
export interface LifecycleOptions {
  /** The groups in start order; stop runs in reverse. Group and runnable names must be unique. */
  readonly groups: readonly RunnableGroup[];
  /**
   * The cache-sync strategy; gate-start makes the "controllers" group also wait for its
   * `controllersWaitFor` gate. Default: block-reads (no extra wait).
   */
  readonly strategy?: CacheSyncStrategy | undefined;
  /** Resolves gate names in `waitFor` and in the strategy. Required when any name is used. */
  readonly readiness?: Readiness | undefined;
  /** Deadline for stops that stop() did not start itself (a failure, the start signal). Default 30 s. */
  readonly stopTimeoutMs?: number | undefined;
}

export interface StartOptions {
  /** Aborting it stops the lifecycle (with stopTimeoutMs), e.g. a signal wired to SIGTERM. */
  readonly signal?: AbortSignal | undefined;
}

export interface StopOptions {
  /** The overall deadline for stopping every runnable. Default: the lifecycle's stopTimeoutMs. */
  readonly timeoutMs?: number | undefined;
  /** Why the lifecycle stops; becomes the abort reason of every runnable's signal and the report's cause. */
  readonly reason?: unknown;
}

export type LifecyclePhase = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped';
export type GroupPhase = 'pending' | 'waiting' | 'starting' | 'started' | 'stopping' | 'stopped';
export type RunnablePhase = 'pending' | 'starting' | 'running' | 'failed' | 'stopping' | 'stopped';

/** A point-in-time view of the lifecycle for logs and dashboards. */
export interface LifecycleSnapshot {
  readonly phase: LifecyclePhase;
  readonly groups: readonly {
    readonly name: string;
    readonly phase: GroupPhase;
    readonly waitFor: readonly string[];
    readonly runnables: readonly { readonly name: string; readonly phase: RunnablePhase }[];
  }[];
}

/** How the lifecycle ended; `done` and stop() resolve with it. */
export interface LifecycleReport {
  /** 'failed' when a runnable or a group's gate wait failed; 'stopped' after stop() or the start signal. */
  readonly outcome: 'stopped' | 'failed';
  /** The failure (RunnableFailedError, GroupStartError) when failed, else the stop reason (may be undefined). */
  readonly cause: unknown;
  /** Runnables in the order their stop began: groups in reverse, runnables of one group concurrently. */
  readonly stopOrder: readonly string[];
  /** Runnables that had not stopped when the deadline passed. Empty when everything stopped in time. */
  readonly timedOut: readonly string[];
  /** Runnables whose stop threw or rejected, with the error. */
  readonly stopErrors: readonly { readonly runnable: string; readonly error: unknown }[];
}

const DEFAULT_STOP_TIMEOUT_MS = 30_000;

interface RunnableEntry {
  readonly runnable: Runnable;
  readonly group: GroupEntry;
  readonly controller: AbortController;
  phase: RunnablePhase;
  /** Settles true when start succeeded, false when it failed; undefined until started. */
  startPromise: Promise<boolean> | undefined;
}

interface GroupEntry {
  readonly name: string;
  readonly waitFor: readonly GateRef[];
  readonly waitTimeoutMs: number | undefined;
  readonly runnables: RunnableEntry[];
  readonly started: Gate;
  phase: GroupPhase;
}

type StopOutcome = 'stopped' | 'timeout' | { readonly error: unknown };

/** Starts groups of runnables in order and stops them in reverse order under a deadline. */
export class Lifecycle {
  readonly #groups: GroupEntry[];
  readonly #readiness: Readiness | undefined;
  readonly #stopTimeoutMs: number;
  readonly #names = new Set<string>();
  readonly #run = new AbortController();
  readonly #allStarted = new Gate('lifecycle');
  #phase: LifecyclePhase = 'idle';
  #stopping: Promise<LifecycleReport> | undefined;
  #detachSignal: (() => void) | undefined;
  #resolveDone!: (report: LifecycleReport) => void;

  /** Settles with the report once the lifecycle has stopped, for any reason. Never rejects. */
  readonly done: Promise<LifecycleReport>;

  /**
   * Builds the lifecycle. Throws LifecycleStateError for duplicate group or runnable names, for gate names
   * without a readiness registry, or for gate-start without a "controllers" group.
   */
  constructor(options: LifecycleOptions) {
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
    this.#readiness = options.readiness;
    this.#stopTimeoutMs = options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
    const strategy = options.strategy ?? { name: 'block-reads', reads: 'wait-for-sync' };
    const groupNames = new Set<string>();
    this.#groups = options.groups.map((spec) => {
      if (groupNames.has(spec.name))
        throw new LifecycleStateError(`two lifecycle groups are named "${spec.name}"`);
      groupNames.add(spec.name);
      const waitFor = [...(spec.waitFor ?? []), ...strategyWaits(strategy, spec.name)];
      if (this.#readiness === undefined) {
        const named = waitFor.find((ref): ref is string => typeof ref === 'string');
        if (named !== undefined) {
          throw new LifecycleStateError(
            `group "${spec.name}" waits for gate "${named}" by name; pass a readiness registry to resolve it`,
          );
        }
      }
      const group: GroupEntry = {
        name: spec.name,
        waitFor,
        waitTimeoutMs: spec.waitTimeoutMs,
        runnables: [],
        started: new Gate(`lifecycle:${spec.name}`),
        phase: 'pending',
      };
      for (const runnable of spec.runnables ?? []) group.runnables.push(this.#entry(group, runnable));
      return group;
    });
    if (strategy.name === 'gate-start' && !groupNames.has(CONTROLLERS_GROUP)) {
      throw new LifecycleStateError(
        `the gate-start strategy holds back the "${CONTROLLERS_GROUP}" group, but no group has that name`,
      );
    }
  }

  /** The lifecycle's phase: idle -> starting -> running (every group started) -> stopping -> stopped. */
  get phase(): LifecyclePhase {
    return this.#phase;
  }

  /**
   * Starts the groups in order and returns at once: a group waiting on gates (controllers on leadership)
   * never holds back the call, and the first group (the probe servers) starts in this same tick's
   * microtasks. Watch progress with started(), the outcome with done. Throws if already started.
   */
  start(options: StartOptions = {}): void {
    if (this.#phase !== 'idle') {
      throw new LifecycleStateError(`the lifecycle is ${this.#phase}; a lifecycle starts once`);
    }
    this.#phase = 'starting';
    const { signal } = options;
    if (signal !== undefined) {
      if (signal.aborted) {
        void this.stop({ reason: signal.reason });
        return;
      }
      const onAbort = (): void => void this.stop({ reason: signal.reason });
      signal.addEventListener('abort', onAbort, { once: true });
      this.#detachSignal = () => signal.removeEventListener('abort', onAbort);
    }
    void this.#startGroups();
  }

  /**
   * Stops every started runnable, groups in reverse order, under one deadline; resolves with the report
   * (see `timedOut` for runnables that did not stop in time). Calling it again returns the same promise.
   */
  stop(options: StopOptions = {}): Promise<LifecycleReport> {
    if (this.#stopping !== undefined) return this.#stopping;
    return this.#beginStop('stopped', options.reason, options.timeoutMs ?? this.#stopTimeoutMs);
  }

  /**
   * Adds a runnable to a group. Before the group's turn it starts with the group; once the group has
   * started it starts at once. Throws LifecycleStateError when stopping, for an unknown group or a taken name.
   */
  add(group: string, runnable: Runnable): void {
    const entry = this.#groups.find((g) => g.name === group);
    if (entry === undefined) throw new LifecycleStateError(`no lifecycle group is named "${group}"`);
    if (this.#stopping !== undefined) {
      throw new LifecycleStateError(
        `the lifecycle is ${this.#phase}; runnable "${runnable.name}" cannot be added`,
      );
    }
    const added = this.#entry(entry, runnable);
    entry.runnables.push(added);
    if (entry.phase === 'starting' || entry.phase === 'started') void this.#startEntry(added);
  }

  /**
   * A gate that opens when the named group has started (every runnable's start resolved), or, without a name,
   * when every group has. It fails if the lifecycle stops first. Throws LifecycleStateError for an unknown group.
   */
  started(group?: string): ReadonlyGate {
    if (group === undefined) return this.#allStarted;
    const entry = this.#groups.find((g) => g.name === group);
    if (entry === undefined) throw new LifecycleStateError(`no lifecycle group is named "${group}"`);
    return entry.started;
  }

  /** A point-in-time view of every group and runnable. */
  snapshot(): LifecycleSnapshot {
    return {
      phase: this.#phase,
      groups: this.#groups.map((g) => ({
        name: g.name,
        phase: g.phase,
        waitFor: g.waitFor.map((ref) => (typeof ref === 'string' ? ref : ref.name)),
        runnables: g.runnables.map((r) => ({ name: r.runnable.name, phase: r.phase })),
      })),
    };
  }

  #entry(group: GroupEntry, runnable: Runnable): RunnableEntry {
    if (this.#names.has(runnable.name)) {
      throw new LifecycleStateError(
        `two runnables are named "${runnable.name}"; names identify them in reports`,
      );
    }
    this.#names.add(runnable.name);
    return { runnable, group, controller: new AbortController(), phase: 'pending', startPromise: undefined };
  }

  async #startGroups(): Promise<void> {
    for (const group of this.#groups) {
      if (this.#stopping !== undefined) return;
      group.phase = 'waiting';
      try {
        await this.#waitForGates(group);
      } catch (error) {
        this.#failWith(new GroupStartError(group.name, error));
        return;
      }
      if (this.#stopping !== undefined) return;
      group.phase = 'starting';
      await Promise.all(group.runnables.map((entry) => this.#startEntry(entry)));
      if (this.#stopping !== undefined) return;
      group.phase = 'started';
      group.started.open();
    }
    this.#phase = 'running';
    this.#allStarted.open();
  }

  async #waitForGates(group: GroupEntry): Promise<void> {
    if (group.waitFor.length === 0) return;
    const gates = group.waitFor.map((ref) => (typeof ref === 'string' ? this.#readiness!.require(ref) : ref));
    const options = { signal: this.#run.signal, timeoutMs: group.waitTimeoutMs, tolerateFailure: true };
    // The other waits end when a failure stops the lifecycle and aborts the run signal.
    await Promise.all(gates.map((gate) => gate.wait(options)));
  }

  #startEntry(entry: RunnableEntry): Promise<boolean> {
    entry.phase = 'starting';
    const context: RunnableContext = { fail: (cause) => this.#runnableFailed(entry, cause) };
    const started = (async (): Promise<boolean> => {
      try {
        await entry.runnable.start(entry.controller.signal, context);
        if (entry.phase === 'starting') entry.phase = 'running';
        return entry.phase !== 'failed';
      } catch (error) {
        this.#runnableFailed(entry, error);
        return false;
      }
    })();
    entry.startPromise = started;
    return started;
  }

  #runnableFailed(entry: RunnableEntry, cause: unknown): void {
    if (entry.phase === 'starting' || entry.phase === 'running') entry.phase = 'failed';
    this.#failWith(new RunnableFailedError(entry.runnable.name, entry.group.name, cause));
  }

  #failWith(error: Error): void {
    // The first failure is the cause; what fails while stopping (aborted starts, say) is a consequence.
    if (this.#stopping !== undefined) return;
    void this.#beginStop('failed', error, this.#stopTimeoutMs);
  }

  #beginStop(
    outcome: LifecycleReport['outcome'],
    cause: unknown,
    timeoutMs: number,
  ): Promise<LifecycleReport> {
    const wasIdle = this.#phase === 'idle';
    this.#phase = 'stopping';
    this.#detachSignal?.();
    const reason = cause ?? new Error('the lifecycle was stopped');
    this.#run.abort(reason);
    const notStarted = new Error(`the lifecycle stopped before starting: ${describe(reason)}`, {
      cause: reason,
    });
    for (const g of this.#groups) if (!g.started.isOpen) g.started.fail(notStarted);
    if (!this.#allStarted.isOpen) this.#allStarted.fail(notStarted);
    const stopping = (wasIdle ? Promise.resolve(emptyStops()) : this.#stopAll(reason, timeoutMs)).then(
      (stops) => {
        this.#phase = 'stopped';
        const report: LifecycleReport = { outcome, cause, ...stops };
        this.#resolveDone(report);
        return report;
      },
    );
    this.#stopping = stopping;
    return stopping;
  }

  async #stopAll(reason: unknown, timeoutMs: number): Promise<Omit<LifecycleReport, 'outcome' | 'cause'>> {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new Error(`the stop deadline of ${timeoutMs} ms passed`)),
      Math.max(0, timeoutMs),
    );
    const deadlinePassed = new Promise<'timeout'>((resolve) => {
      deadline.signal.addEventListener('abort', () => resolve('timeout'), { once: true });
    });
    const stopOrder: string[] = [];
    const timedOut: string[] = [];
    const stopErrors: { runnable: string; error: unknown }[] = [];
    try {
      for (const group of [...this.#groups].reverse()) {
        const begun = group.runnables.filter((e) => e.startPromise !== undefined);
        if (begun.length === 0) {
          if (group.phase !== 'pending') group.phase = 'stopped';
          continue;
        }
        group.phase = 'stopping';
        await Promise.all(
          begun.map(async (entry) => {
            stopOrder.push(entry.runnable.name);
            const outcome = await this.#stopEntry(entry, reason, deadline.signal, deadlinePassed);
            if (outcome === 'timeout') timedOut.push(entry.runnable.name);
            else if (outcome !== 'stopped')
              stopErrors.push({ runnable: entry.runnable.name, error: outcome.error });
          }),
        );
        group.phase = 'stopped';
      }
    } finally {
      clearTimeout(timer);
    }
    return { stopOrder, timedOut, stopErrors };
  }

  // After the deadline nothing is awaited any more: a stop that does not finish synchronously is timed out.
  async #stopEntry(
    entry: RunnableEntry,
    reason: unknown,
    deadline: AbortSignal,
    deadlinePassed: Promise<'timeout'>,
  ): Promise<StopOutcome> {
    const wasStarting = entry.phase === 'starting';
    entry.phase = 'stopping';
    const outcome = await this.#stopEntryOutcome(entry, wasStarting, reason, deadline, deadlinePassed);
    entry.controller.abort(reason);
    if (outcome !== 'timeout') entry.phase = 'stopped';
    return outcome;
  }

  async #stopEntryOutcome(
    entry: RunnableEntry,
    wasStarting: boolean,
    reason: unknown,
    deadline: AbortSignal,
    deadlinePassed: Promise<'timeout'>,
  ): Promise<StopOutcome> {
    // Cancel a start in flight, then stop the runnable normally if it got going anyway; a runnable whose
    // start failed has nothing to stop.
    if (wasStarting) entry.controller.abort(reason);
    const started = await Promise.race([entry.startPromise!, deadlinePassed]);
    if (started === 'timeout') return 'timeout';
    if (!started) return 'stopped';
    const stop = entry.runnable.stop;
    if (stop === undefined) return 'stopped';
    let pending: Promise<void> | void;
    try {
      pending = stop.call(entry.runnable, deadline);
    } catch (error) {
      return { error };
    }
    if (pending === undefined) return 'stopped';
    return Promise.race([
      Promise.resolve(pending).then(
        (): StopOutcome => 'stopped',
        (error: unknown): StopOutcome => ({ error }),
      ),
      deadlinePassed,
    ]);
  }
}

function emptyStops(): Omit<LifecycleReport, 'outcome' | 'cause'> {
  return { stopOrder: [], timedOut: [], stopErrors: [] };
}
