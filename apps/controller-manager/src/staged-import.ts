// Loads the manager's module graph a piece at a time, yielding to the event loop between pieces. Node links and
// evaluates everything one import() reaches in a single turn: the manager's ~450 modules took 215 ms of that on
// an idle 2-core machine and 896 ms (539 of them waiting for a core) in a restart in front of 100k workloads, with
// the probe server already listening and unable to answer. Importing the heavy dependencies first, each in its
// own turn, leaves the final import of the manager only its own files.

/** One piece of the graph, e.g. `() => import('yaml')`; a thunk so the compiler checks the specifier resolves. */
export type ImportStage = () => Promise<unknown>;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `stages` in order, one per event-loop turn, then `last`, and returns what `last` resolves to. A module
 * a stage loads is in the module cache when a later stage reaches it, so each turn evaluates only what is new.
 */
export async function importInStages<T>(stages: readonly ImportStage[], last: () => Promise<T>): Promise<T> {
  for (const stage of stages) {
    await stage();
    await nextTurn();
  }
  return last();
}

/**
 * The manager's dependencies, leaves first: what each loads is then absent from the next one's turn. A
 * dependency missing here still loads (with the manager), only in the same turn as it; the order is a matter
 * of speed, not of correctness.
 */
export const MANAGER_IMPORT_STAGES: readonly ImportStage[] = [
  () => import('yaml'),
  () => import('prom-client'),
  () => import('@warmstart/api'),
  () => import('@warmstart/informer-cache'),
  () => import('@warmstart/workqueue'),
  () => import('@warmstart/runtime'),
  () => import('@warmstart/leader-election'),
  () => import('@warmstart/detector'),
  // The controllers, the two biggest (override application, status aggregation) apart from the rest.
  () => import('./controllers/binding-controller.js'),
  () => import('./controllers/binding-status-controller.js'),
  () => import('./controllers/registry.js'),
  () => import('./metrics.js'),
  () => import('./dashboard/index.js'),
  () => import('./endpoint-auth/index.js'),
];
