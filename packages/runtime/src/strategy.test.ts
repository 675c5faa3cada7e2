import { describe, expect, it } from 'vitest';
import { UnknownStrategyError } from './errors.js';
import { ALL_CACHES_GATE, CACHE_SYNC_STRATEGIES, cacheSyncStrategy, strategyWaits } from './strategy.js';

describe('cacheSyncStrategy', () => {
  it('parses each known name into data', () => {
    expect(CACHE_SYNC_STRATEGIES.map((n) => cacheSyncStrategy(n))).toEqual([
      { name: 'block-reads', reads: 'wait-for-sync' },
      { name: 'gate-start', reads: 'wait-for-sync', controllersWaitFor: ALL_CACHES_GATE },
      { name: 'fallback', reads: 'fall-back-to-api-server' },
    ]);
    expect(cacheSyncStrategy('gate-start', { allCachesGate: 'host-caches' })).toMatchObject({
      controllersWaitFor: 'host-caches',
    });
  });

  it('rejects an unknown name, listing the valid ones', () => {
    expect(() => cacheSyncStrategy('eager')).toThrow(UnknownStrategyError);
    expect(() => cacheSyncStrategy('eager')).toThrow('use one of: block-reads, gate-start, fallback');
  });

  it('adds the all-caches gate to the controllers group under gate-start only', () => {
    expect(strategyWaits(cacheSyncStrategy('gate-start'), 'controllers')).toEqual(['all-caches']);
    expect(strategyWaits(cacheSyncStrategy('gate-start'), 'caches')).toEqual([]);
    expect(strategyWaits(cacheSyncStrategy('block-reads'), 'controllers')).toEqual([]);
    expect(strategyWaits(cacheSyncStrategy('fallback'), 'controllers')).toEqual([]);
  });
});
