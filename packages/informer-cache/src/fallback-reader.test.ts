import { afterEach, describe, expect, it } from 'vitest';
import { CacheReader } from './cache-reader.js';
import { FallbackCacheReader } from './fallback-reader.js';
import { cm, configmaps, type Fixture, fixture } from './testing/fixtures.js';

const open: Fixture[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
});

describe('FallbackCacheReader (legacy, benchmarks only)', () => {
  it('reads the API server directly while unsynced, counting each read, and the cache once synced', async () => {
    const f = await fixture();
    open.push(f);
    f.server.create(configmaps, cm('a', {}, { app: 'web' }));
    const informer = f.manager.forResource(configmaps);
    const reader = new FallbackCacheReader(f.manager, new CacheReader(f.manager));

    expect((await reader.get(configmaps, 'default/a'))?.metadata.name).toBe('a');
    expect(await reader.get(configmaps, 'default/missing')).toBeUndefined();
    expect((await reader.list(configmaps, { labelSelector: 'app=web' })).map((o) => o.metadata.name)).toEqual(
      ['a'],
    );
    expect(reader.directReads).toBe(3);
    expect(reader.directReadCounts()).toEqual([
      { verb: 'get', resource: 'core/v1/configmaps', count: 2 },
      { verb: 'list', resource: 'core/v1/configmaps', count: 1 },
    ]);
    const directList = f.server.requestsWhere((r) => r.verb === 'list')[0];
    expect(directList?.query.has('resourceVersion')).toBe(false);
    expect(directList?.headers['user-agent']).toMatch(/\(fallback-reader\)$/);

    f.manager.start();
    await informer.waitForSync({ timeoutMs: 5_000 });
    expect((await reader.get(configmaps, 'default/a'))?.metadata.name).toBe('a');
    expect(await reader.list(configmaps)).toHaveLength(1);
    expect(reader.directReads).toBe(3);
    expect(f.transport.accounting.count({ source: 'fallback-reader' })).toBe(3);
  });
});
