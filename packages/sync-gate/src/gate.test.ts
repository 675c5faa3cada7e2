import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  GateAbortedError,
  GateFailedError,
  GateStateError,
  GateTimeoutError,
  GateWaitError,
} from './errors.js';
import { Gate, type GateSnapshot } from './gate.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('Gate', () => {
  it('releases a waiter that waited before the gate opened', async () => {
    const gate = new Gate('informer:host/apps/v1/deployments');
    const waiting = gate.wait({ timeoutMs: 10_000 });
    expect(gate.waiters).toBe(1);
    gate.open();
    await expect(waiting).resolves.toBeUndefined();
    expect(gate.waiters).toBe(0);
    expect(gate.state).toBe('open');
  });

  it('resolves at once when waited on after it opened, and opening twice is harmless', async () => {
    const gate = new Gate('g');
    gate.open();
    const since = gate.snapshot().since;
    gate.open();
    expect(gate.snapshot().since).toBe(since);
    await expect(gate.wait()).resolves.toBeUndefined();
    expect(gate.waiters).toBe(0);
  });

  it('rejects with GateAbortedError naming the gate when the signal aborts, and leaves the gate pending', async () => {
    const gate = new Gate('leader:kube-system/warmstart');
    const controller = new AbortController();
    const waiting = gate.wait({ signal: controller.signal });
    controller.abort(new Error('shutting down'));
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GateAbortedError);
    expect(error).toBeInstanceOf(GateWaitError);
    expect((error as GateAbortedError).gate).toBe('leader:kube-system/warmstart');
    expect((error as Error).message).toMatch(
      /wait for gate "leader:kube-system\/warmstart" was aborted after \d+ ms: shutting down/,
    );
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(gate.waiters).toBe(0);
    expect(gate.state).toBe('pending');
  });

  it('rejects at once for an already aborted signal', async () => {
    const gate = new Gate('g');
    await expect(gate.wait({ signal: AbortSignal.abort('gone') })).rejects.toBeInstanceOf(GateAbortedError);
    expect(gate.waiters).toBe(0);
  });

  it('keeps one abort listener per signal however many waiters share it, and removes it when they settle', async () => {
    const gate = new Gate('g');
    const shared = new AbortController();
    const waits = Array.from({ length: 1000 }, () => gate.wait({ signal: shared.signal }));
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    gate.open();
    await Promise.all(waits);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('aborts only the waiters of the aborted signal', async () => {
    const gate = new Gate('g');
    const a = new AbortController();
    const b = new AbortController();
    const onA = [gate.wait({ signal: a.signal }), gate.wait({ signal: a.signal })];
    const onB = gate.wait({ signal: b.signal });
    a.abort();
    for (const w of onA) await expect(w).rejects.toBeInstanceOf(GateAbortedError);
    expect(gate.waiters).toBe(1);
    gate.open();
    await expect(onB).resolves.toBeUndefined();
  });

  it('rejects with GateTimeoutError after the deadline, saying how long it waited and the progress', async () => {
    vi.useFakeTimers();
    const gate = new Gate('informer:host/apps/v1/deployments');
    gate.setProgress('listed 41,000 objects');
    const waiting = gate.wait({ timeoutMs: 1500 });
    const settled = waiting.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1499);
    expect(gate.waiters).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(GateTimeoutError);
    expect((error as GateTimeoutError).waitedMs).toBe(1500);
    expect((error as GateTimeoutError).progress).toBe('listed 41,000 objects');
    expect((error as Error).message).toContain(
      'timed out after 1500 ms waiting for gate "informer:host/apps/v1/deployments" (progress: listed 41,000 objects)',
    );
    expect(gate.waiters).toBe(0);
  });

  it('waits past a stall deadline while the owner keeps progressing, and fails once it stops', async () => {
    vi.useFakeTimers();
    const gate = new Gate('informer:host/work.karmada.io/v1alpha2/resourcebindings');
    const settled = gate.wait({ stallTimeoutMs: 1000 }).catch((e: unknown) => e);
    // Five seconds of a slow list: a page every 900 ms keeps the wait alive well past its stall deadline.
    for (let page = 1; page <= 5; page++) {
      await vi.advanceTimersByTimeAsync(900);
      gate.progressed(`listed ${page * 500} objects`);
    }
    expect(gate.waiters).toBe(1);
    // Text alone is not progress: a failing retry reported as progress text does not extend the wait.
    await vi.advanceTimersByTimeAsync(500);
    gate.setProgress('list failed: 500 Internal Server Error (retrying in 1.0 s)');
    await vi.advanceTimersByTimeAsync(499);
    expect(gate.waiters).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(GateTimeoutError);
    expect(error).toMatchObject({ waitedMs: 5500, stalledMs: 1000 });
    expect((error as Error).message).toContain(
      'gate "informer:host/work.karmada.io/v1alpha2/resourcebindings" made no progress for 1000 ms (waited 5500 ms)',
    );
    expect(gate.waiters).toBe(0);
  });

  it('counts a stall from the wait start when the owner last progressed long before it', async () => {
    vi.useFakeTimers();
    const gate = new Gate('g');
    gate.progressed('listed 500 objects');
    await vi.advanceTimersByTimeAsync(10_000);
    const settled = gate.wait({ stallTimeoutMs: 1000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(gate.waiters).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled).toMatchObject({ waitedMs: 1000, stalledMs: 1000 });
  });

  it('ends a progressing wait at its absolute deadline, as a plain timeout', async () => {
    vi.useFakeTimers();
    const gate = new Gate('g');
    const settled = gate.wait({ stallTimeoutMs: 1000, timeoutMs: 2500 }).catch((e: unknown) => e);
    for (let i = 0; i < 4; i++) {
      await vi.advanceTimersByTimeAsync(600);
      gate.progressed();
    }
    await vi.advanceTimersByTimeAsync(100);
    const error = await settled;
    expect(error).toMatchObject({ waitedMs: 2500, stalledMs: undefined });
    expect((error as Error).message).toContain('timed out after 2500 ms waiting for gate "g"');
  });

  it('reports progress in snapshots and to listeners', () => {
    const gate = new Gate('g');
    const seen: GateSnapshot[] = [];
    gate.onChange((s) => seen.push(s));
    const before = gate.progressedAt;
    gate.progressed('listed 500 objects');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.progress).toBe('listed 500 objects');
    expect(seen[0]?.progressedAt).toBeGreaterThanOrEqual(before);
    expect(gate.snapshot().progressedAt).toBe(gate.progressedAt);
  });

  it('holds no timers while idle and drops its timers when it opens', async () => {
    vi.useFakeTimers();
    const gate = new Gate('g');
    gate.setProgress('listing');
    expect(vi.getTimerCount()).toBe(0);
    const waits = [gate.wait({ timeoutMs: 5000 }), gate.wait({ timeoutMs: 6000 }), gate.wait()];
    expect(vi.getTimerCount()).toBe(2);
    gate.open();
    expect(vi.getTimerCount()).toBe(0);
    await Promise.all(waits);
  });

  it('rejects current and later waiters with GateFailedError carrying the cause, and a reset allows a retry', async () => {
    const gate = new Gate('informer:host/v1/secrets');
    const forbidden = new Error('secrets is forbidden: User "warmstart" cannot list resource "secrets"');
    const before = gate.wait({ timeoutMs: 10_000 });
    gate.fail(forbidden);
    const error = await before.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GateFailedError);
    expect((error as Error).cause).toBe(forbidden);
    expect((error as Error).message).toContain('gate "informer:host/v1/secrets" failed after');
    expect((error as Error).message).toContain('cannot list resource "secrets"');
    await expect(gate.wait()).rejects.toBeInstanceOf(GateFailedError);
    expect(gate.snapshot()).toMatchObject({ state: 'failed', error: forbidden.message });

    gate.reset();
    expect(gate.state).toBe('pending');
    expect(gate.cause).toBeUndefined();
    const retry = gate.wait({ timeoutMs: 10_000 });
    gate.open();
    await expect(retry).resolves.toBeUndefined();
  });

  it('keeps tolerant waiters through a failure until the gate opens', async () => {
    const gate = new Gate('g');
    const strict = gate.wait();
    const tolerant = gate.wait({ tolerateFailure: true, timeoutMs: 10_000 });
    gate.fail('list failed');
    await expect(strict).rejects.toBeInstanceOf(GateFailedError);
    expect(gate.waiters).toBe(1);
    const lateTolerant = gate.wait({ tolerateFailure: true });
    gate.reset();
    gate.open();
    await expect(Promise.all([tolerant, lateTolerant])).resolves.toEqual([undefined, undefined]);
  });

  it('names the failure in the timeout of a tolerant wait on a failed gate', async () => {
    vi.useFakeTimers();
    const gate = new Gate('g');
    gate.fail(new Error('forbidden'));
    const settled = gate.wait({ tolerateFailure: true, timeoutMs: 100 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    const error = (await settled) as GateTimeoutError;
    expect(error).toBeInstanceOf(GateTimeoutError);
    expect(error.lastError).toBe('forbidden');
    expect(error.message).toContain('the gate is failed: forbidden');
  });

  it('refuses to fail or reset an open gate', () => {
    const gate = new Gate('g');
    gate.open();
    expect(() => gate.fail('late')).toThrow(GateStateError);
    expect(() => gate.reset()).toThrow(GateStateError);
    expect(gate.state).toBe('open');
  });

  it('can open from failed (the owner recovered without a reset)', async () => {
    const gate = new Gate('g');
    gate.fail('transient');
    const tolerant = gate.wait({ tolerateFailure: true });
    gate.open();
    await expect(tolerant).resolves.toBeUndefined();
    expect(gate.cause).toBeUndefined();
  });

  it('tells listeners about state and progress changes with a snapshot', () => {
    const gate = new Gate('g');
    const seen: GateSnapshot[] = [];
    const off = gate.onChange((s) => seen.push(s));
    gate.setProgress('listed 10 objects');
    gate.setProgress('listed 10 objects');
    gate.fail(new Error('boom'));
    gate.reset();
    gate.open();
    off();
    gate.setProgress('after unsubscribe');
    expect(seen.map((s) => [s.state, s.progress, s.error])).toEqual([
      ['pending', 'listed 10 objects', undefined],
      ['failed', 'listed 10 objects', 'boom'],
      ['pending', 'listed 10 objects', undefined],
      ['open', 'listed 10 objects', undefined],
    ]);
  });

  it('still opens and notifies the other listeners when one listener throws, and reports the error', async () => {
    const deferred: (() => void)[] = [];
    const spy = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => {
      deferred.push(task);
    });
    try {
      const gate = new Gate('g');
      let second = 0;
      gate.onChange(() => {
        throw new Error('listener bug');
      });
      gate.onChange(() => {
        second += 1;
      });
      const waiting = gate.wait();
      expect(() => gate.open()).not.toThrow();
      await expect(waiting).resolves.toBeUndefined();
      expect(second).toBe(1);
      // The error is rethrown on a microtask, where Node reports it as an uncaught exception.
      expect(deferred).toHaveLength(1);
      expect(() => deferred[0]!()).toThrow('listener bug');
    } finally {
      spy.mockRestore();
    }
  });

  it('releases 100k waiters in one open() call', async () => {
    const gate = new Gate('g');
    const shared = new AbortController();
    const waits: Promise<void>[] = [];
    for (let i = 0; i < 100_000; i++) waits.push(gate.wait({ signal: shared.signal, timeoutMs: 60_000 }));
    expect(gate.waiters).toBe(100_000);
    gate.open();
    expect(gate.waiters).toBe(0);
    await Promise.all(waits);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });
});
