import { Gate, GateFailedError, GateTimeoutError, Readiness, UnknownGateError } from '@warmstart/sync-gate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupStartError, LifecycleStateError, RunnableFailedError } from './errors.js';
import { GROUPS, Lifecycle, type Runnable, type RunnableContext, type RunnableGroup } from './lifecycle.js';
import { cacheSyncStrategy } from './strategy.js';

afterEach(() => {
  vi.useRealTimers();
});

// Lets every queued promise callback run; not a timed sleep.
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Behaviour {
  start?: (signal: AbortSignal, context: RunnableContext) => Promise<void> | void;
  stop?: ((deadline: AbortSignal) => Promise<void> | void) | 'none';
}

function recorder() {
  const log: string[] = [];
  const signals = new Map<string, AbortSignal>();
  const contexts = new Map<string, RunnableContext>();
  const runnable = (name: string, behaviour: Behaviour = {}): Runnable => {
    const r: Runnable = {
      name,
      start: async (signal, context) => {
        log.push(`start ${name}`);
        signals.set(name, signal);
        contexts.set(name, context);
        await behaviour.start?.(signal, context);
      },
    };
    if (behaviour.stop === 'none') return r;
    const stop = behaviour.stop;
    return {
      ...r,
      stop: (deadline) => {
        log.push(`stop ${name}`);
        return stop?.(deadline);
      },
    };
  };
  return { log, signals, contexts, runnable };
}

// The manager's shape: probe server, informers, leader election, controllers waiting on leadership.
function managerGroups(rec: ReturnType<typeof recorder>, leader: Gate): RunnableGroup[] {
  return [
    { name: GROUPS.servers, runnables: [rec.runnable('probes')] },
    { name: GROUPS.caches, runnables: [rec.runnable('informers')] },
    { name: GROUPS.leaderElection, runnables: [rec.runnable('leader-elector')] },
    {
      name: GROUPS.controllers,
      runnables: [rec.runnable('detector'), rec.runnable('binding-controller')],
      waitFor: [leader],
    },
  ];
}

