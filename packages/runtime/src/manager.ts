// The Manager: one cluster's informers, the clients controllers get, leader election, probes and the start-up
// order of DESIGN.md §4 (servers -> caches -> leader election -> controllers). Every informer the controllers
// need is registered while they are built, then started, on standby replicas too; the controllers start when
// leadership opens, and under gate-start also after every cache has synced.
import {
  type ApiTransport,
  type CacheMetrics,
  CacheReader,
  FallbackCacheReader,
  type InformerDefaults,
  InformerManager,
  type Logger,
  MutationCache,
  type Reader,
  readYourWritesReader,
  recordingWriter,
  silentLogger,
  Writer,
} from '@warmstart/informer-cache';
import { LeaderElector } from '@warmstart/leader-election';
import {
  ALL_CACHES_GATE,
  AllOfGate,
  Gate,
  listenProbes,
  type ProbeServer,
  Readiness,
  type ReadonlyGate,
} from '@warmstart/sync-gate';
import { countingReader, fencedWriter, type WriteClient } from './clients.js';
import { Controller } from './controller.js';
import { ControllerStateError, LeadershipLostError } from './errors.js';
import type { ControllerHost } from './host.js';
import { informerLeaseClient } from './lease-client.js';
import { Lifecycle, type LifecycleReport, type Runnable } from './lifecycle.js';
import type { RuntimeMetrics } from './metrics.js';
import { type CacheSyncStrategy, cacheSyncStrategy } from './strategy.js';

export type ManagerOutcome = 'stopped' | 'lost-leadership' | 'failed';

export interface LeaderElectionOptions {
  readonly namespace: string;
  readonly name: string;
  /** Unique per process; default `<hostname>_<random hex>`. */
  readonly identity?: string | undefined;
  /** client-go's defaults: 15 s / 10 s / 2 s. */
  readonly leaseDurationMs?: number | undefined;
  readonly renewDeadlineMs?: number | undefined;
  readonly retryPeriodMs?: number | undefined;
  /** Called whenever the observed holder changes (including to ourselves). */
  readonly onNewLeader?: ((identity: string) => void) | undefined;
}

export interface ManagerOptions {
  readonly transport: ApiTransport;
  readonly log?: Logger | undefined;
  /** `block-reads` (default), `gate-start` or `fallback`, or a parsed strategy. */
  readonly cacheSyncStrategy?: CacheSyncStrategy | string | undefined;
  /**
   * How long a read that waits for its cache tolerates the cache's list making no progress (the CacheReader's
   * stall deadline). Default 2 minutes.
   */
  readonly cacheSyncTimeoutMs?: number | undefined;
  /** Options every informer gets (resync period, ...). */
  readonly informers?: InformerDefaults | undefined;
  readonly metrics?: (RuntimeMetrics & { readonly cache?: CacheMetrics | undefined }) | undefined;
  /** Omit to run without leader election (this process always leads). */
  readonly leaderElection?: LeaderElectionOptions | undefined;
  /**
   * Probes: a server already listening (opened early so /livez answers while modules load) with the
   * Readiness it serves, or an address to listen on. Omit for none.
   */
  readonly probes?:
    | { readonly server: ProbeServer; readonly readiness: Readiness }
    | { readonly host: string; readonly port: number }
    | undefined;
  /** A readiness registry to fill (when probes are served elsewhere). */
  readonly readiness?: Readiness | undefined;
  /** Deadline for stopping every runnable. Default 30 s. */
  readonly gracefulShutdownTimeoutMs?: number | undefined;
}

