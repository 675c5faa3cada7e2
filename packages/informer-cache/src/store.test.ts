import { describe, expect, it } from 'vitest';
import type { ReflectorEvent } from './events.js';
import { DeletedFinalStateUnknown } from './handlers.js';
import { Lister } from './lister.js';
import { NAMESPACE_INDEX, type RelistChanges, Store, type StoreSink, UnknownIndexError } from './store.js';
import type { KubeObject } from './types.js';

function pod(
  namespace: string,
  name: string,
  rv: string,
  labels: Record<string, string> = {},
  uid = `uid-${name}`,
) {
  return Object.freeze({
    metadata: Object.freeze({ namespace, name, uid, resourceVersion: rv, labels: Object.freeze(labels) }),
  }) as KubeObject;
}

type Note = [string, ...unknown[]];
function recorder(): StoreSink<KubeObject> & { notes: Note[] } {
  const notes: Note[] = [];
  return {
    notes,
    added: (o, initial) => notes.push(['add', o.metadata.name, initial]),
    updated: (a, b) =>
      notes.push(['update', b.metadata.name, a.metadata.resourceVersion, b.metadata.resourceVersion]),
    deleted: (o) =>
      notes.push(
        o instanceof DeletedFinalStateUnknown
          ? ['tombstone', o.key, o.obj.metadata.name]
          : ['delete', o.metadata.name],
      ),
  };
}

function list(store: Store, objects: KubeObject[], rv: string, sink?: StoreSink<KubeObject>): void {
  store.apply({ type: 'init' }, sink);
  for (const object of objects) store.apply({ type: 'init-apply', object }, sink);
  store.apply({ type: 'init-done', resourceVersion: rv }, sink);
}

const byApp = (o: KubeObject) => (o.metadata.labels?.app === undefined ? [] : [o.metadata.labels.app]);

