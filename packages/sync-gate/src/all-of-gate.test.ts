import { afterEach, describe, expect, it, vi } from 'vitest';
import { AllOfGate } from './all-of-gate.js';
import { DuplicateGateError, GateFailedError, GateStateError, MemberFailedError } from './errors.js';
import { Gate } from './gate.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('AllOfGate', () => {
  it('opens when the last member opens, whatever the order', async () => {
    const a = new Gate('informer:host/v1/pods');
    const b = new Gate('informer:host/apps/v1/deployments');
    const all = new AllOfGate('all-caches', [a, b]);
    const waiting = all.wait({ timeoutMs: 10_000 });
    b.open();
    expect(all.state).toBe('pending');
    expect(all.progress).toBe('1/2 open');
    a.open();
    await expect(waiting).resolves.toBeUndefined();
    expect(all.isOpen).toBe(true);
  });

  it('progresses when any member progresses or opens, for waits with a stall deadline', async () => {
    vi.useFakeTimers();
    const a = new Gate('informer:host/v1/pods');
    const b = new Gate('informer:host/apps/v1/deployments');
    const c = new Gate('informer:host/v1/secrets');
    const all = new AllOfGate('all-caches', [a, b, c]);
    const settled = all.wait({ stallTimeoutMs: 1000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(900);
    a.progressed('listed 500 objects');
    await vi.advanceTimersByTimeAsync(900);
    b.open();
    await vi.advanceTimersByTimeAsync(900);
    expect(all.waiters).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(await settled).toMatchObject({ stalledMs: 1000, waitedMs: 2800 });
  });

  it('opens at once over members that are already open', () => {
    const a = new Gate('a');
    a.open();
    expect(new AllOfGate('all', [a]).isOpen).toBe(true);
  });

  it('stays pending while empty until sealed, so members can be registered after it is created', async () => {
    const all = new AllOfGate('all-caches');
    expect(all.state).toBe('pending');
    const a = new Gate('a');
    const b = new Gate('b');
    all.add(a);
    all.add(b);
    a.open();
    expect(all.state).toBe('pending');
    b.open();
    await expect(all.wait()).resolves.toBeUndefined();

    const empty = new AllOfGate('nothing-to-sync');
    expect(empty.state).toBe('pending');
    empty.seal();
    expect(empty.isOpen).toBe(true);
  });

  it('fails naming the failed member, and returns to pending when that member is reset', async () => {
    const pods = new Gate('informer:host/v1/pods');
    const secrets = new Gate('informer:host/v1/secrets');
    const all = new AllOfGate('all-caches', [pods, secrets]);
    const waiting = all.wait();
    secrets.fail(new Error('secrets is forbidden'));
    const error = (await waiting.catch((e: unknown) => e)) as GateFailedError;
    expect(error).toBeInstanceOf(GateFailedError);
    expect(error.gate).toBe('all-caches');
    expect(error.cause).toBeInstanceOf(MemberFailedError);
    expect((error.cause as MemberFailedError).member).toBe('informer:host/v1/secrets');
    expect(error.message).toContain('member "informer:host/v1/secrets" failed: secrets is forbidden');
    expect(all.snapshot()).toMatchObject({ state: 'failed', progress: '0/2 open, 1 failed' });

    secrets.reset();
    expect(all.state).toBe('pending');
    const retry = all.wait({ timeoutMs: 10_000 });
    pods.open();
    secrets.open();
    await expect(retry).resolves.toBeUndefined();
  });

  it('stays failed while another member is still failed, naming that one', () => {
    const a = new Gate('a');
    const b = new Gate('b');
    const all = new AllOfGate('all', [a, b]);
    a.fail('a broke');
    b.fail('b broke');
    expect((all.cause as MemberFailedError).member).toBe('a');
    a.reset();
    expect(all.state).toBe('failed');
    expect((all.cause as MemberFailedError).member).toBe('b');
    b.reset();
    expect(all.state).toBe('pending');
  });

  it('follows a new cause when a failed member fails again', () => {
    const a = new Gate('a');
    const all = new AllOfGate('all', [a]);
    a.fail('first');
    a.fail('second');
    expect(all.snapshot().error).toBe('member "a" failed: second');
  });

  it('refuses members once open, and a different gate under a taken name', () => {
    const a = new Gate('a');
    const all = new AllOfGate('all', [a]);
    all.add(a);
    expect(all.members).toHaveLength(1);
    expect(() => all.add(new Gate('a'))).toThrow(DuplicateGateError);
    a.open();
    expect(() => all.add(new Gate('late'))).toThrow(GateStateError);
    const sealed = new AllOfGate('sealed', [new Gate('x')]);
    sealed.seal();
    expect(() => sealed.add(new Gate('y'))).toThrow(GateStateError);
  });

  it('opens when a pending member is removed and the rest are open', () => {
    const a = new Gate('a');
    const stuck = new Gate('stuck');
    const all = new AllOfGate('all', [a, stuck]);
    a.open();
    expect(all.remove(new Gate('stuck'))).toBe(false);
    expect(all.remove('stuck')).toBe(true);
    expect(all.isOpen).toBe(true);
  });

  it('nests: an aggregate can be a member of another', async () => {
    const host = new AllOfGate('host-caches', [new Gate('h1')]);
    const members = new AllOfGate('member-caches', [new Gate('m1')]);
    const all = new AllOfGate('all-caches', [host, members]);
    const waiting = all.wait();
    for (const agg of [host, members]) for (const m of agg.members) (m as Gate).open();
    await expect(waiting).resolves.toBeUndefined();
  });

  it('lets go of its members once open', () => {
    const a = new Gate('a');
    const all = new AllOfGate('all', [a]);
    let changes = 0;
    all.onChange(() => {
      changes += 1;
    });
    a.open();
    const after = changes;
    a.setProgress('synced 10 objects');
    expect(changes).toBe(after);
    expect(all.members).toHaveLength(0);
  });
});