export class Manager implements ControllerHost {
  readonly informers: InformerManager;
  readonly readiness: Readiness;
  readonly strategy: CacheSyncStrategy;
  readonly log: Logger;
  readonly metrics: RuntimeMetrics | undefined;
  /** This replica's identity in the Lease (`leader-election-disabled` without election). */
  readonly identity: string;
  /** Opens when this process leads. */
  readonly leading: ReadonlyGate;
  readonly #o: ManagerOptions;
  readonly #reader: Reader;
  /** What the controllers wrote, laid over their cache reads until the informers deliver it (read-your-writes). */
  readonly #ownWrites: MutationCache;
  readonly #elector: LeaderElector | undefined;
  readonly #controllers: Runnable[] = [];
  readonly #servers: Runnable[] = [];
  readonly #caches: Runnable[] = [];
  #lifecycle: Lifecycle | undefined;
  #probesUrl: string | undefined;
  #markServing: () => void = () => {};
  /** Resolves once every server (probes included) listens: the caches group has begun. */
  readonly serving = new Promise<void>((resolve) => {
    this.#markServing = resolve;
  });

  constructor(options: ManagerOptions) {
    this.#o = options;
    this.log = options.log ?? silentLogger;
    this.metrics = options.metrics;
    const given = options.probes && 'server' in options.probes ? options.probes : undefined;
    this.readiness = given?.readiness ?? options.readiness ?? new Readiness();
    this.strategy =
      typeof options.cacheSyncStrategy === 'object'
        ? options.cacheSyncStrategy
        : cacheSyncStrategy(options.cacheSyncStrategy ?? 'block-reads');
    this.informers = new InformerManager({
      transport: options.transport,
      metrics: options.metrics?.cache,
      logger: this.log,
      informers: options.informers,
    });
    const cacheReader = new CacheReader(this.informers, { stallTimeoutMs: options.cacheSyncTimeoutMs });
    // Every controller reads its own (and the others') writes before the informers deliver them.
    this.#ownWrites = new MutationCache(this.informers);
    this.#reader = readYourWritesReader(
      this.strategy.reads === 'fall-back-to-api-server'
        ? new FallbackCacheReader(this.informers, cacheReader, { source: 'fallback-reader' })
        : cacheReader,
      this.#ownWrites,
    );
    const le = options.leaderElection;
    if (le) {
      this.#elector = new LeaderElector({
        client: informerLeaseClient(
          this.informers,
          new Writer(options.transport, { source: 'leader-election' }),
          le.namespace,
          le.name,
        ),
        namespace: le.namespace,
        name: le.name,
        identity: le.identity,
        leaseDurationMs: le.leaseDurationMs ?? 15_000,
        renewDeadlineMs: le.renewDeadlineMs ?? 10_000,
        retryPeriodMs: le.retryPeriodMs ?? 2_000,
        releaseOnCancel: true,
        onNewLeader: (identity) => {
          this.log.info('observed leader', { leader: identity });
          le.onNewLeader?.(identity);
        },
        log: (level, message, fields) => this.log[level](message, fields),
      });
      this.identity = this.#elector.identity;
      this.leading = this.#elector.leading;
    } else {
      this.identity = 'leader-election-disabled';
      const open = new Gate('leader:disabled');
      open.open();
      this.leading = open;
    }
  }

  /** True while this process leads (always without leader election). */
  isLeader(): boolean {
    return this.#elector ? this.#elector.isLeader() : true;
  }

  /** A cache reader whose waits for an unsynced informer are reported to `onWait`. */
  reader(onWait: () => void = () => {}): Reader {
    return countingReader(this.#reader, this.informers, onWait);
  }

  /**
   * A write-only client, refused while this process does not lead, accounted to `source`; what it writes is
   * read back by every reader of this manager until the informer delivers it.
   */
  writer(source: string): WriteClient {
    return recordingWriter(
      fencedWriter(new Writer(this.#o.transport, { source }), () => this.isLeader()),
      this.#ownWrites,
    );
  }

  /** Adds a controller (or another runnable that runs only while leading); it starts with the controllers group. */
  add(runnable: Runnable): void {
    this.#building(`add ${runnable.name}`);
    this.#controllers.push(runnable);
  }

  /** Adds a server (metrics, a dashboard): the first group, listening before anything else starts. */
  addServer(server: Runnable): void {
    this.#building('add a server');
    this.#servers.push(server);
  }

  /** Adds a runnable to the caches group (e.g. other clusters' informers), stopped after the controllers. */
  addCache(cache: Runnable): void {
    this.#building('add a cache');
    this.#caches.push(cache);
  }

  /** The controllers, in the order they were added. */
  controllers(): readonly Controller[] {
    return this.#controllers.filter((r) => r instanceof Controller);
  }

  /** The start-up order's state, once run() was called. */
  get lifecycle(): Lifecycle | undefined {
    return this.#lifecycle;
  }

  /** The probe server's URL once it listens (when the Manager opened it). */
  get probesUrl(): string | undefined {
    return this.#probesUrl;
  }

  /**
   * Registers every informer's gate for /readyz, starts the groups in order and resolves when the manager
   * stops: `signal` aborted (stopped), leadership lost, or a runnable failed.
   */
  async run(signal: AbortSignal): Promise<ManagerOutcome> {
    this.#building('run the manager');
    const { readiness } = this;
    for (const informer of this.informers.informers()) readiness.register(informer.gate);
    // A caller may have registered the aggregate already, empty, so /readyz failed while modules loaded.
    const early = readiness.get(ALL_CACHES_GATE);
    const allCaches = early instanceof AllOfGate ? early : readiness.allOf(ALL_CACHES_GATE);
    for (const gate of this.informers.gates()) allCaches.add(gate);
    allCaches.seal();
    this.log.info('informers registered', {
      informers: this.informers.informers().length,
      controllers: this.#controllers.map((c) => c.name),
      strategy: this.strategy.name,
    });

    const probes = this.#probesRunnable();
    let lost = false;
    const elector = this.#elector;
    const leaderGroup: Runnable[] = elector
      ? [
          {
            name: 'leader-election',
            start: (s, ctx) => {
              void elector.run(s).then((outcome) => {
                this.metrics?.setLeader?.(false);
                if (outcome === 'lost') {
                  lost = true;
                  ctx.fail(new LeadershipLostError(this.identity));
                }
              });
              void elector.leading.wait({ signal: s }).then(
                () => this.metrics?.setLeader?.(true),
                () => undefined,
              );
            },
          },
        ]
      : [];
    const informers = this.informers;
    const lifecycle = new Lifecycle({
      readiness,
      strategy: this.strategy,
      stopTimeoutMs: this.#o.gracefulShutdownTimeoutMs,
      groups: [
        { name: 'servers', runnables: [...probes, ...this.#servers] },
        {
          name: 'caches',
          runnables: [
            {
              name: 'host-informers',
              start: (s) => {
                this.#markServing();
                informers.start(s);
              },
              stop: () => informers.stop(),
            },
            ...this.#caches,
          ],
        },
        { name: 'leader-election', runnables: leaderGroup },
        { name: 'controllers', runnables: this.#controllers, waitFor: [this.leading] },
      ],
    });
    this.#lifecycle = lifecycle;
    lifecycle.start({ signal });
    const report: LifecycleReport = await lifecycle.done;
    if (report.outcome === 'failed') {
      this.log.error('manager failed', { err: report.cause, stopOrder: report.stopOrder });
      return lost ? 'lost-leadership' : 'failed';
    }
    return 'stopped';
  }

  #probesRunnable(): Runnable[] {
    const p = this.#o.probes;
    if (!p) return [];
    if ('server' in p) {
      this.#probesUrl = p.server.url;
      return [{ name: 'probes', start: () => undefined, stop: () => p.server.close() }];
    }
    let server: ProbeServer | undefined;
    return [
      {
        name: 'probes',
        start: async () => {
          server = await listenProbes({ host: p.host, port: p.port, readiness: this.readiness });
          this.#probesUrl = server.url;
        },
        stop: async () => {
          await server?.close();
        },
      },
    ];
  }

  #building(what: string): void {
    if (this.#lifecycle) throw new ControllerStateError(`cannot ${what}: the manager is already running`);
  }
}