describe('Store', () => {
  it('keeps a relist invisible until init-done, then swaps it in at once', () => {
    const store = new Store();
    list(store, [pod('a', 'p1', '1'), pod('a', 'p2', '1')], '10');
    store.apply({ type: 'init' });
    store.apply({ type: 'init-apply', object: pod('b', 'p3', '11') });
    expect(store.listKeys().sort()).toEqual(['a/p1', 'a/p2']);
    expect(store.pendingSize).toBe(1);
    store.apply({ type: 'init-done', resourceVersion: '11' });
    expect(store.listKeys()).toEqual(['b/p3']);
    expect(store.byIndex(NAMESPACE_INDEX, 'a')).toEqual([]);
    expect(store.byIndex(NAMESPACE_INDEX, 'b').map((o) => o.metadata.name)).toEqual(['p3']);
    expect(store.resourceVersion).toBe('11');
  });

  it('indexes a relist as it arrives, so the swap calls no index function', () => {
    let calls = 0;
    const counted = (o: KubeObject): readonly string[] => {
      calls++;
      return byApp(o);
    };
    const store = new Store({ counted });
    list(store, [pod('a', 'p1', '1', { app: 'web' })], '1');
    store.apply({ type: 'init' });
    store.apply({ type: 'init-apply', object: pod('a', 'p1', '2', { app: 'db' }) });
    store.apply({ type: 'init-apply', object: pod('b', 'p2', '2', { app: 'web' }) });
    // The same key twice in one list: the later copy wins, in the items and in the indexes.
    store.apply({ type: 'init-apply', object: pod('b', 'p2', '3', { app: 'cache' }) });
    // An index added mid-relist covers both the live store and what is buffered.
    store.addIndexers({ byApp });
    expect(store.indexKeys('counted', 'web')).toEqual(['a/p1']);
    expect(store.indexKeys('byApp', 'web')).toEqual(['a/p1']);
    const before = calls;
    store.apply({ type: 'init-done', resourceVersion: '3' });
    expect(calls).toBe(before);
    for (const name of ['counted', 'byApp']) {
      expect(store.listIndexValues(name).sort()).toEqual(['cache', 'db']);
      expect(store.indexKeys(name, 'db')).toEqual(['a/p1']);
      expect(store.indexKeys(name, 'cache')).toEqual(['b/p2']);
    }
    expect(store.byIndex(NAMESPACE_INDEX, 'b').map((o) => o.metadata.resourceVersion)).toEqual(['3']);
  });

  it('restarts the side buffer on a second init', () => {
    const store = new Store();
    store.apply({ type: 'init' });
    store.apply({ type: 'init-apply', object: pod('a', 'half', '1') });
    list(store, [pod('a', 'full', '2')], '2');
    expect(store.listKeys()).toEqual(['a/full']);
  });

  it('reports adds on first sync as initial, and relist changes as update, tombstone and add', () => {
    const store = new Store();
    const sink = recorder();
    const kept = pod('a', 'kept', '1');
    list(
      store,
      [kept, pod('a', 'changed', '1'), pod('a', 'gone', '1'), pod('a', 'recreated', '1')],
      '5',
      sink,
    );
    expect(sink.notes.filter((n) => n[0] === 'add' && n[2] === true)).toHaveLength(4);
    sink.notes.length = 0;
    list(
      store,
      [
        pod('a', 'kept', '1'),
        pod('a', 'changed', '7'),
        pod('a', 'recreated', '8', {}, 'new-uid'),
        pod('a', 'new', '9'),
      ],
      '9',
      sink,
    );
    expect(sink.notes).toEqual([
      ['update', 'changed', '1', '7'],
      ['tombstone', 'a/recreated', 'recreated'],
      ['add', 'recreated', false],
      ['add', 'new', false],
      ['tombstone', 'a/gone', 'gone'],
    ]);
    // Unchanged objects keep their instance across the relist.
    expect(store.get('a/kept')).toBe(kept);
  });

  it('reports a relist through replaced() with the same changes, taken at the swap, when the sink asks later', () => {
    const store = new Store();
    const sink = recorder();
    const got: { changes?: RelistChanges<KubeObject> } = {};
    const deferred: StoreSink<KubeObject> = { ...sink, replaced: (changes) => (got.changes = changes) };
    const reportAll = (): number => {
      const changes = got.changes;
      if (changes === undefined) throw new Error('the store did not call replaced()');
      for (let i = 0; i < changes.count; i++) changes.report(i, sink);
      delete got.changes;
      return changes.count;
    };
    list(store, [pod('a', 'kept', '1'), pod('a', 'changed', '1'), pod('a', 'gone', '1')], '5', deferred);
    expect(sink.notes).toEqual([]);
    expect(reportAll()).toBe(3);
    expect(sink.notes.map((n) => n.slice(0, 3))).toEqual([
      ['add', 'kept', true],
      ['add', 'changed', true],
      ['add', 'gone', true],
    ]);
    sink.notes.length = 0;
    list(store, [pod('a', 'kept', '1'), pod('a', 'changed', '7'), pod('a', 'new', '9')], '9', deferred);
    // Watch events after the swap change the store, not what the relist reports.
    store.apply({ type: 'delete', object: pod('a', 'new', '10') });
    store.apply({ type: 'apply', object: pod('a', 'changed', '11') });
    expect(sink.notes).toEqual([]);
    expect(reportAll()).toBe(4);
    expect(sink.notes).toEqual([
      ['update', 'changed', '1', '7'],
      ['add', 'new', false],
      ['tombstone', 'a/gone', 'gone'],
    ]);
  });

  it('applies watch events with add, update and delete notifications', () => {
    const store = new Store();
    const sink = recorder();
    list(store, [], '1', sink);
    store.apply({ type: 'apply', object: pod('a', 'p', '2') }, sink);
    store.apply({ type: 'apply', object: pod('a', 'p', '3') }, sink);
    store.apply({ type: 'delete', object: pod('a', 'p', '4') }, sink);
    store.apply({ type: 'delete', object: pod('a', 'never-seen', '5') }, sink);
    expect(sink.notes).toEqual([
      ['add', 'p', false],
      ['update', 'p', '2', '3'],
      ['delete', 'p'],
    ]);
    expect(store.size).toBe(0);
  });

  it('keeps custom indexes exact under updates, moves and deletes', () => {
    const store = new Store({ byApp });
    list(store, [pod('a', 'p1', '1', { app: 'web' }), pod('b', 'p2', '1', { app: 'web' })], '1');
    expect(store.indexKeys('byApp', 'web').sort()).toEqual(['a/p1', 'b/p2']);
    store.apply({ type: 'apply', object: pod('a', 'p1', '2', { app: 'db' }) });
    expect(store.indexKeys('byApp', 'web')).toEqual(['b/p2']);
    expect(store.indexKeys('byApp', 'db')).toEqual(['a/p1']);
    store.apply({ type: 'apply', object: pod('a', 'p1', '3', {}) });
    expect(store.listIndexValues('byApp')).toEqual(['web']);
    store.apply({ type: 'delete', object: pod('b', 'p2', '4', { app: 'web' }) });
    expect(store.listIndexValues('byApp')).toEqual([]);
    expect(store.listIndexValues(NAMESPACE_INDEX)).toEqual(['a']);
  });

  it('indexes existing objects when an index is added later, and names unknown indexes', () => {
    const store = new Store();
    list(store, [pod('a', 'p1', '1', { app: 'web' })], '1');
    store.addIndexers({ byApp });
    expect(store.byIndex('byApp', 'web').map((o) => o.metadata.name)).toEqual(['p1']);
    expect(() => store.byIndex('nope', 'x')).toThrow(UnknownIndexError);
  });

  it('survives an index function that throws', () => {
    const store = new Store({
      bad: () => {
        throw new Error('boom');
      },
    });
    list(store, [pod('a', 'p1', '1')], '1');
    expect(store.size).toBe(1);
    expect(store.listIndexValues('bad')).toEqual([]);
  });

  it('rejects events out of protocol order', () => {
    const store = new Store();
    const event: ReflectorEvent = { type: 'init-done', resourceVersion: '1' };
    expect(() => store.apply(event)).toThrow(/without init/);
  });
});