describe('Lifecycle start order', () => {
  it('block-reads: controllers start on leadership while caches are still syncing', async () => {
    const rec = recorder();
    const readiness = new Readiness();
    const pods = readiness.gate('informer:host/v1/pods');
    readiness.allOf('all-caches', [pods]);
    const leader = new Gate('leader');
    const lifecycle = new Lifecycle({
      groups: managerGroups(rec, leader),
      readiness,
      strategy: cacheSyncStrategy('block-reads'),
    });

    expect(lifecycle.start()).toBeUndefined();
    await lifecycle.started(GROUPS.leaderElection).wait({ timeoutMs: 5000 });
    expect(rec.log).toEqual(['start probes', 'start informers', 'start leader-elector']);
    expect(lifecycle.snapshot().groups[3]).toMatchObject({ phase: 'waiting', waitFor: ['leader'] });

    leader.open();
    await lifecycle.started().wait({ timeoutMs: 5000 });
    expect(rec.log.slice(3).sort()).toEqual(['start binding-controller', 'start detector']);
    expect(pods.state).toBe('pending');
    expect(lifecycle.phase).toBe('running');
    await lifecycle.stop();
  });

  it('gate-start: controllers also wait for the all-caches gate, riding out a failed informer that retries', async () => {
    const rec = recorder();
    const readiness = new Readiness();
    const pods = readiness.gate('informer:host/v1/pods');
    const secrets = readiness.gate('informer:host/v1/secrets');
    const allCaches = readiness.allOf('all-caches', [pods, secrets]);
    allCaches.onChange((s) => rec.log.push(`all-caches ${s.state}`));
    const leader = new Gate('leader');
    const lifecycle = new Lifecycle({
      groups: managerGroups(rec, leader),
      readiness,
      strategy: cacheSyncStrategy('gate-start'),
    });
    expect(lifecycle.snapshot().groups[3]?.waitFor).toEqual(['leader', 'all-caches']);

    lifecycle.start();
    await lifecycle.started(GROUPS.leaderElection).wait({ timeoutMs: 5000 });
    leader.open();
    await flush();
    pods.open();
    secrets.fail(new Error('secrets is forbidden'));
    await flush();
    secrets.reset();
    secrets.open();
    await lifecycle.started().wait({ timeoutMs: 5000 });

    expect(rec.log.slice(0, 3)).toEqual(['start probes', 'start informers', 'start leader-elector']);
    const opened = rec.log.indexOf('all-caches open');
    expect(rec.log.slice(3, opened)).not.toContain('start detector');
    expect(rec.log.slice(3)).toContain('all-caches failed');
    expect(rec.log.slice(opened + 1).sort()).toEqual(['start binding-controller', 'start detector']);
    await lifecycle.stop();
  });

  it('fallback: controllers start on leadership with no cache wait, and reads are told to fall back', async () => {
    const rec = recorder();
    const readiness = new Readiness();
    readiness.allOf('all-caches', [readiness.gate('informer:host/v1/pods')]);
    const leader = new Gate('leader');
    const strategy = cacheSyncStrategy('fallback');
    const lifecycle = new Lifecycle({ groups: managerGroups(rec, leader), readiness, strategy });
    leader.open();
    lifecycle.start();
    await lifecycle.started().wait({ timeoutMs: 5000 });
    expect(rec.log).toHaveLength(5);
    expect(strategy.reads).toBe('fall-back-to-api-server');
    expect(readiness.isReady()).toBe(false);
    await lifecycle.stop();
  });

  it('starts the servers even though a later group waits forever', async () => {
    const rec = recorder();
    const lifecycle = new Lifecycle({ groups: managerGroups(rec, new Gate('leader-never')) });
    lifecycle.start();
    await lifecycle.started(GROUPS.servers).wait({ timeoutMs: 5000 });
    expect(rec.log[0]).toBe('start probes');
    expect(lifecycle.phase).toBe('starting');
    const report = await lifecycle.stop({ reason: 'test over' });
    expect(report.outcome).toBe('stopped');
    expect(rec.log).not.toContain('start detector');
    await expect(lifecycle.started().wait()).rejects.toBeInstanceOf(GateFailedError);
  });

  it('fails with GroupStartError when a group gate misses its deadline', async () => {
    vi.useFakeTimers();
    const rec = recorder();
    const cachesSynced = new Gate('all-caches');
    cachesSynced.setProgress('1/2 open');
    const lifecycle = new Lifecycle({
      groups: [
        { name: 'caches', runnables: [rec.runnable('informers')] },
        {
          name: 'controllers',
          runnables: [rec.runnable('detector')],
          waitFor: [cachesSynced],
          waitTimeoutMs: 120_000,
        },
      ],
    });
    lifecycle.start();
    await vi.advanceTimersByTimeAsync(120_000);
    const report = await lifecycle.done;
    expect(report.outcome).toBe('failed');
    expect(report.cause).toBeInstanceOf(GroupStartError);
    expect((report.cause as GroupStartError).cause).toBeInstanceOf(GateTimeoutError);
    expect((report.cause as Error).message).toContain('group "controllers" did not start');
    expect((report.cause as Error).message).toContain('(progress: 1/2 open)');
    expect(rec.log).toEqual(['start informers', 'stop informers']);
  });

  it('fails with GroupStartError(UnknownGateError) when a named gate is not registered at its turn', async () => {
    const lifecycle = new Lifecycle({
      groups: [{ name: 'controllers', waitFor: ['all-caches'] }],
      readiness: new Readiness(),
    });
    lifecycle.start();
    const report = await lifecycle.done;
    expect((report.cause as GroupStartError).cause).toBeInstanceOf(UnknownGateError);
  });
});

