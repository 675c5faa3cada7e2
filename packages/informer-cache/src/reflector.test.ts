import { turnMeter } from '@warmstart/workqueue/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from './clock.js';
import type { ReflectorEvent } from './events.js';
import { DeletedFinalStateUnknown } from './handlers.js';
import type { CacheMetrics, WatchRestartReason } from './metrics.js';
import { Reflector, type ReflectorOptions } from './reflector.js';
import { Store, type StoreSink } from './store.js';
import { FakeApiServer, type RecordedRequest } from './testing/fake-api-server.js';
import { Recorder, until } from './testing/recorder.js';
import { ApiTransport } from './transport.js';
import type { GroupVersionResource, KubeObject } from './types.js';

const configmaps: GroupVersionResource = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
  kind: 'ConfigMap',
};

function cm(name: string, data: Record<string, string> = {}, namespace = 'default') {
  return { metadata: { name, namespace }, data };
}

interface Harness {
  server: FakeApiServer;
  reflector: Reflector;
  store: Store;
  notes: Recorder<string>;
  events: Recorder<ReflectorEvent>;
  errors: Recorder<Error>;
  restarts: Recorder<WatchRestartReason>;
  stop: () => Promise<void>;
}

const running: Harness[] = [];
afterEach(async () => {
  for (const h of running.splice(0)) {
    await h.stop();
    await h.server.close();
  }
});

async function harness(
  serverOptions: Parameters<typeof FakeApiServer.start>[0] = {},
  setup: (server: FakeApiServer) => void = () => {},
  options: Partial<ReflectorOptions> = {},
): Promise<Harness> {
  const server = await FakeApiServer.start(serverOptions);
  server.addResource(configmaps);
  setup(server);
  const transport = new ApiTransport(server.endpoint());
  const store = new Store();
  const events = new Recorder<ReflectorEvent>();
  const errors = new Recorder<Error>();
  const restarts = new Recorder<WatchRestartReason>();
  const notes = new Recorder<string>();
  const sink: StoreSink<KubeObject> = {
    added: (o) => notes.push(`add:${o.metadata.name}`),
    updated: (_a, b) => notes.push(`update:${b.metadata.name}`),
    deleted: (o) =>
      notes.push(
        o instanceof DeletedFinalStateUnknown
          ? `tombstone:${o.obj.metadata.name}`
          : `delete:${o.metadata.name}`,
      ),
  };
  const metrics: CacheMetrics = { watchRestarted: (_l, reason) => restarts.push(reason) };
  const reflector = new Reflector(
    { gvr: configmaps, transport, backoff: { initialMs: 5, maxMs: 20 }, metrics, ...options },
    {
      onEvent: (e) => {
        store.apply(e, sink);
        events.push(e);
      },
      onError: (e) => errors.push(e),
    },
  );
  const abort = new AbortController();
  const done = reflector.run(abort.signal);
  const h: Harness = {
    server,
    reflector,
    store,
    notes,
    events,
    errors,
    restarts,
    stop: async () => {
      abort.abort();
      await done;
      transport.close();
    },
  };
  running.push(h);
  return h;
}

const synced = (e: ReflectorEvent) => e.type === 'init-done';
const isList = (r: RecordedRequest) => r.verb === 'list';
const isWatch = (r: RecordedRequest) => r.verb === 'watch';
const names = (store: Store) =>
  store
    .list()
    .map((o) => o.metadata.name)
    .sort();

function expectEveryListCarriesResourceVersion(server: FakeApiServer): void {
  for (const r of server.requestsWhere(isList)) expect(r.query.has('resourceVersion')).toBe(true);
}

