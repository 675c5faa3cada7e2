// A StatusSource for tests: holds a status, lets the test change it, counts snapshots and subscriptions.
import type { ControllerStatus, DashboardStatus, InformerStatus, StatusSource } from '../status.js';

export const T0 = Date.parse('2026-01-01T00:00:00Z');

export function informer(patch: Partial<InformerStatus> = {}): InformerStatus {
  return {
    cluster: 'host',
    resource: 'apps/v1/deployments',
    state: 'pending',
    objects: 0,
    listRatePerSecond: undefined,
    waitingMs: 0,
    progress: undefined,
    error: undefined,
    ...patch,
  };
}

export function controller(patch: Partial<ControllerStatus> = {}): ControllerStatus {
  return {
    name: 'detector',
    queueDepth: 0,
    inFlight: 0,
    readerWaits: 0,
    lastError: undefined,
    waitingFor: undefined,
    ...patch,
  };
}

export function status(patch: Partial<DashboardStatus> = {}): DashboardStatus {
  return {
    strategy: 'block-reads',
    startedAt: T0,
    now: T0 + 1_000,
    leader: { identity: 'manager-0', leading: true, holder: 'manager-0' },
    directReads: 0,
    ready: false,
    informers: [informer()],
    controllers: [controller()],
    ...patch,
  };
}

export class FakeSource implements StatusSource {
  snapshots = 0;
  readonly listeners = new Set<() => void>();
  #status: DashboardStatus;
  #unsubscribed = Promise.withResolvers<void>();

  constructor(initial: DashboardStatus = status()) {
    this.#status = initial;
  }

  snapshot(): DashboardStatus {
    this.snapshots++;
    return this.#status;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.#unsubscribed.resolve();
    };
  }

  /** Resolves when the last listener unsubscribed. */
  get unsubscribed(): Promise<void> {
    return this.#unsubscribed.promise;
  }

  set(next: DashboardStatus): void {
    this.#status = next;
    for (const l of this.listeners) l();
  }
}

/** A source without onChange: the dashboard has to poll it. */
export class PolledSource implements StatusSource {
  constructor(public current: DashboardStatus) {}
  snapshot(): DashboardStatus {
    return this.current;
  }
}
