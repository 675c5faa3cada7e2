// Leader election with client-go's semantics: acquire or renew every retry period; a standby takes over
// only when the holder has not renewed for a full lease duration *as observed on the standby's own clock*
// (clocks of different machines are never compared); the leader steps down when it cannot renew within the
// renew deadline, which is shorter than the lease duration, so it stops before anyone else may start.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Gate } from '@warmstart/sync-gate';
import { isConflict, type Lease, type LeaseClient, type LeaseSpec, microTime } from './lease.js';

export interface LeaderElectorOptions {
  readonly client: LeaseClient;
  readonly namespace: string;
  readonly name: string;
  /** Defaults to `<hostname>_<random hex>`, unique per process. */
  readonly identity?: string | undefined;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  /** Give the Lease up on a graceful stop, so a standby need not wait out the lease duration. */
  readonly releaseOnCancel?: boolean | undefined;
  /** Called whenever the observed holder changes (including to ourselves). */
  readonly onNewLeader?: ((identity: string) => void) | undefined;
  readonly log?:
    | ((level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void)
    | undefined;
  /** Milliseconds since the epoch; injectable for tests. */
  readonly now?: (() => number) | undefined;
  /**
   * A monotonic clock in milliseconds (default `performance.now`), read only to explain a step-down: it stops
   * while the machine is paused, the wall clock does not.
   */
  readonly monotonicNow?: (() => number) | undefined;
}

export class LeaderElectionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeaderElectionConfigError';
  }
}

/** How an elector's run ended. */
export type ElectionOutcome = 'stopped' | 'lost';