describe('Lister', () => {
  const store = new Store();
  list(
    store,
    [
      pod('a', 'web1', '1', { app: 'web', tier: 'fe' }),
      pod('a', 'db1', '1', { app: 'db' }),
      pod('b', 'web2', '1', { app: 'web' }),
    ],
    '1',
  );
  const lister = new Lister(store);

  it('gets by key string or parts', () => {
    expect(lister.get('a/web1')?.metadata.name).toBe('web1');
    expect(lister.get({ namespace: 'b', name: 'web2' })?.metadata.name).toBe('web2');
    expect(lister.get('a/missing')).toBeUndefined();
  });

  it('lists by namespace and label selector in every form', () => {
    const names = (os: KubeObject[]) => os.map((o) => o.metadata.name).sort();
    expect(names(lister.list())).toEqual(['db1', 'web1', 'web2']);
    expect(names(lister.list({ namespace: 'a' }))).toEqual(['db1', 'web1']);
    expect(names(lister.list({ labelSelector: 'app=web' }))).toEqual(['web1', 'web2']);
    expect(names(lister.list({ namespace: 'a', labelSelector: 'app in (web,db),!tier' }))).toEqual(['db1']);
    expect(names(lister.list({ labelSelector: { matchLabels: { app: 'web' } } }))).toEqual(['web1', 'web2']);
    expect(names(lister.namespace('b').list('app'))).toEqual(['web2']);
    expect(lister.namespace('a').get('db1')?.metadata.name).toBe('db1');
  });
});