describe('Reflector initial sync by paged LIST', () => {
  it('follows continue tokens page by page, every page carrying a resourceVersion', async () => {
    const h = await harness(
      { watchList: false, watchCache: false },
      (s) => {
        for (let i = 0; i < 7; i++) s.create(configmaps, cm(`cm-${i}`));
      },
      { pageSize: 3 },
    );
    const done = await h.events.waitFor(synced);
    const lists = h.server.requestsWhere(isList);
    expect(
      lists.map((r) => [r.query.get('limit'), r.query.get('resourceVersion'), r.query.has('continue')]),
    ).toEqual([
      ['3', '0', false],
      ['3', '0', true],
      ['3', '0', true],
    ]);
    expect(h.store.size).toBe(7);
    expect(done).toEqual({ type: 'init-done', resourceVersion: h.server.resourceVersion });
    // List items lack apiVersion/kind on the wire; the reflector fills them in.
    expect(h.store.get('default/cm-0')).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
    await h.server.waitForRequest(isWatch);
    expectEveryListCarriesResourceVersion(h.server);
  });

  it('gets the whole list in one response when the watch cache serves resourceVersion=0', async () => {
    const h = await harness(
      { watchList: false },
      (s) => {
        for (let i = 0; i < 5; i++) s.create(configmaps, cm(`cm-${i}`));
      },
      { pageSize: 2 },
    );
    await h.events.waitFor(synced);
    expect(h.server.requestsWhere(isList)).toHaveLength(1);
    expect(h.store.size).toBe(5);
  });

  it('restarts as one full list when a continue token expires', async () => {
    const h = await harness(
      { watchList: false, watchCache: false },
      (s) => {
        for (let i = 0; i < 5; i++) s.create(configmaps, cm(`cm-${i}`));
        s.fault(
          { verb: 'list', match: (r) => r.query.has('continue') },
          { code: 410, reason: 'Expired', message: 'continue token too old' },
        );
      },
      { pageSize: 2 },
    );
    await h.events.waitFor(synced);
    const lists = h.server.requestsWhere(isList);
    expect(
      lists.map((r) => [r.query.get('limit'), r.query.has('continue'), r.query.get('resourceVersion')]),
    ).toEqual([
      ['2', false, '0'],
      ['2', true, '0'],
      [null, false, '0'],
    ]);
    expect(names(h.store)).toEqual(['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4']);
    // The half-done first attempt was discarded: two init events, one init-done.
    expect(h.events.count((e) => e.type === 'init')).toBe(2);
  });
});

describe('Reflector initial sync by WatchList', () => {
  it('streams initial events into a relist that ends at the initial-events-end bookmark, then stays on the watch', async () => {
    const h = await harness({}, (s) => {
      s.create(configmaps, cm('a'));
      s.create(configmaps, cm('b'));
    });
    const done = await h.events.waitFor(synced);
    expect(done).toEqual({ type: 'init-done', resourceVersion: h.server.resourceVersion });
    expect(h.events.values.map((e) => e.type)).toEqual(['init', 'init-apply', 'init-apply', 'init-done']);
    const watches = h.server.requestsWhere(isWatch);
    expect(watches).toHaveLength(1);
    expect(Object.fromEntries(watches[0]?.query ?? [])).toMatchObject({
      watch: 'true',
      sendInitialEvents: 'true',
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: 'true',
    });
    expect(h.server.requestsWhere(isList)).toHaveLength(0);

    h.server.create(configmaps, cm('c'));
    await h.events.waitFor((e) => e.type === 'apply' && e.object.metadata.name === 'c');
    expect(names(h.store)).toEqual(['a', 'b', 'c']);
    expect(h.server.requestsWhere(isWatch)).toHaveLength(1);
  });

  it('falls back to a paged LIST when the server refuses sendInitialEvents, and stops asking', async () => {
    const h = await harness({ watchList: false }, (s) => s.create(configmaps, cm('a')));
    await h.events.waitFor(synced);
    const first = h.server.requests.filter((r) => r.verb === 'list' || r.verb === 'watch');
    expect(first.map((r) => [r.verb, r.query.get('sendInitialEvents')])).toEqual([
      ['watch', 'true'],
      ['list', null],
    ]);
    // A later relist (after 410) goes straight to LIST.
    await h.server.waitForWatch(configmaps);
    h.server.compact();
    h.server.expireWatches();
    await h.events.next(synced);
    const sendInitial = h.server.requestsWhere((r) => r.query.get('sendInitialEvents') === 'true');
    expect(sendInitial).toHaveLength(1);
    expectEveryListCarriesResourceVersion(h.server);
  });
});