const JITTER = 1.2;

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export class LeaderElector {
  readonly identity: string;
  /** Opens when this process becomes the leader. One-shot: after a loss the process is expected to stop. */
  readonly leading: Gate;
  readonly #o: LeaderElectorOptions;
  readonly #now: () => number;
  readonly #monotonicNow: () => number;
  #observed: { spec: LeaseSpec | undefined; at: number; raw: string } | undefined;
  #lastRenew = 0;
  #lastRenewMonotonic = 0;
  #latest: Readonly<Lease> | undefined;
  #holder: string | undefined;

  constructor(options: LeaderElectorOptions) {
    if (options.leaseDurationMs <= options.renewDeadlineMs) {
      throw new LeaderElectionConfigError('the lease duration must be greater than the renew deadline');
    }
    if (options.renewDeadlineMs <= options.retryPeriodMs * JITTER) {
      throw new LeaderElectionConfigError(
        `the renew deadline must be greater than ${JITTER} x the retry period`,
      );
    }
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#monotonicNow = options.monotonicNow ?? (() => performance.now());
    this.identity = options.identity ?? `${hostname()}_${randomBytes(4).toString('hex')}`;
    this.leading = new Gate(`leader:${options.namespace}/${options.name}`);
    this.leading.setProgress('waiting to acquire the lease');
  }

  /** True while this process holds the lease and has renewed it within the renew deadline. */
  isLeader(): boolean {
    return this.leading.isOpen && this.#now() - this.#lastRenew < this.#o.renewDeadlineMs;
  }

  /** The holder this process last observed, if any. */
  get observedHolder(): string | undefined {
    return this.#holder;
  }

  /**
   * Acquires the lease (waiting as a standby as long as needed), then renews it until `signal` aborts
   * ('stopped', releasing the lease if configured) or a renewal misses the renew deadline ('lost').
   */
  async run(signal: AbortSignal): Promise<ElectionOutcome> {
    await this.#o.client.waitForSync(signal);
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew(signal)) break;
      await abortableDelay(this.#o.retryPeriodMs * (1 + Math.random() * (JITTER - 1)), signal);
    }
    if (signal.aborted) return 'stopped';
    this.leading.setProgress(`leading as ${this.identity}`);
    this.leading.open();
    this.#o.log?.('info', 'became leader', {
      identity: this.identity,
      lease: `${this.#o.namespace}/${this.#o.name}`,
    });

    while (!signal.aborted) {
      await abortableDelay(this.#o.retryPeriodMs, signal);
      if (signal.aborted) break;
      const deadline = this.#lastRenew + this.#o.renewDeadlineMs;
      let renewed = false;
      while (!signal.aborted && this.#now() < deadline) {
        const attempt = new AbortController();
        const onAbort = (): void => attempt.abort(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        // One attempt may not outlive the deadline: a hung request must not keep a stale leader writing.
        const timer = setTimeout(
          () => attempt.abort(new Error('renew attempt reached the renew deadline')),
          Math.max(1, deadline - this.#now()),
        );
        try {
          renewed = await this.#tryAcquireOrRenew(attempt.signal);
        } finally {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
        }
        if (renewed) break;
        await abortableDelay(Math.min(this.#o.retryPeriodMs, Math.max(0, deadline - this.#now())), signal);
      }
      if (signal.aborted) break;
      if (!renewed) {
        // The deadline runs on the wall clock, which keeps going while a VM is paused or the process stopped:
        // on resume the leader steps down at once, as it must, since a standby may have taken over meanwhile.
        // Both clocks' view of the gap tell an operator that case from an API server that stopped answering.
        const sinceLastRenewMs = Math.round(this.#now() - this.#lastRenew);
        const sinceLastRenewMonotonicMs = Math.round(this.#monotonicNow() - this.#lastRenewMonotonic);
        const pausedMs = sinceLastRenewMs - sinceLastRenewMonotonicMs;
        const paused = pausedMs > this.#o.retryPeriodMs;
        this.#o.log?.(
          'warn',
          paused
            ? `failed to renew the lease within the renew deadline; stepping down (the wall clock ran ${pausedMs} ms ahead of the monotonic clock since the last renewal: this process or its machine was paused, or the clock was stepped)`
            : 'failed to renew the lease within the renew deadline; stepping down',
          {
            identity: this.identity,
            renewDeadlineMs: this.#o.renewDeadlineMs,
            sinceLastRenewMs,
            sinceLastRenewMonotonicMs,
            ...(paused ? { pausedMs } : {}),
          },
        );
        this.#lastRenew = 0;
        return 'lost';
      }
    }
    if (this.#o.releaseOnCancel) await this.#release();
    return 'stopped';
  }

  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = this.#now();
    const record: LeaseSpec = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.ceil(this.#o.leaseDurationMs / 1000),
      acquireTime: microTime(now),
      renewTime: microTime(now),
      leaseTransitions: 0,
    };
    const existing = this.#freshest();
    try {
      if (!existing) {
        this.#latest = await this.#o.client.create(this.#lease(undefined, record), signal);
        this.#renewed(now);
        return true;
      }
      const spec = existing.spec;
      const raw = JSON.stringify(spec ?? {});
      if (this.#observed?.raw !== raw) {
        // The holder wrote something new: restart our local clock for its lease from now.
        this.#observed = { spec, at: now, raw };
        this.#setHolder(spec?.holderIdentity);
      }
      const holder = spec?.holderIdentity ?? '';
      const durationMs = (spec?.leaseDurationSeconds ?? 0) * 1000;
      const iAmHolder = holder === this.identity;
      if (holder !== '' && !iAmHolder && this.#observed.at + durationMs > now) return false;
      const next: LeaseSpec = iAmHolder
        ? { ...record, acquireTime: spec?.acquireTime, leaseTransitions: spec?.leaseTransitions ?? 0 }
        : { ...record, leaseTransitions: (spec?.leaseTransitions ?? 0) + 1 };
      this.#latest = await this.#o.client.update(this.#lease(existing, next), signal);
      this.#renewed(now);
      return true;
    } catch (error) {
      if (!isConflict(error) && !signal.aborted) {
        this.#o.log?.('warn', 'lease write failed', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return false;
    }
  }

  #renewed(at: number): void {
    this.#lastRenew = at;
    this.#lastRenewMonotonic = this.#monotonicNow();
    this.#observed = { spec: this.#latest?.spec, at, raw: JSON.stringify(this.#latest?.spec ?? {}) };
    this.#setHolder(this.identity);
  }

  /** The cache's Lease unless our own last write is known to be newer (the watch event may lag our write). */
  #freshest(): Readonly<Lease> | undefined {
    const cached = this.#o.client.current();
    const mine = this.#latest;
    if (!mine) return cached;
    if (!cached) return mine;
    // resourceVersions are opaque, but etcd-backed servers issue increasing integers; when both parse,
    // prefer the larger, else trust the cache.
    const a = Number(cached.metadata.resourceVersion);
    const b = Number(mine.metadata.resourceVersion);
    return Number.isFinite(a) && Number.isFinite(b) && b > a ? mine : cached;
  }

  #lease(existing: Readonly<Lease> | undefined, spec: LeaseSpec): Lease {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: this.#o.name,
        namespace: this.#o.namespace,
        ...(existing?.metadata.resourceVersion ? { resourceVersion: existing.metadata.resourceVersion } : {}),
      },
      spec,
    };
  }

  #setHolder(holder: string | undefined): void {
    if (holder && holder !== this.#holder) {
      this.#holder = holder;
      this.#o.onNewLeader?.(holder);
    }
  }

  async #release(): Promise<void> {
    const existing = this.#freshest();
    if (!existing || existing.spec?.holderIdentity !== this.identity) return;
    const now = this.#now();
    try {
      await this.#o.client.update(
        this.#lease(existing, {
          ...existing.spec,
          holderIdentity: '',
          leaseDurationSeconds: 1,
          renewTime: microTime(now),
          acquireTime: microTime(now),
        }),
        AbortSignal.timeout(this.#o.retryPeriodMs),
      );
      this.#o.log?.('info', 'released the lease', { identity: this.identity });
    } catch (error) {
      this.#o.log?.('warn', 'could not release the lease', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
