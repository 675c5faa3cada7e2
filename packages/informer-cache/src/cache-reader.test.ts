import { GateAbortedError } from '@warmstart/sync-gate';
import { afterEach, describe, expect, it } from 'vitest';
import { CacheReader } from './cache-reader.js';
import { CacheSyncTimeoutError, ForbiddenResourceError, NotCachedError } from './errors.js';
import type { CacheMetrics, ReaderWaitOutcome } from './metrics.js';
import { cm, configmaps, deployments, type Fixture, fixture, namespaces } from './testing/fixtures.js';
import { Recorder } from './testing/recorder.js';

const open: Fixture[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
});

async function setup(...args: Parameters<typeof fixture>): Promise<Fixture> {
  const f = await fixture(...args);
  open.push(f);
  return f;
}

/** Every request the server saw is an informer's: a watch, or a list carrying resourceVersion. */
function expectOnlyInformerRequests(f: Fixture): void {
  for (const r of f.server.requests) {
    expect(r.headers['user-agent']).toMatch(/^warmstart\/\S+ \(informer\)$/);
    expect(['list', 'watch']).toContain(r.verb);
    if (r.verb === 'list') expect(r.query.has('resourceVersion')).toBe(true);
  }
  expect(f.transport.accounting.count({ verb: 'get' })).toBe(0);
}

describe('CacheReader', () => {
  it('waits for the informer to sync, then serves get, list and byIndex from the store', async () => {
    const f = await setup();
    f.server.create(configmaps, cm('a', {}, { app: 'web' }));
    f.server.create(configmaps, cm('b', {}, { app: 'db' }, 'other'));
    f.manager.forResource(configmaps, undefined, {
      indexers: { byApp: (o) => [o.metadata.labels?.app ?? ''] },
    });
    const reader = new CacheReader(f.manager);
    let settled = false;
    const pending = reader.get(configmaps, 'default/a', { timeoutMs: 5_000 }).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    f.manager.start();
    expect((await pending)?.metadata.name).toBe('a');
    expect(await reader.get(configmaps, { namespace: 'default', name: 'missing' })).toBeUndefined();
    expect((await reader.list(configmaps, { labelSelector: 'app=db' })).map((o) => o.metadata.name)).toEqual([
      'b',
    ]);
    expect(await reader.list(configmaps, { namespace: 'other', labelSelector: 'app=web' })).toEqual([]);
    expect((await reader.byIndex(configmaps, 'byApp', 'web')).map((o) => o.metadata.name)).toEqual(['a']);
    expectOnlyInformerRequests(f);
  });

  it('throws NotCachedError for a resource without an informer, naming it and the fix', async () => {
    const f = await setup();
    const reader = new CacheReader(f.manager);
    const error = await reader.get(deployments, 'default/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotCachedError);
    expect((error as NotCachedError).resource).toBe('apps/v1/deployments');
    expect((error as Error).message).toMatch(
      /apps\/v1\/deployments is not cached in cluster "fake".*forResource/,
    );
    expect(f.server.requests).toHaveLength(0);
  });

  it('rejects with CacheSyncTimeoutError naming the resource when the deadline passes', async () => {
    const waits = new Recorder<ReaderWaitOutcome>();
    const metrics: CacheMetrics = { readerWaited: (_l, _ms, outcome) => waits.push(outcome) };
    const f = await setup({}, { metrics });
    f.manager.forResource(configmaps);
    const reader = new CacheReader(f.manager, { timeoutMs: 50 });
    const error = await reader.list(configmaps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CacheSyncTimeoutError);
    expect((error as CacheSyncTimeoutError).resource).toBe('core/v1/configmaps');
    expect((error as Error).message).toMatch(/core\/v1\/configmaps informer of cluster "fake".*not started/);
    expect(waits.values).toEqual(['timeout']);
  });

  it('waits for a slow list past its stall deadline while pages keep coming, and fails a stuck one', async () => {
    // Paged like etcd (no watch cache), so each page is a request the server can slow down.
    const f = await setup({ watchCache: false }, { informers: { pageSize: 2, watchList: 'never' } });
    for (let i = 0; i < 16; i++) f.server.create(configmaps, cm(`c${i}`));
    // Eight pages, 250 ms each: the list takes over 2 s, a page never much more than 250 ms after the last.
    f.server.delay({ verb: 'list', resource: 'core/v1/configmaps' }, 250);
    f.manager.forResource(configmaps);
    f.manager.start();
    const reader = new CacheReader(f.manager, { stallTimeoutMs: 1500 });
    const started = Date.now();
    expect(await reader.list(configmaps)).toHaveLength(16);
    expect(f.server.requests.filter((r) => r.verb === 'list')).toHaveLength(8);
    expect(Date.now() - started).toBeGreaterThan(1500);

    // A list that stops answering after its first page fails on the stall deadline, saying it is stuck.
    f.server.create(deployments, { metadata: { name: 'a', namespace: 'default' } });
    f.server.create(deployments, { metadata: { name: 'b', namespace: 'default' } });
    f.server.create(deployments, { metadata: { name: 'c', namespace: 'default' } });
    f.server.clearDelays();
    f.server.delay(
      { verb: 'list', resource: 'apps/v1/deployments', match: (r) => r.query.has('continue') },
      60_000,
    );
    f.manager.forResource(deployments).start();
    const error = await reader.list(deployments).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CacheSyncTimeoutError);
    expect((error as CacheSyncTimeoutError).stalledMs).toBeGreaterThanOrEqual(1500);
    expect((error as Error).message).toMatch(
      /apps\/v1\/deployments informer of cluster "fake" made no progress towards sync for \d+ ms \(the read waited \d+ ms\) \(listed 2 objects\)\. Its list is stuck/,
    );
  }, 15_000);

  it('rejects promptly with ForbiddenResourceError while RBAC forbids the list', async () => {
    const f = await setup();
    f.server.forbid(namespaces);
    f.manager.forResource(namespaces);
    f.manager.start();
    const reader = new CacheReader(f.manager, { timeoutMs: 30_000 });
    const started = Date.now();
    await expect(reader.get(namespaces, 'kube-system')).rejects.toBeInstanceOf(ForbiddenResourceError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('honours the caller abort signal', async () => {
    const f = await setup();
    f.manager.forResource(configmaps);
    const reader = new CacheReader(f.manager);
    const abort = new AbortController();
    const read = reader.get(configmaps, 'default/a', { signal: abort.signal });
    abort.abort(new Error('request cancelled'));
    await expect(read).rejects.toBeInstanceOf(GateAbortedError);
  });

  it('in lazy mode registers, starts and waits for an informer, still reading only from the cache', async () => {
    const f = await setup();
    f.server.create(namespaces, { metadata: { name: 'kube-system' } });
    const reader = new CacheReader(f.manager, { mode: 'lazy', timeoutMs: 5_000 });
    expect(f.manager.isRegistered(namespaces)).toBe(false);
    const ns = await reader.get(namespaces, 'kube-system');
    expect(ns?.metadata.name).toBe('kube-system');
    expect(f.manager.isRegistered(namespaces)).toBe(true);
    expect(f.manager.hasSynced(namespaces)).toBe(true);
    expectOnlyInformerRequests(f);
  });

  it('lazy mode has a deadline too', async () => {
    const f = await setup();
    f.server.fault({ resource: 'core/v1/namespaces' }, { code: 500, times: Number.POSITIVE_INFINITY });
    const reader = new CacheReader(f.manager, { mode: 'lazy', timeoutMs: 100 });
    await expect(reader.list(namespaces)).rejects.toBeInstanceOf(CacheSyncTimeoutError);
  });
});
