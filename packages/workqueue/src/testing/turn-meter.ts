// For tests that check a piece of code shares the process's event-loop slice (yieldIfBusy, sliceUsed): how much
// work ran in each turn. Work is counted, not timed: a busy machine can deschedule a test for longer than a slice,
// which would stretch any wall-clock gap, but it only ever lets a slice do less work.

/** The work recorded between consecutive turns of the event loop. */
export interface TurnMeter {
  /** Call after each piece of work with what it cost (e.g. the milliseconds a test handler spun). */
  record(ms: number): void;
  /** Stops measuring after the current turn. */
  stop(): void;
  /** The sum recorded in each turn so far. */
  readonly perTurn: readonly number[];
}

/** Starts counting the work done per event-loop turn (a turn ends at each check phase). */
export function turnMeter(): TurnMeter {
  const perTurn: number[] = [];
  let work = 0;
  let stopped = false;
  const tick = (): void => {
    perTurn.push(work);
    work = 0;
    if (!stopped) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    record(ms) {
      work += ms;
    },
    stop() {
      stopped = true;
    },
    perTurn,
  };
}
