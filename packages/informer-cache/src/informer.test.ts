import { GateAbortedError } from '@warmstart/sync-gate';
import { afterEach, describe, expect, it } from 'vitest';
import { ForbiddenResourceError, InformerStoppedError } from './errors.js';
import { DeletedFinalStateUnknown, deletedObject, type ResourceEventHandler } from './handlers.js';
import { SharedInformer } from './informer.js';
import { cm, configmaps, type Fixture, fixture } from './testing/fixtures.js';
import { Recorder } from './testing/recorder.js';
import type { KubeObject } from './types.js';

const open: Fixture[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
});

async function setup(...args: Parameters<typeof fixture>): Promise<Fixture> {
  const f = await fixture(...args);
  open.push(f);
  return f;
}

function recordingHandler(name?: string): ResourceEventHandler & { notes: Recorder<string> } {
  const notes = new Recorder<string>();
  return {
    ...(name === undefined ? {} : { name }),
    notes,
    onAdd: (o, initial) => notes.push(`add:${o.metadata.name}:${initial}`),
    onUpdate: (a, b) => notes.push(a === b ? `resync:${b.metadata.name}` : `update:${b.metadata.name}`),
    onDelete: (o) =>
      notes.push(
        `${o instanceof DeletedFinalStateUnknown ? 'tombstone' : 'delete'}:${deletedObject(o).metadata.name}`,
      ),
  };
}