describe('Reflector watch', () => {
  it('resumes from the last resourceVersion after a server-side close, without relisting', async () => {
    const h = await harness({ watchList: false }, (s) => s.create(configmaps, cm('a')));
    await h.events.waitFor(synced);
    await h.server.waitForWatch(configmaps);
    const changed = h.server.update(configmaps, cm('a', { v: '2' }));
    await h.events.waitFor((e) => e.type === 'apply');
    const before = h.server.resourceVersion;
    h.server.closeWatches();
    const next = await h.server.nextRequest(isWatch);
    expect(next.query.get('resourceVersion')).toBe(before);
    expect(changed.metadata.resourceVersion).toBe(before);
    h.server.create(configmaps, cm('b'));
    await h.events.waitFor((e) => e.type === 'apply' && e.object.metadata.name === 'b');
    expect(h.server.requestsWhere(isList)).toHaveLength(1);
    expect(h.restarts.values).toContain('timeout');
  });

  it('relists at once on 410 and leaves the store exact, with tombstones for deletes in the gap', async () => {
    const h = await harness({ watchList: false }, (s) => {
      s.create(configmaps, cm('keep'));
      s.create(configmaps, cm('gone'));
      s.create(configmaps, cm('changed'));
    });
    await h.events.waitFor(synced);
    await h.server.waitForWatch(configmaps);
    h.notes.values.length = 0;
    h.server.stallWatches();
    h.server.remove(configmaps, 'default/gone');
    h.server.update(configmaps, cm('changed', { v: '2' }));
    h.server.create(configmaps, cm('new'));
    h.server.compact();
    const relisted = h.events.next(synced);
    h.server.closeWatches();
    await relisted;
    expect(names(h.store)).toEqual(['changed', 'keep', 'new']);
    expect(h.store.get('default/changed')?.data).toEqual({ v: '2' });
    const lists = h.server.requestsWhere(isList);
    expect(lists).toHaveLength(2);
    // The relist asks for state not older than what it had (served by the watch cache), with no limit.
    expect(lists[1]?.query.get('limit')).toBeNull();
    expect(lists[1]?.query.get('resourceVersion')).not.toBe('0');
    expect(h.notes.values).toEqual(['update:changed', 'add:new', 'tombstone:gone']);
    expectEveryListCarriesResourceVersion(h.server);
  });

  it('restarts a watch that stays silent past the watchdog interval', async () => {
    const h = await harness({ watchList: false }, (s) => s.create(configmaps, cm('a')), { watchdogMs: 150 });
    await h.events.waitFor(synced);
    await h.server.waitForWatch(configmaps);
    const rv = h.server.resourceVersion;
    h.server.stallWatches();
    const restarted = await h.server.nextRequest(isWatch, 3_000);
    expect(restarted.query.get('resourceVersion')).toBe(rv);
    expect(h.restarts.values).toContain('watchdog');
    expect(h.server.requestsWhere(isList)).toHaveLength(1);
  });

  it('keeps the resourceVersion fresh from bookmarks', async () => {
    const h = await harness({ watchList: false }, (s) => s.create(configmaps, cm('a')));
    await h.events.waitFor(synced);
    await h.server.waitForWatch(configmaps);
    // Writes to another resource move the global resourceVersion; a bookmark carries it to this watch.
    const other: GroupVersionResource = {
      group: '',
      version: 'v1',
      resource: 'secrets',
      namespaced: true,
      kind: 'Secret',
    };
    h.server.addResource(other);
    h.server.create(other, cm('s'));
    h.server.bookmark();
    const rv = h.server.resourceVersion;
    await until(() => h.reflector.lastSyncResourceVersion === rv, 3_000, 'bookmark resourceVersion');
    const next = h.server.nextRequest(isWatch);
    h.server.closeWatches();
    expect((await next).query.get('resourceVersion')).toBe(rv);
  });
});

describe('Reflector errors', () => {
  it('backs off with client-go figures on 500s and recovers', async () => {
    const delays: number[] = [];
    const clock: Clock = {
      now: () => Date.now(),
      sleep: async (ms) => {
        delays.push(ms);
      },
    };
    const h = await harness(
      { watchList: false },
      (s) => {
        s.create(configmaps, cm('a'));
        s.fault({ verb: 'list' }, { code: 500, message: 'etcd is sad', times: 4 });
      },
      { clock, random: () => 0.5, backoff: {} },
    );
    await h.events.waitFor(synced);
    // 800 ms x2 per step, each stretched by jitter 1.0 * random 0.5.
    expect(delays).toEqual([1200, 2400, 4800, 9600]);
    expect(h.errors.values[0]?.message).toMatch(/500.*etcd is sad/);
    expect(h.store.size).toBe(1);
  });

  it('relists at once on the first 410 but backs off when the server keeps answering 410', async () => {
    const delays: number[] = [];
    const clock: Clock = {
      now: () => Date.now(),
      sleep: async (ms) => {
        delays.push(ms);
      },
    };
    const h = await harness(
      {},
      (s) => {
        s.create(configmaps, cm('a'));
        s.fault({ verb: 'watch' }, { code: 410, reason: 'Expired', times: Number.POSITIVE_INFINITY });
      },
      { clock, random: () => 0.5, backoff: {}, watchList: 'never' },
    );
    await h.server.waitForRequest(() => h.server.requestsWhere(isList).length >= 4);
    h.server.clearFaults();
    // list, 410, list at once, 410, backoff, list, 410, backoff, list ...
    expect(delays.slice(0, 2)).toEqual([1200, 2400]);
    expect(h.server.requestsWhere(isList).length - delays.length).toBeGreaterThanOrEqual(1);
  });

  it('reports 403 on list as ForbiddenResourceError and keeps retrying', async () => {
    const h = await harness({ watchList: false }, (s) => {
      s.create(configmaps, cm('a'));
      s.forbid(configmaps);
    });
    const error = await h.errors.waitFor(() => true);
    expect(error.name).toBe('ForbiddenResourceError');
    expect(error.message).toMatch(/core\/v1\/configmaps.*403 Forbidden/);
    h.server.allow(configmaps);
    await h.events.waitFor(synced);
    expect(h.store.size).toBe(1);
  });

  it('reports a resource the server does not serve as ResourceNotServedError', async () => {
    const server = await FakeApiServer.start({ watchList: false });
    const transport = new ApiTransport(server.endpoint());
    const errors = new Recorder<Error>();
    const abort = new AbortController();
    const crd: GroupVersionResource = {
      group: 'example.com',
      version: 'v1',
      resource: 'widgets',
      namespaced: true,
      kind: 'Widget',
    };
    const done = new Reflector(
      { gvr: crd, transport, backoff: { initialMs: 5 } },
      { onEvent: () => {}, onError: (e) => errors.push(e) },
    ).run(abort.signal);
    try {
      const error = await errors.waitFor(() => true);
      expect(error.name).toBe('ResourceNotServedError');
      expect(error.message).toMatch(/example\.com\/v1\/widgets/);
    } finally {
      abort.abort();
      await done;
      await server.close();
    }
  });
});