describe('Lifecycle stop', () => {
  it('stops groups in reverse order of start and aborts each runnable signal at its turn', async () => {
    const rec = recorder();
    const leader = new Gate('leader');
    leader.open();
    const groups = managerGroups(rec, leader);
    const lifecycle = new Lifecycle({
      groups: [...groups, { name: 'extra', runnables: [rec.runnable('no-stop', { stop: 'none' })] }],
    });
    lifecycle.start();
    await lifecycle.started().wait({ timeoutMs: 5000 });
    rec.log.length = 0;
    const controllersSignal = rec.signals.get('detector')!;
    const probesSignal = rec.signals.get('probes')!;
    const report = await lifecycle.stop({ reason: 'SIGTERM' });

    expect(report).toMatchObject({ outcome: 'stopped', cause: 'SIGTERM', timedOut: [], stopErrors: [] });
    expect(report.stopOrder).toEqual([
      'no-stop',
      'detector',
      'binding-controller',
      'leader-elector',
      'informers',
      'probes',
    ]);
    expect(rec.log.slice(0, 2).sort()).toEqual(['stop binding-controller', 'stop detector']);
    expect(rec.log.slice(2)).toEqual(['stop leader-elector', 'stop informers', 'stop probes']);
    expect(controllersSignal.aborted && probesSignal.aborted).toBe(true);
    expect(rec.signals.get('no-stop')?.reason).toBe('SIGTERM');
    expect(lifecycle.phase).toBe('stopped');
    await expect(lifecycle.done).resolves.toBe(report);
    expect(lifecycle.stop()).toBe(lifecycle.stop());
  });

  it('reports which runnable did not stop before the deadline and still stops the earlier groups', async () => {
    vi.useFakeTimers();
    const rec = recorder();
    const lifecycle = new Lifecycle({
      groups: [
        { name: 'servers', runnables: [rec.runnable('probes')] },
        // An informer whose stop never finishes, and one that waits for its deadline as it should.
        {
          name: 'caches',
          runnables: [
            rec.runnable('stuck-informer', { stop: () => new Promise<void>(() => undefined) }),
            rec.runnable('polite-informer', {
              stop: (deadline) =>
                new Promise<void>((resolve) => deadline.addEventListener('abort', () => resolve())),
            }),
          ],
        },
        { name: 'controllers', runnables: [rec.runnable('detector', { stop: async () => undefined })] },
      ],
    });
    lifecycle.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(lifecycle.phase).toBe('running');
    const stopping = lifecycle.stop({ timeoutMs: 2000 });
    await vi.advanceTimersByTimeAsync(1999);
    expect(lifecycle.phase).toBe('stopping');
    expect(rec.log).not.toContain('stop probes');
    await vi.advanceTimersByTimeAsync(1);
    const report = await stopping;
    expect([...report.timedOut].sort()).toEqual(['polite-informer', 'stuck-informer']);
    expect(report.stopOrder).toEqual(['detector', 'stuck-informer', 'polite-informer', 'probes']);
    // After the deadline nothing is awaited, but a synchronous stop still runs and counts as stopped.
    expect(rec.log).toContain('stop probes');
    expect(report.timedOut).not.toContain('probes');
    expect(lifecycle.snapshot().groups[1]?.runnables[0]?.phase).toBe('stopping');
  });

  it('collects errors thrown by stop and carries on', async () => {
    const rec = recorder();
    const lifecycle = new Lifecycle({
      groups: [
        { name: 'a', runnables: [rec.runnable('first')] },
        {
          name: 'b',
          runnables: [
            rec.runnable('throws', {
              stop: () => {
                throw new Error('close failed');
              },
            }),
            rec.runnable('rejects', { stop: () => Promise.reject(new Error('drain failed')) }),
          ],
        },
      ],
    });
    lifecycle.start();
    await lifecycle.started().wait({ timeoutMs: 5000 });
    const report = await lifecycle.stop();
    expect(report.stopErrors.map((e) => [e.runnable, (e.error as Error).message]).sort()).toEqual([
      ['rejects', 'drain failed'],
      ['throws', 'close failed'],
    ]);
    expect(rec.log).toContain('stop first');
  });

  it('stops through the start signal', async () => {
    const rec = recorder();
    const lifecycle = new Lifecycle({ groups: [{ name: 'servers', runnables: [rec.runnable('probes')] }] });
    const sigterm = new AbortController();
    lifecycle.start({ signal: sigterm.signal });
    await lifecycle.started().wait({ timeoutMs: 5000 });
    sigterm.abort('SIGTERM');
    const report = await lifecycle.done;
    expect(report).toMatchObject({ outcome: 'stopped', cause: 'SIGTERM', stopOrder: ['probes'] });
  });

  it('stopping before start resolves at once and forbids a later start', async () => {
    const lifecycle = new Lifecycle({ groups: [{ name: 'servers' }] });
    const report = await lifecycle.stop();
    expect(report).toMatchObject({ outcome: 'stopped', stopOrder: [] });
    expect(() => lifecycle.start()).toThrow(LifecycleStateError);
  });
});

