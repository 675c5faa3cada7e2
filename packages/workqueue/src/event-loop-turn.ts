// A worker whose reconciles read only from caches never waits for I/O: each `await` resolves at once, so a pool
// working through a start-up backlog runs as one unbroken chain of microtasks. Timers and sockets then starve;
// at 50,000 workloads that held a leader's Lease renewal back for over ten seconds (probes would wait too), and
// the manager stepped down. Workers therefore hand the event loop a turn once the chain has run for a slice.

/** How long workers may keep the event loop before they let timers and I/O run. */
export const EVENT_LOOP_SLICE_MS = 5;

let turnStartedAt = performance.now();
// Taken at load, so a test that fakes timers cannot leave a worker waiting for a turn that never comes.
const nextTurn = setImmediate;

/** Resolves at once while the current turn is young; otherwise after the event loop has run a full turn. */
export async function yieldIfBusy(): Promise<void> {
  if (performance.now() - turnStartedAt < EVENT_LOOP_SLICE_MS) return;
  await new Promise<void>((resolve) => nextTurn(resolve));
  turnStartedAt = performance.now();
}