describe('Reflector decoding', () => {
  it('transforms, then freezes, every object before emitting it', async () => {
    const seen: KubeObject[] = [];
    const h = await harness(
      { watchList: false },
      (s) => {
        s.create(configmaps, {
          metadata: {
            name: 'a',
            namespace: 'default',
            managedFields: [{ manager: 'x' }],
          },
          data: { k: 'v' },
        });
      },
      {
        transform: (o) => {
          seen.push(o);
          expect(Object.isFrozen(o)).toBe(false);
          return { ...o, data: { k: 'transformed' } };
        },
      },
    );
    await h.events.waitFor(synced);
    const stored = h.store.get('default/a');
    expect(seen).toHaveLength(1);
    // Only the default transform lets the decoder cut managedFields from the text: a custom one sees them.
    expect(seen[0]?.metadata.managedFields).toEqual([{ manager: 'x' }]);
    expect(stored?.data).toEqual({ k: 'transformed' });
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored?.data)).toBe(true);
  });

  it.each([true, false])(
    'drops managedFields by default (WatchList %s), listed and watched',
    async (watchList) => {
      const managedFields = [{ manager: 'x', fieldsV1: { 'f:data': { 'f:k': {} } } }];
      const h = await harness({ watchList }, (s) => {
        s.create(configmaps, {
          metadata: { name: 'a', namespace: 'default', labels: { l: '1' }, managedFields },
          data: { k: 'v' },
        });
      });
      await h.events.waitFor(synced);
      const listed = h.store.get('default/a');
      expect(listed?.metadata.managedFields).toBeUndefined();
      expect(listed).toMatchObject({ metadata: { name: 'a', labels: { l: '1' } }, data: { k: 'v' } });
      h.server.update(configmaps, {
        metadata: { name: 'a', namespace: 'default', labels: { l: '2' }, managedFields },
        data: { k: 'w' },
      });
      await h.notes.waitFor((n) => n === 'update:a');
      const watched = h.store.get('default/a');
      expect(watched?.metadata.managedFields).toBeUndefined();
      expect(watched).toMatchObject({ metadata: { labels: { l: '2' } }, data: { k: 'w' } });
    },
  );
});

describe('Reflector decoding a large initial list', { timeout: 60_000 }, () => {
  // CPU-bound by design; the assertion counts work per turn, not wall time.
  it('gives the event loop a turn between network chunks once the slice is used', async () => {
    const server = await FakeApiServer.start({});
    server.addResource(configmaps);
    const filler = 'x'.repeat(400);
    for (let i = 0; i < 4_000; i++) server.create(configmaps, cm(`cm-${i}`, { filler }));
    const transport = new ApiTransport(server.endpoint());
    const meter = turnMeter();
    const perObjectMs = 0.02;
    let applied = 0;
    let synced = false;
    const abort = new AbortController();
    const done = new Reflector(
      { gvr: configmaps, transport, backoff: { initialMs: 5, maxMs: 20 } },
      {
        onEvent: (e) => {
          if (e.type === 'init-done') synced = true;
          if (e.type !== 'init-apply') return;
          const until = performance.now() + perObjectMs;
          while (performance.now() < until);
          meter.record(perObjectMs);
          applied++;
        },
        onError: () => undefined,
      },
    ).run(abort.signal);
    try {
      await until(() => synced, 30_000);
    } finally {
      meter.stop();
      abort.abort();
      await done;
      transport.close();
      await server.close();
    }
    expect(applied).toBe(4_000);
    // 4,000 objects of 0.02 ms: 80 ms in all, which one turn took whole when the buffered chunks were decoded back
    // to back. A turn now holds the slice plus what one network chunk brings (a 64 KiB read holds ~130 of these
    // objects; a CI run saw a turn of 8.2 ms), far below the whole list.
    expect(Math.max(...meter.perTurn)).toBeLessThanOrEqual(5 + 250 * perObjectMs);
  });
});