describe('Lifecycle failure', () => {
  it('a runnable whose start fails stops the started ones in reverse order and reports the cause', async () => {
    const rec = recorder();
    const leader = new Gate('leader');
    leader.open();
    const groups = managerGroups(rec, leader);
    const failing: RunnableGroup = {
      name: 'controllers',
      waitFor: [leader],
      runnables: [
        rec.runnable('detector'),
        rec.runnable('binding-controller', {
          start: () => {
            throw new Error('no RBAC for works');
          },
        }),
      ],
    };
    const lifecycle = new Lifecycle({ groups: [...groups.slice(0, 3), failing] });
    lifecycle.start();
    const report = await lifecycle.done;
    expect(report.outcome).toBe('failed');
    expect(report.cause).toBeInstanceOf(RunnableFailedError);
    expect(report.cause).toMatchObject({ runnable: 'binding-controller', group: 'controllers' });
    expect((report.cause as Error).message).toContain('no RBAC for works');
    // The failed runnable is not stopped: it never started.
    expect(rec.log.filter((l) => l.startsWith('stop'))).toEqual([
      'stop detector',
      'stop leader-elector',
      'stop informers',
      'stop probes',
    ]);
    await expect(lifecycle.started().wait()).rejects.toBeInstanceOf(GateFailedError);
  });

  it('a runnable that reports a failure later (a lost lease) stops everything, itself included', async () => {
    const rec = recorder();
    const leader = new Gate('leader');
    leader.open();
    const lifecycle = new Lifecycle({ groups: managerGroups(rec, leader) });
    lifecycle.start();
    await lifecycle.started().wait({ timeoutMs: 5000 });
    rec.contexts.get('leader-elector')!.fail(new Error('lease lost to replica-b'));
    rec.contexts.get('detector')!.fail(new Error('a consequence, not the cause'));
    const report = await lifecycle.done;
    expect(report.cause).toMatchObject({ runnable: 'leader-elector' });
    expect((report.cause as Error).message).toContain('lease lost to replica-b');
    expect(report.stopOrder.slice(2)).toEqual(['leader-elector', 'informers', 'probes']);
  });

  it('cancels a start in flight when a sibling fails, and stops it only if it got going', async () => {
    const rec = recorder();
    let rejectSlow!: (error: Error) => void;
    const lifecycle = new Lifecycle({
      groups: [
        {
          name: 'caches',
          runnables: [
            rec.runnable('slow', {
              start: (signal) =>
                new Promise<void>((_, reject) => {
                  rejectSlow = reject;
                  signal.addEventListener('abort', () => reject(signal.reason));
                }),
            }),
            rec.runnable('broken', { start: () => Promise.reject(new Error('boom')) }),
          ],
        },
      ],
    });
    lifecycle.start();
    const report = await lifecycle.done;
    expect(report.cause).toMatchObject({ runnable: 'broken' });
    expect(rec.signals.get('slow')?.aborted).toBe(true);
    expect(rec.log).not.toContain('stop slow');
    expect(report.timedOut).toEqual([]);
    rejectSlow(new Error('late'));
  });
});

describe('Lifecycle configuration', () => {
  it('adds runnables before a group starts and starts them at once after', async () => {
    const rec = recorder();
    const lifecycle = new Lifecycle({ groups: [{ name: 'servers' }, { name: 'caches' }] });
    lifecycle.add('caches', rec.runnable('informer:host/v1/pods'));
    lifecycle.start();
    await lifecycle.started().wait({ timeoutMs: 5000 });
    lifecycle.add('caches', rec.runnable('informer:member-1/v1/pods'));
    expect(rec.log).toEqual(['start informer:host/v1/pods', 'start informer:member-1/v1/pods']);
    await lifecycle.stop();
    expect(() => lifecycle.add('caches', rec.runnable('late'))).toThrow(LifecycleStateError);
  });

  it('rejects configurations it cannot run', () => {
    const rec = recorder();
    expect(() => new Lifecycle({ groups: [{ name: 'a' }, { name: 'a' }] })).toThrow(LifecycleStateError);
    expect(
      () =>
        new Lifecycle({
          groups: [
            { name: 'a', runnables: [rec.runnable('x')] },
            { name: 'b', runnables: [rec.runnable('x')] },
          ],
        }),
    ).toThrow('two runnables are named "x"');
    expect(() => new Lifecycle({ groups: [{ name: 'controllers', waitFor: ['leader'] }] })).toThrow(
      'pass a readiness registry',
    );
    expect(
      () =>
        new Lifecycle({
          groups: [{ name: 'workers' }],
          readiness: new Readiness(),
          strategy: cacheSyncStrategy('gate-start'),
        }),
    ).toThrow('no group has that name');
    const lifecycle = new Lifecycle({ groups: [{ name: 'a' }] });
    expect(() => lifecycle.add('nope', rec.runnable('y'))).toThrow(LifecycleStateError);
    expect(() => lifecycle.started('nope')).toThrow(LifecycleStateError);
    lifecycle.start();
    expect(() => lifecycle.start()).toThrow(LifecycleStateError);
  });
});
