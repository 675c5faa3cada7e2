import { afterEach, describe, expect, it } from 'vitest';
import { CacheReader, type Reader } from './cache-reader.js';
import { MutationCache, type MutationCacheOptions } from './mutation-cache.js';
import { readYourWritesReader, recordingWriter, type WriteMethods } from './read-your-writes.js';
import { cm, configmaps, deployments, type Fixture, fixture } from './testing/fixtures.js';
import { until } from './testing/recorder.js';
import type { KubeObject } from './types.js';
import { Writer } from './writer.js';

const open: Fixture[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
});

interface Setup {
  readonly f: Fixture;
  readonly cache: MutationCache;
  readonly reader: Reader;
  readonly writer: WriteMethods;
  /** Stops the informer hearing of changes (our writes included) until `catchUp`. */
  lag(): void;
  /** Lets the informer resume its watch and waits until its store holds `key` at `rv` (or lacks it). */
  catchUp(key: string, rv: string | undefined): Promise<void>;
}

async function setup(options: MutationCacheOptions = {}): Promise<Setup> {
  const f = await fixture();
  open.push(f);
  f.server.create(configmaps, cm('existing', { v: '1' }, { app: 'web' }));
  const informer = f.manager.forResource(configmaps, undefined, {
    indexers: { byApp: (o) => [o.metadata.labels?.app ?? ''] },
  });
  f.manager.start();
  await f.manager.waitForSync({ timeoutMs: 5_000 });
  await f.server.waitForWatch(configmaps);
  const cache = new MutationCache(f.manager, options);
  return {
    f,
    cache,
    reader: readYourWritesReader(new CacheReader(f.manager), cache),
    writer: recordingWriter(new Writer(f.transport, { source: 'test' }), cache),
    lag: () => f.server.stallWatches(),
    async catchUp(key, rv) {
      f.server.closeWatches();
      await until(
        () => informer.store.get(key)?.metadata.resourceVersion === rv,
        5_000,
        `store has ${key}@${rv}`,
      );
    },
  };
}

const names = (objects: readonly KubeObject[]) => objects.map((o) => o.metadata.name).sort();

