import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ElectionOutcome, LeaderElectionConfigError, LeaderElector } from './leader-elector.js';
import type { Lease, LeaseClient } from './lease.js';

/** One Lease with resourceVersion preconditions, as the API server enforces them. */
class FakeApi {
  lease: Lease | undefined;
  rv = 0;
  writes: { by: string; holder: string | undefined }[] = [];
  failFor = new Set<string>();

  client(identity: () => string): LeaseClient {
    return {
      current: () => this.lease,
      waitForSync: async () => undefined,
      create: async (lease) => {
        if (this.failFor.has(identity()))
          throw Object.assign(new Error('connection refused'), { statusCode: 503 });
        if (this.lease) throw Object.assign(new Error('already exists'), { statusCode: 409 });
        return this.#store(lease, identity());
      },
      update: async (lease) => {
        if (this.failFor.has(identity()))
          throw Object.assign(new Error('connection refused'), { statusCode: 503 });
        if (lease.metadata.resourceVersion !== this.lease?.metadata.resourceVersion) {
          throw Object.assign(new Error('conflict'), { statusCode: 409 });
        }
        return this.#store(lease, identity());
      },
    };
  }

  #store(lease: Lease, by: string): Lease {
    this.rv++;
    this.lease = { ...lease, metadata: { ...lease.metadata, resourceVersion: String(this.rv) } };
    this.writes.push({ by, holder: lease.spec?.holderIdentity });
    return this.lease;
  }
}

const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

function elector(api: FakeApi, identity: string, extra: { releaseOnCancel?: boolean } = {}): LeaderElector {
  return new LeaderElector({
    client: api.client(() => identity),
    namespace: 'ns',
    name: 'lock',
    identity,
    ...timing,
    ...extra,
  });
}

/** Elector 'a' with the given monotonic clock, keeping what it logs. */
function loggingElector(
  api: FakeApi,
  monotonicNow: () => number,
): { elector: LeaderElector; lines: { message: string; fields: Record<string, unknown> | undefined }[] } {
  const lines: { message: string; fields: Record<string, unknown> | undefined }[] = [];
  const elector = new LeaderElector({
    client: api.client(() => 'a'),
    namespace: 'ns',
    name: 'lock',
    identity: 'a',
    ...timing,
    monotonicNow,
    log: (_level, message, fields) => lines.push({ message, fields }),
  });
  return { elector, lines };
}

