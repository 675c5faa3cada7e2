// A worker whose reconciles read only from caches never waits for I/O: each `await` resolves at once, so a pool
// working through a start-up backlog runs as one unbroken chain of microtasks. Timers and sockets then starve;
// at 50,000 workloads that held a leader's Lease renewal back for over ten seconds (probes would wait too), and
// the manager stepped down. Work is therefore cut into slices with a turn of the event loop in between.
//
// The slice belongs to the turn, not to whoever is working. When every worker pool and every informer's
// notification queue kept a slice of its own, they all woke in the same check phase and each took its 5 ms in
// turn: a profile of a 10,000-workload restart showed the loop held 150–230 ms at a time (issue #16). So one
// budget serves the whole process, and everyone who waits for the next turn wakes into that turn's one slice.

/** How long the process may keep the event loop in one turn before timers and I/O get to run. */
export const EVENT_LOOP_SLICE_MS = 5;

interface TurnState {
  /** When this turn's slice began; undefined until something claims it in a new turn. */
  startedAt: number | undefined;
  /** Whether someone has read the clock and found the slice used up, so others need not read it again. */
  usedUp: boolean;
  /** Parties woken into a slice someone else had used up: they go first next turn, so nobody starves. */
  starved: (() => void)[];
  /** Everyone else waiting for the next turn, in the order they asked. */
  waiters: (() => void)[];
  /** Whether the end-of-turn immediate is already queued. */
  endScheduled: boolean;
}

// On globalThis rather than in this module: an application can load two copies of this package (two versions
// under node_modules), and two budgets would again let the loop be held twice as long. The key carries a
// version so that a copy with a different TurnState shape keeps its own budget instead of misreading this one.
const STATE: unique symbol = Symbol.for('@warmstart/event-loop-turn/v1');
const holder = globalThis as typeof globalThis & { [STATE]?: TurnState };
holder[STATE] ??= { startedAt: undefined, usedUp: false, starved: [], waiters: [], endScheduled: false };
const state: TurnState = holder[STATE];

// Taken at load, so a test that fakes timers cannot leave work waiting for a turn that never comes.
const nextImmediate = setImmediate;

function scheduleEnd(): void {
  if (state.endScheduled) return;
  state.endScheduled = true;
  nextImmediate(endTurn);
}

// Runs in the check phase, after timers and I/O have had their go. The woken resume as microtasks, in order;
// the first to look claims the new slice and the rest share it.
function endTurn(): void {
  state.endScheduled = false;
  state.startedAt = undefined;
  state.usedUp = false;
  const woken = state.starved;
  const waiting = state.waiters;
  state.starved = [];
  state.waiters = [];
  for (const wake of woken) wake();
  for (const wake of waiting) wake();
}

/** Whether this turn's slice is used up. The first caller in a turn starts the slice and hears `false`. */
export function sliceUsed(): boolean {
  if (state.usedUp) return true;
  if (state.startedAt === undefined) {
    startSlice();
    return false;
  }
  state.usedUp = performance.now() - state.startedAt >= EVENT_LOOP_SLICE_MS;
  return state.usedUp;
}

/**
 * Whether someone has already found this turn's slice used up, without reading the clock; starts the slice if
 * none has (reading it then). For callers that look at `sliceUsed()` only every so often: what they do before
 * their first look still counts against the slice, and once anyone has seen it used up they stop at once.
 */
export function sliceKnownUsed(): boolean {
  if (state.startedAt === undefined) startSlice();
  return state.usedUp;
}

function startSlice(): void {
  state.startedAt = performance.now();
  scheduleEnd();
}

/** Resolves after the event loop has run a full turn, when the next turn's slice is there to be claimed. */
export function nextTurn(): Promise<void> {
  return wait(state.waiters);
}

function wait(line: (() => void)[]): Promise<void> {
  return new Promise<void>((resolve) => {
    line.push(resolve);
    scheduleEnd();
  });
}

/**
 * Resolves at once while this turn's slice lasts; otherwise in a later turn whose slice is not used up. Someone
 * woken into a slice that others used up waits again, ahead of those who got to work.
 */
export async function yieldIfBusy(): Promise<void> {
  if (!sliceUsed()) return;
  await nextTurn();
  while (sliceUsed()) await wait(state.starved);
}
