// The three cache-sync strategies of DESIGN.md §4 as plain data. The manager parses its
// --cache-sync-strategy flag into one of these and hands it to the Lifecycle (which gates the controllers
// group) and to the cache (which decides what an unsynced read does). No behaviour lives here.
import { ALL_CACHES_GATE } from '@warmstart/sync-gate';
import { UnknownStrategyError } from './errors.js';

export { ALL_CACHES_GATE };

/** The group whose start the strategy may hold back. */
export const CONTROLLERS_GROUP = 'controllers';

/**
 * What a strategy means, as data:
 * - `block-reads` (default): controllers start once their own gates (leader) open; a read of an unsynced
 *   informer waits for that informer's gate.
 * - `gate-start`: as block-reads, and the controllers group also waits for the gate named
 *   `controllersWaitFor` (the all-caches aggregate), like controller-runtime's cache group.
 * - `fallback`: legacy comparison mode; controllers start at once and an unsynced read goes to the API server.
 *
 * `reads` tells the cache what an unsynced read does, so no consumer needs to compare strategy names.
 */
export type CacheSyncStrategy =
  | { readonly name: 'block-reads'; readonly reads: 'wait-for-sync' }
  | { readonly name: 'gate-start'; readonly reads: 'wait-for-sync'; readonly controllersWaitFor: string }
  | { readonly name: 'fallback'; readonly reads: 'fall-back-to-api-server' };

export type CacheSyncStrategyName = CacheSyncStrategy['name'];

/** Every strategy name, default first: for flag help and validation. */
export const CACHE_SYNC_STRATEGIES: readonly CacheSyncStrategyName[] = [
  'block-reads',
  'gate-start',
  'fallback',
];

/** Options for cacheSyncStrategy. */
export interface CacheSyncStrategyOptions {
  /** The aggregate gate gate-start waits for; default ALL_CACHES_GATE. */
  readonly allCachesGate?: string | undefined;
}

/** Parses a strategy name (e.g. a flag value) into its data; throws UnknownStrategyError for any other text. */
export function cacheSyncStrategy(name: string, options: CacheSyncStrategyOptions = {}): CacheSyncStrategy {
  switch (name) {
    case 'block-reads':
      return { name, reads: 'wait-for-sync' };
    case 'gate-start':
      return { name, reads: 'wait-for-sync', controllersWaitFor: options.allCachesGate ?? ALL_CACHES_GATE };
    case 'fallback':
      return { name, reads: 'fall-back-to-api-server' };
    default:
      throw new UnknownStrategyError(name, CACHE_SYNC_STRATEGIES);
  }
}

/** The gate names the strategy adds to a group's own waits: non-empty only for gate-start's controllers group. */
export function strategyWaits(strategy: CacheSyncStrategy, group: string): readonly string[] {
  if (strategy.name === 'gate-start' && group === CONTROLLERS_GROUP) return [strategy.controllersWaitFor];
  return [];
}