describe('MutationCache through readYourWritesReader and recordingWriter', () => {
  it('serves a created object before the informer has it, then the store once it catches up', async () => {
    const s = await setup();
    s.lag();
    const created = await s.writer.create(configmaps, cm('new', {}, { app: 'web' }));
    expect(s.f.manager.lister(configmaps).get('default/new')).toBeUndefined();
    expect((await s.reader.get(configmaps, 'default/new'))?.metadata.resourceVersion).toBe(
      created.metadata.resourceVersion,
    );
    expect(names(await s.reader.list(configmaps, { labelSelector: 'app=web' }))).toEqual(['existing', 'new']);
    expect(names(await s.reader.list(configmaps, { namespace: 'other' }))).toEqual([]);
    expect(names(await s.reader.byIndex(configmaps, 'byApp', 'web'))).toEqual(['existing', 'new']);
    expect(names(await s.reader.byIndex(configmaps, 'byApp', 'db'))).toEqual([]);
    // Cached objects are transformed and frozen like the store's, and the caller's own copy is left alone.
    const served = await s.reader.get(configmaps, 'default/new');
    expect(Object.isFrozen(served)).toBe(true);
    expect(served?.metadata.managedFields).toBeUndefined();
    expect(Object.isFrozen(created)).toBe(false);
    expect(s.cache.size).toBe(1);

    await s.catchUp('default/new', created.metadata.resourceVersion);
    const fromStore = s.f.manager.lister(configmaps).get('default/new');
    expect(await s.reader.get(configmaps, 'default/new')).toBe(fromStore);
    expect(s.cache.size).toBe(0);
  });

  it('serves an update, and its effect on label selectors and indexes, until the informer catches up', async () => {
    const s = await setup();
    const before = s.f.manager.lister(configmaps).get('default/existing');
    s.lag();
    const updated = await s.writer.patch(configmaps, 'default/existing', {
      type: 'merge',
      patch: { metadata: { labels: { app: 'db' } } },
    });
    expect((await s.reader.get(configmaps, 'default/existing'))?.metadata.labels?.app).toBe('db');
    expect(names(await s.reader.list(configmaps, { labelSelector: 'app=web' }))).toEqual([]);
    expect(names(await s.reader.list(configmaps, { labelSelector: 'app=db' }))).toEqual(['existing']);
    expect(names(await s.reader.byIndex(configmaps, 'byApp', 'web'))).toEqual([]);
    expect(names(await s.reader.byIndex(configmaps, 'byApp', 'db'))).toEqual(['existing']);
    expect(s.f.manager.lister(configmaps).get('default/existing')).toBe(before);
    await s.catchUp('default/existing', updated.metadata.resourceVersion);
    expect((await s.reader.get(configmaps, 'default/existing'))?.metadata.resourceVersion).toBe(
      updated.metadata.resourceVersion,
    );
    expect(s.cache.size).toBe(0);
  });

  it('never serves a write older than the store: a newer change by someone else wins', async () => {
    const s = await setup();
    s.lag();
    const ours = await s.writer.patch(configmaps, 'default/existing', {
      type: 'merge',
      patch: { data: { v: 'ours' } },
    });
    const theirs = s.f.server.update(configmaps, cm('existing', { v: 'theirs' }, { app: 'web' }));
    expect(Number(theirs.metadata.resourceVersion)).toBeGreaterThan(Number(ours.metadata.resourceVersion));
    expect((await s.reader.get(configmaps, 'default/existing'))?.data).toEqual({ v: 'ours' });
    await s.catchUp('default/existing', theirs.metadata.resourceVersion);
    expect((await s.reader.get(configmaps, 'default/existing'))?.data).toEqual({ v: 'theirs' });
    expect(s.cache.size).toBe(0);

    // A write response older than what the store already holds is not recorded at all.
    s.cache.mutated(configmaps, ours);
    expect(s.cache.size).toBe(0);
  });

  describe('when the informer catches up while a read is in flight', () => {
    // The store answers, then the overlay runs, with awaits in between; a reflector woken in the same event-loop
    // turn can apply our write's event there (issue #16: a FullyApplied write computed from the binding before
    // our own previous status write, refused with 409). `between` runs after the store answered, before the
    // overlay: what it makes the informer deliver must not hide our write behind the older answer.
    async function racing(s: Setup, between: () => Promise<void>): Promise<Reader> {
      const store = new CacheReader(s.f.manager);
      let armed = true;
      const race = async <T>(answer: T): Promise<T> => {
        if (armed) {
          armed = false;
          await between();
        }
        return answer;
      };
      return readYourWritesReader(
        {
          get: async (gvr, key, options) => race(await store.get(gvr, key, options)),
          list: async (gvr, options) => race(await store.list(gvr, options)),
          byIndex: async (gvr, index, value, options) =>
            race(await store.byIndex(gvr, index, value, options)),
        },
        s.cache,
      );
    }

    it('get answers our update, not the object the store held when it was read', async () => {
      const s = await setup();
      s.lag();
      const ours = await s.writer.patch(configmaps, 'default/existing', {
        type: 'merge',
        patch: { data: { v: 'ours' } },
      });
      const reader = await racing(s, () => s.catchUp('default/existing', ours.metadata.resourceVersion));
      const read = await reader.get(configmaps, 'default/existing');
      expect(read?.metadata.resourceVersion).toBe(ours.metadata.resourceVersion);
      expect(read?.data).toEqual({ v: 'ours' });
      expect(s.cache.size).toBe(0);
    });

    it('get hides our delete although another read dropped the entry meanwhile', async () => {
      const s = await setup();
      s.lag();
      await s.writer.delete(configmaps, 'default/existing');
      const reader = await racing(s, async () => {
        await s.catchUp('default/existing', undefined);
        // Another worker's read in the same turn finds the delete caught up and drops it.
        expect(await s.reader.get(configmaps, 'default/existing')).toBeUndefined();
        expect(s.cache.size).toBe(0);
      });
      expect(await reader.get(configmaps, 'default/existing')).toBeUndefined();
    });

    it("keeps the reader's answer when the informer has not moved since the read began", async () => {
      const s = await setup();
      s.lag();
      await s.writer.create(configmaps, cm('new', {}, { app: 'web' }));
      // Copies, to tell the reader's answer from a second read of the store.
      const store = new CacheReader(s.f.manager);
      const answered: KubeObject[] = [];
      const keep = <T extends KubeObject>(objects: T[]): T[] => {
        const copies = objects.map((o) => structuredClone(o));
        answered.push(...copies);
        return copies;
      };
      const reader = readYourWritesReader(
        {
          get: async (gvr, key, options) =>
            keep([await store.get(gvr, key, options)].filter((o) => o !== undefined))[0],
          list: async (gvr, options) => keep(await store.list(gvr, options)),
          byIndex: async (gvr, index, value, options) =>
            keep(await store.byIndex(gvr, index, value, options)),
        },
        s.cache,
      );
      expect(await reader.get(configmaps, 'default/existing')).toBe(answered.at(-1));
      const listed = await reader.list(configmaps);
      expect(names(listed)).toEqual(['existing', 'new']);
      expect(listed).toContain(answered.at(-1));
    });

    it('list and byIndex show our create and update', async () => {
      const s = await setup();
      s.lag();
      const created = await s.writer.create(configmaps, cm('new', {}, { app: 'web' }));
      const list = await racing(s, () => s.catchUp('default/new', created.metadata.resourceVersion));
      expect(names(await list.list(configmaps, { labelSelector: 'app=web' }))).toEqual(['existing', 'new']);

      s.lag();
      const moved = await s.writer.patch(configmaps, 'default/existing', {
        type: 'merge',
        patch: { metadata: { labels: { app: 'db' } } },
      });
      const index = await racing(s, () => s.catchUp('default/existing', moved.metadata.resourceVersion));
      expect(names(await index.byIndex(configmaps, 'byApp', 'web'))).toEqual(['new']);
      expect(names(await s.reader.byIndex(configmaps, 'byApp', 'db'))).toEqual(['existing']);
    });
  });

  it('hides a deleted object until the informer drops it', async () => {
    const s = await setup();
    s.lag();
    await s.writer.delete(configmaps, 'default/existing');
    expect(s.f.manager.lister(configmaps).get('default/existing')).toBeDefined();
    expect(await s.reader.get(configmaps, 'default/existing')).toBeUndefined();
    expect(await s.reader.list(configmaps)).toEqual([]);
    expect(await s.reader.byIndex(configmaps, 'byApp', 'web')).toEqual([]);
    await s.catchUp('default/existing', undefined);
    expect(await s.reader.get(configmaps, 'default/existing')).toBeUndefined();
    expect(s.cache.size).toBe(0);
  });

  it('shows an object re-created by someone else after our delete once the informer has it', async () => {
    const s = await setup();
    s.lag();
    await s.writer.delete(configmaps, 'default/existing');
    const again = s.f.server.create(configmaps, cm('existing', { v: 'again' }));
    await s.catchUp('default/existing', again.metadata.resourceVersion);
    expect((await s.reader.get(configmaps, 'default/existing'))?.data).toEqual({ v: 'again' });
  });

  it('stops serving a write after its TTL', async () => {
    let now = 1_000;
    const s = await setup({ ttlMs: 100, clock: { now: () => now } });
    s.lag();
    await s.writer.create(configmaps, cm('new'));
    expect(await s.reader.get(configmaps, 'default/new')).toBeDefined();
    now += 100;
    expect(await s.reader.get(configmaps, 'default/new')).toBeUndefined();
    expect(s.cache.size).toBe(0);
  });

  it('holds at most maxEntries writes, evicting the oldest', async () => {
    const s = await setup({ maxEntries: 2 });
    s.lag();
    for (const name of ['a', 'b', 'c']) await s.writer.create(configmaps, cm(name));
    expect(s.cache.size).toBe(2);
    expect(await s.reader.get(configmaps, 'default/a')).toBeUndefined();
    expect(names(await s.reader.list(configmaps))).toEqual(['b', 'c', 'existing']);
  });

  it('records nothing for a dry run, a resource without an informer, or a failed write', async () => {
    const s = await setup();
    s.lag();
    await s.writer.create(configmaps, cm('dry'), { dryRun: true });
    await s.writer.create(deployments, { metadata: { name: 'd', namespace: 'default' }, spec: {} });
    await expect(s.writer.create(configmaps, cm('existing'))).rejects.toMatchObject({ code: 409 });
    expect(s.cache.size).toBe(0);
    expect(await s.reader.get(configmaps, 'default/dry')).toBeUndefined();
  });

  it('sends no read to the API server', async () => {
    const s = await setup();
    s.lag();
    await s.writer.create(configmaps, cm('new'));
    await s.reader.get(configmaps, 'default/new');
    await s.reader.list(configmaps);
    expect(s.f.transport.accounting.count({ verb: 'get' })).toBe(0);
    expect(s.f.transport.accounting.count({ verb: 'list', source: 'test' })).toBe(0);
  });
});