describe('SharedInformer', () => {
  it('delivers add (initial), update(old, new) and delete to handlers after the store changed', async () => {
    const f = await setup();
    f.server.create(configmaps, cm('a'));
    const informer = f.manager.forResource(configmaps);
    const handler = recordingHandler();
    let storeSawUpdate = false;
    informer.addEventHandler(handler);
    informer.addEventHandler({
      onUpdate: (_old, next) => {
        storeSawUpdate = informer.lister.get('default/a') === next;
      },
    });
    f.manager.start();
    await informer.waitForSync({ timeoutMs: 5_000 });
    f.server.update(configmaps, cm('a', { v: '2' }));
    f.server.create(configmaps, cm('b'));
    f.server.remove(configmaps, 'default/a');
    await handler.notes.waitFor((n) => n === 'delete:a');
    expect(handler.notes.values).toEqual(['add:a:true', 'update:a', 'add:b:false', 'delete:a']);
    expect(storeSawUpdate).toBe(true);
  });

  it('hands handlers transformed, frozen objects', async () => {
    const f = await setup();
    f.server.create(configmaps, {
      metadata: {
        name: 'a',
        namespace: 'default',
        managedFields: [{ manager: 'kubectl' }],
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
      },
    });
    const seen = new Recorder<KubeObject>();
    f.manager.forResource(configmaps, { onAdd: (o) => seen.push(o) });
    f.manager.start();
    const object = await seen.waitFor(() => true);
    expect(object.metadata.managedFields).toBeUndefined();
    expect(object.metadata.annotations).toBeUndefined();
    expect(Object.isFrozen(object)).toBe(true);
    expect(Object.isFrozen(object.metadata)).toBe(true);
    // The store hands out the very same instance: no copy on read.
    expect(f.manager.lister(configmaps).get('default/a')).toBe(object);
  });

  it('replays the cache to a handler added after sync, and knows handlers by name', async () => {
    const f = await setup();
    f.server.create(configmaps, cm('a'));
    f.server.create(configmaps, cm('b'));
    const informer = f.manager.forResource(configmaps);
    const early = informer.addEventHandler(recordingHandler('early'));
    expect(early.hasSynced).toBe(false);
    f.manager.start();
    await informer.waitForSync({ timeoutMs: 5_000 });
    expect(early.hasSynced).toBe(true);
    informer.removeEventHandler('early');
    const late = recordingHandler('late');
    // A small replay is delivered before addEventHandler returns.
    expect(informer.addEventHandler(late).hasSynced).toBe(true);
    expect(late.notes.values.sort()).toEqual(['add:a:true', 'add:b:true']);
    const again = informer.addEventHandler(recordingHandler('late'));
    expect(again.hasSynced).toBe(true);
    expect(informer.handlerCount).toBe(1);
    expect(f.manager.isHandlerExist(configmaps, 'late')).toBe(true);
    expect(f.manager.isHandlerExist(configmaps, late)).toBe(true);
    expect(f.manager.isHandlerExist(configmaps, recordingHandler())).toBe(false);
    expect(informer.removeEventHandler('late')).toBe(true);
    expect(f.manager.isHandlerExist(configmaps, 'late')).toBe(false);
  });

  it('spreads the notifications of a large list over turns of the event loop, in order, ahead of later events', async () => {
    const f = await setup();
    const n = 3_000;
    for (let i = 0; i < n; i++) f.server.create(configmaps, cm(`cm-${String(i).padStart(4, '0')}`));
    const informer = f.manager.forResource(configmaps);
    const seen = new Recorder<string>();
    const slow = informer.addEventHandler({
      name: 'slow',
      onAdd: (o, initial) => {
        // ~0.02 ms of work each: about 60 ms for the list, a dozen slices.
        const until = performance.now() + 0.02;
        while (performance.now() < until);
        seen.push(`add:${o.metadata.name}:${initial}`);
      },
    });
    let removedSaw = 0;
    informer.addEventHandler({ name: 'removed', onAdd: () => removedSaw++ });
    f.manager.start();
    await informer.waitForSync({ timeoutMs: 5_000 });
    // The store holds the whole list at once; its notifications are still on their way.
    expect(informer.lister.list()).toHaveLength(n);
    expect(informer.pendingNotifications).toBeGreaterThan(0);
    expect(informer.hasSynced).toBe(true);
    expect(slow.hasSynced).toBe(false);
    // A handler removed now hears nothing more; one added now gets the cache once, not again from the backlog.
    informer.removeEventHandler('removed');
    const removedAtRemoval = removedSaw;
    const late = recordingHandler('late');
    const lateRegistration = informer.addEventHandler(late);
    // Its replay waits behind the backlog instead of holding this turn.
    expect(late.notes.values).toHaveLength(0);
    expect(lateRegistration.hasSynced).toBe(false);
    f.server.create(configmaps, cm('zz-after'));
    await seen.waitFor((v) => v === 'add:zz-after:false');
    await late.notes.waitFor((v) => v === 'add:zz-after:false');
    expect(seen.values).toHaveLength(n + 1);
    expect(seen.count((v) => v.endsWith(':true'))).toBe(n);
    expect(seen.values.at(-1)).toBe('add:zz-after:false');
    expect(removedAtRemoval).toBeLessThan(n);
    expect(removedSaw).toBe(removedAtRemoval);
    expect(late.notes.values).toHaveLength(n + 1);
    expect(late.notes.count((v) => v.endsWith(':true'))).toBe(n);
    expect(informer.pendingNotifications).toBe(0);
    expect(slow.hasSynced).toBe(true);
    expect(lateRegistration.hasSynced).toBe(true);
    // ~60 ms of handler work: the default 5 s is short on a machine busy with a cluster.
  }, 30_000);

  it('keeps delivering to other handlers when one throws', async () => {
    const f = await setup();
    f.server.create(configmaps, cm('a'));
    const good = recordingHandler();
    f.manager.forResource(configmaps, {
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    f.manager.forResource(configmaps, good);
    f.manager.start();
    await good.notes.waitFor((n) => n === 'add:a:true');
    f.server.create(configmaps, cm('b'));
    await good.notes.waitFor((n) => n === 'add:b:false');
  });

  it('resyncs locally: update(obj, obj) for every object and no request to the server', async () => {
    const f = await setup({}, { informers: { resyncPeriodMs: 30 } });
    f.server.create(configmaps, cm('a'));
    const handler = recordingHandler();
    const informer = f.manager.forResource(configmaps, handler);
    f.manager.start();
    await informer.waitForSync({ timeoutMs: 5_000 });
    const requests = f.server.requests.length;
    await handler.notes.waitFor((n) => n === 'resync:a', 2_000);
    informer.resync();
    expect(handler.notes.count((n) => n === 'resync:a')).toBeGreaterThanOrEqual(2);
    expect(f.server.requests.length).toBe(requests);
  });

  it('exposes a named gate with progress text and opens it on sync', async () => {
    const f = await setup({ watchList: false });
    for (let i = 0; i < 1200; i++) f.server.create(configmaps, cm(`cm-${String(i).padStart(4, '0')}`));
    const informer = f.manager.forResource(configmaps);
    const progress = new Recorder<string>();
    informer.gate.onChange((s) => progress.push(s.progress ?? ''));
    expect(informer.gate.name).toBe('informer:fake/core/v1/configmaps');
    expect(informer.gate.state).toBe('pending');
    f.manager.start();
    await informer.waitForSync({ timeoutMs: 5_000 });
    expect(informer.gate.state).toBe('open');
    expect(progress.values).toContain('listed 500 objects');
    expect(progress.values).toContain('listed 1,000 objects');
    expect(informer.gate.progress).toBe('synced 1,200 objects');
  });

  it('fails the gate at once when the list is forbidden, and opens it when access is granted', async () => {
    const f = await setup();
    f.server.create(configmaps, cm('a'));
    f.server.forbid(configmaps);
    const informer = f.manager.forResource(configmaps);
    f.manager.start();
    const started = Date.now();
    const error = await informer.waitForSync({ timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenResourceError);
    expect((error as Error).message).toMatch(/core\/v1\/configmaps.*cluster "fake".*403/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(informer.gate.state).toBe('failed');
    const opened = new Promise<void>((resolve) =>
      informer.gate.onChange((s) => s.state === 'open' && resolve()),
    );
    f.server.allow(configmaps);
    await opened;
    await informer.waitForSync({ timeoutMs: 1_000 });
    expect(informer.lister.get('default/a')).toBeDefined();
  });

  it('rejects waiters with InformerStoppedError when stopped before sync, and honours abort signals', async () => {
    const f = await setup();
    const informer = new SharedInformer(configmaps, f.transport);
    const abort = new AbortController();
    const aborted = informer.waitForSync({ signal: abort.signal, timeoutMs: 10_000 });
    abort.abort(new Error('caller gave up'));
    await expect(aborted).rejects.toBeInstanceOf(GateAbortedError);
    const waiting = informer.waitForSync({ timeoutMs: 10_000 });
    await informer.stop();
    await expect(waiting).rejects.toBeInstanceOf(InformerStoppedError);
  });

  it('keeps custom indexes exact as objects change and go', async () => {
    const f = await setup();
    f.server.create(configmaps, cm('a', {}, { app: 'web' }));
    f.server.create(configmaps, cm('b', {}, { app: 'web' }));
    const handler = recordingHandler();
    const informer = f.manager.forResource(configmaps, handler, {
      indexers: { byApp: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) },
    });
    f.manager.start();
    await informer.waitForSync({ timeoutMs: 5_000 });
    const byApp = (v: string) =>
      informer.lister
        .byIndex('byApp', v)
        .map((o) => o.metadata.name)
        .sort();
    expect(byApp('web')).toEqual(['a', 'b']);
    f.server.update(configmaps, cm('a', {}, { app: 'db' }));
    f.server.remove(configmaps, 'default/b');
    await handler.notes.waitFor((n) => n === 'delete:b');
    expect(byApp('web')).toEqual([]);
    expect(byApp('db')).toEqual(['a']);
    expect(informer.store.listIndexValues('byApp')).toEqual(['db']);
  });
});
