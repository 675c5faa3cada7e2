// The manager's side of the dashboard: turns gates, informers, queues and counters into the page's plain
// snapshot. Change notifications come from readiness events and a 1 s tick while anything is still moving.
import type { InformerManager, SharedInformer } from '@warmstart/informer-cache';
import type { Lifecycle, ControllerStatus as RuntimeControllerStatus } from '@warmstart/runtime';
import type { Readiness } from '@warmstart/sync-gate';
import type { DashboardStatus, InformerStatus, StatusSource } from './dashboard/status.js';
import type { ManagerMetrics } from './metrics.js';

interface ListClock {
  firstSeenAt: number;
  syncedAt: number | undefined;
}

export class ManagerStatus implements StatusSource {
  readonly #strategy: string;
  readonly #startedAt: number;
  readonly #readiness: Readiness;
  readonly #metrics: ManagerMetrics;
  readonly #managers: InformerManager[] = [];
  #controllers: () => readonly RuntimeControllerStatus[] = () => [];
  readonly #clocks = new WeakMap<SharedInformer, ListClock>();
  #identity = '';
  #isLeader: () => boolean = () => false;
  #holder: string | undefined;
  #lifecycle: Lifecycle | undefined;

  constructor(strategy: string, startedAt: number, readiness: Readiness, metrics: ManagerMetrics) {
    this.#strategy = strategy;
    this.#startedAt = startedAt;
    this.#readiness = readiness;
    this.#metrics = metrics;
  }

  setIdentity(identity: string, isLeader: () => boolean): void {
    this.#identity = identity;
    this.#isLeader = isLeader;
  }

  setLeader(holder: string): void {
    this.#holder = holder;
  }

  setLifecycle(lifecycle: Lifecycle): void {
    this.#lifecycle = lifecycle;
  }

  /** Where the controller rows come from (the runtime Controllers' status()). */
  setControllers(statuses: () => readonly RuntimeControllerStatus[]): void {
    this.#controllers = statuses;
  }

  /** Shows this manager's informers (the host's, and each member's as clusters join). */
  watchInformers(manager: InformerManager): void {
    if (!this.#managers.includes(manager)) this.#managers.push(manager);
  }

  unwatchInformers(manager: InformerManager): void {
    const i = this.#managers.indexOf(manager);
    if (i >= 0) this.#managers.splice(i, 1);
  }

  snapshot(): DashboardStatus {
    const now = Date.now();
    const informers: InformerStatus[] = [];
    for (const m of this.#managers) for (const i of m.informers()) informers.push(this.#informer(i, now));
    const controllersWaitFor = this.#lifecycle?.snapshot().groups.find((g) => g.name === 'controllers');
    const waitingFor =
      controllersWaitFor && controllersWaitFor.phase !== 'started'
        ? controllersWaitFor.waitFor.join(', ') || 'start'
        : undefined;
    return {
      strategy: this.#strategy,
      startedAt: this.#startedAt,
      now,
      leader: { identity: this.#identity, leading: this.#isLeader(), holder: this.#holder },
      directReads: this.#metrics.directReadCount,
      ready: this.#readiness.isReady(),
      informers,
      controllers: this.#controllers().map((c) => ({
        name: c.name,
        queueDepth: c.queueDepth,
        inFlight: c.inFlight,
        readerWaits: c.readerWaits,
        lastError: c.lastError,
        waitingFor: c.started ? undefined : waitingFor,
      })),
    };
  }

  onChange(listener: () => void): () => void {
    const off = this.#readiness.onChange(() => listener());
    const timer = setInterval(listener, 1000);
    timer.unref();
    return () => {
      off();
      clearInterval(timer);
    };
  }

  #informer(i: SharedInformer, now: number): InformerStatus {
    let clock = this.#clocks.get(i);
    if (!clock) {
      clock = { firstSeenAt: now, syncedAt: undefined };
      this.#clocks.set(i, clock);
    }
    const gate = i.gate.snapshot();
    const store = i.store as { size: number; pendingSize?: number | undefined };
    const objects = gate.state === 'open' ? store.size : (store.pendingSize ?? store.size);
    if (gate.state === 'open' && clock.syncedAt === undefined) clock.syncedAt = gate.since;
    const from = Math.min(clock.firstSeenAt, this.#startedAt);
    const elapsed = (clock.syncedAt ?? now) - from;
    return {
      cluster: i.cluster,
      resource: `${i.gvr.group || 'core'}/${i.gvr.version}/${i.gvr.resource}`,
      state: gate.state,
      objects,
      listRatePerSecond: elapsed > 0 && objects > 0 ? Math.round((objects / elapsed) * 1000) : undefined,
      waitingMs: elapsed,
      progress: gate.progress,
      error: gate.error,
    };
  }
}