describe('LeaderElector', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('acquires a missing lease at once and keeps renewing it', async () => {
    const api = new FakeApi();
    const a = elector(api, 'a');
    const stop = new AbortController();
    const run = a.run(stop.signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(a.leading.state).toBe('open');
    expect(api.lease?.spec?.holderIdentity).toBe('a');
    expect(api.lease?.spec?.leaseDurationSeconds).toBe(15);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.writes.length).toBeGreaterThanOrEqual(5); // create + a renewal every retry period
    expect(a.isLeader()).toBe(true);
    stop.abort();
    await expect(run).resolves.toBe('stopped');
  });

  it('a standby takes over only after a full lease duration without renewals, on its own clock', async () => {
    const api = new FakeApi();
    const a = elector(api, 'a');
    const b = elector(api, 'b');
    const stopA = new AbortController();
    const runA = a.run(stopA.signal);
    await vi.advanceTimersByTimeAsync(0);
    const runB = b.run(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(b.leading.state).toBe('pending');
    expect(b.observedHolder).toBe('a');

    // The leader dies without releasing (as with SIGKILL): its renewals stop.
    stopA.abort();
    await runA;
    const lastRenewBy = api.writes.length;
    await vi.advanceTimersByTimeAsync(14_000);
    expect(b.leading.state).toBe('pending');
    // The standby polls every retry period with up to 20% jitter (2 to 2.4 s): it sees the last renewal up to one
    // poll late and takes over at the first poll after a lease duration from then, so 15 s + 2 x 2.4 s at most.
    await vi.advanceTimersByTimeAsync(6_000);
    expect(b.leading.state).toBe('open');
    expect(api.writes.slice(lastRenewBy).every((w) => w.by === 'b')).toBe(true);
    expect(api.lease?.spec?.holderIdentity).toBe('b');
    expect(api.lease?.spec?.leaseTransitions).toBe(1);
    void runB;
  });

  it('a leader that cannot renew steps down within the renew deadline, before a standby may take over', async () => {
    const api = new FakeApi();
    const a = elector(api, 'a');
    const b = elector(api, 'b');
    const runA = a.run(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(0);
    const outcomes: ElectionOutcome[] = [];
    void runA.then((o) => outcomes.push(o));
    void b.run(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(5_000);

    api.failFor.add('a'); // cut off from the API server
    const cutAt = Date.now();
    let lostAt = 0;
    let bLeadingAt = 0;
    for (let t = 0; t < 30_000 && (!lostAt || !bLeadingAt); t += 100) {
      await vi.advanceTimersByTimeAsync(100);
      if (!lostAt && outcomes.includes('lost')) lostAt = Date.now();
      if (!bLeadingAt && b.leading.isOpen) bLeadingAt = Date.now();
    }
    expect(lostAt - cutAt).toBeLessThanOrEqual(timing.renewDeadlineMs + timing.retryPeriodMs);
    expect(a.isLeader()).toBe(false);
    expect(bLeadingAt).toBeGreaterThan(lostAt);
  });

  it('says when a step-down follows a pause (the wall clock ran ahead of the monotonic one)', async () => {
    const api = new FakeApi();
    let pausedMs = 0;
    // The monotonic clock stops during a pause: it is the fake wall clock minus the pause.
    const { elector: a, lines } = loggingElector(api, () => Date.now() - pausedMs);
    const runA = a.run(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(a.isLeader()).toBe(true);
    // The VM is paused for 30 s: the wall clock jumps, no timer fires in between.
    pausedMs = 30_000;
    vi.setSystemTime(Date.now() + 30_000);
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(runA).resolves.toBe('lost');
    const stepDown = lines.find((l) => l.message.includes('stepping down'));
    expect(stepDown?.message).toMatch(/ran 30\d{3} ms ahead of the monotonic clock/);
    expect(stepDown?.fields?.pausedMs).toBeGreaterThanOrEqual(30_000);
    expect(stepDown?.fields?.sinceLastRenewMonotonicMs).toBeLessThan(timing.renewDeadlineMs);
  });

  it('a step-down without a pause says nothing about clocks', async () => {
    const api = new FakeApi();
    const { elector: a, lines } = loggingElector(api, () => Date.now());
    const runA = a.run(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(3_000);
    api.failFor.add('a');
    await vi.advanceTimersByTimeAsync(15_000);
    await expect(runA).resolves.toBe('lost');
    const stepDown = lines.find((l) => l.message.includes('stepping down'));
    expect(stepDown?.message).toBe('failed to renew the lease within the renew deadline; stepping down');
    expect(stepDown?.fields?.pausedMs).toBeUndefined();
    expect(stepDown?.fields?.sinceLastRenewMs).toBeGreaterThanOrEqual(timing.renewDeadlineMs);
  });

  it('releases the lease on a graceful stop so a standby need not wait out the duration', async () => {
    const api = new FakeApi();
    const a = elector(api, 'a', { releaseOnCancel: true });
    const b = elector(api, 'b');
    const stopA = new AbortController();
    const runA = a.run(stopA.signal);
    await vi.advanceTimersByTimeAsync(0);
    void b.run(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(4_000);
    stopA.abort();
    await expect(runA).resolves.toBe('stopped');
    expect(api.lease?.spec?.holderIdentity).toBe('');
    await vi.advanceTimersByTimeAsync(2_500);
    expect(b.leading.isOpen).toBe(true);
  });

  it('of two candidates racing for a missing lease exactly one wins', async () => {
    const api = new FakeApi();
    const a = elector(api, 'a');
    const b = elector(api, 'b');
    void a.run(new AbortController().signal);
    void b.run(new AbortController().signal);
    await vi.advanceTimersByTimeAsync(20_000);
    expect([a.leading.isOpen, b.leading.isOpen].filter(Boolean)).toHaveLength(1);
  });

  it('rejects timings that would let two leaders overlap', () => {
    const api = new FakeApi();
    expect(
      () =>
        new LeaderElector({
          client: api.client(() => 'x'),
          namespace: 'n',
          name: 'l',
          leaseDurationMs: 10_000,
          renewDeadlineMs: 10_000,
          retryPeriodMs: 2_000,
        }),
    ).toThrow(LeaderElectionConfigError);
  });
});
