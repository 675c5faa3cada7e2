// The manager's start-up order (DESIGN.md §4): probe, metrics and dashboard servers listen first; every
// informer the enabled controllers need is registered up front and started, on standby replicas too; leader
// election runs; the controllers start when leadership opens, and under gate-start also after every cache
// has synced. SIGTERM stops the groups in reverse order within --graceful-shutdown-timeout.
import type { IncomingMessage, RequestListener } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  ApiTransport,
  CacheReader,
  type ClusterEndpoint,
  endpointFromKubeConfig,
  FallbackCacheReader,
  InformerManager,
  MultiClusterInformerManager,
  MutationCache,
  type RateLimitOptions,
  type Reader,
  readYourWritesReader,
  recordingWriter,
  staticEndpoint,
  Writer,
} from '@warmstart/informer-cache';
import { LeaderElector } from '@warmstart/leader-election';
import {
  ALL_CACHES_GATE,
  AllOfGate,
  cacheSyncStrategy,
  Gate,
  Lifecycle,
  type LifecycleReport,
  listenProbes,
  type ProbeServer,
  Readiness,
  type Runnable,
} from '@warmstart/sync-gate';
import { countingReader, fencedWriter, type WriteClient } from './clients.js';
import type { ManagerContext } from './context.js';
import { buildControllers } from './controllers/registry.js';
import { isLoopback } from './dashboard/hosts.js';
import { listenDashboard } from './dashboard/index.js';
import { type AuthDecision, DelegatedAuth } from './endpoint-auth/index.js';
import { informerLeaseClient } from './lease-client.js';
import { cacheLogger, type Logger } from './logger.js';
import { ManagerMetrics } from './metrics.js';
import { listenMetrics } from './metrics-server.js';
import { type ManagerOptions, parseBindAddress } from './options.js';
import { ServingCertificate } from './serving-certificate.js';
import { ManagerStatus } from './status-source.js';

/** Token and access reviews: two per token per minute at most; a burst covers a scraper fleet's first round. */
const ENDPOINT_AUTH_RATE_LIMIT: RateLimitOptions = { qps: 5, burst: 20 };

export type ManagerOutcome = 'stopped' | 'lost-leadership' | 'failed';

export interface RunOptions {
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** For tests: a KubeConfig instead of --kubeconfig / the default loading rules. */
  readonly kubeConfig?: KubeConfig | undefined;
  /**
   * A probe server main.ts opened before loading this module (and its heavy Kubernetes client), with the
   * Readiness it serves: /livez then answers within ~100 ms of process start. When absent, the manager opens
   * its own from --health-probe-bind-address.
   */
  readonly probes?: { readonly server: ProbeServer; readonly readiness: Readiness } | undefined;
  /** Called once the servers listen, with their real addresses (tests bind port 0). */
  readonly onListening?: ((addresses: ListeningAddresses) => void) | undefined;
}

export interface ListeningAddresses {
  readonly probes: string | undefined;
  readonly metrics: string | undefined;
  readonly dashboard: string | undefined;
}

export class LeadershipLostError extends Error {
  constructor(identity: string) {
    super(
      `${identity} lost the leader lease (could not renew within the renew deadline); stopping so a standby can lead`,
    );
    this.name = 'LeadershipLostError';
  }
}

function serverRunnable(
  name: string,
  listen: () => Promise<{ close(): Promise<void> }>,
): Runnable & { ready: Promise<void> } {
  let handle: { close(): Promise<void> } | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => {
    markReady = r;
  });
  return {
    name,
    ready,
    start: async () => {
      handle = await listen();
      markReady();
    },
    stop: async () => {
      await handle?.close();
    },
  };
}

export async function runManager(options: ManagerOptions, run: RunOptions): Promise<ManagerOutcome> {
  const { log } = run;
  const startedAt = Date.now();
  const metrics = new ManagerMetrics(options.cacheSyncStrategy);
  const readiness = run.probes?.readiness ?? new Readiness();
  const strategy = cacheSyncStrategy(options.cacheSyncStrategy);
  const status = new ManagerStatus(options.cacheSyncStrategy, startedAt, readiness, metrics);
  const addresses: { probes?: string; metrics?: string; dashboard?: string } = {};

  // The control plane's endpoint first: the servers' token checks go to it.
  const endpoint = await hostEndpoint(options, run.kubeConfig);
  const transport = new ApiTransport(endpoint, {
    rateLimit: { qps: options.kubeApiQps, burst: options.kubeApiBurst },
    metrics,
  });
  const tokenCheck = endpointAuth(options, endpoint, metrics, log);
  // Loaded before anything listens: a certificate that does not load fails the start, with both flags named.
  const certificate =
    options.tlsCertFile === ''
      ? undefined
      : await ServingCertificate.load({
          certFile: options.tlsCertFile,
          keyFile: options.tlsPrivateKeyFile,
          log,
        });
  const serverFactory = certificate ? (l: RequestListener) => certificate.createServer(l) : undefined;
  // 1. Servers. They are the first group, and /livez never depends on anything below.
  const servers: (Runnable & { ready: Promise<void> })[] = [];
  if (run.probes) {
    const server = run.probes.server;
    addresses.probes = server.url;
    servers.push(serverRunnable('probes', async () => server));
  } else if (options.healthProbeBindAddress !== '0') {
    const { host, port } = parseBindAddress(options.healthProbeBindAddress);
    servers.push(
      serverRunnable('probes', async () => {
        const s = await listenProbes({ host, port, readiness });
        addresses.probes = s.url;
        return s;
      }),
    );
  }
  if (options.metricsBindAddress !== '0') {
    const { host, port } = parseBindAddress(options.metricsBindAddress);
    servers.push(
      serverRunnable('metrics', async () => {
        const s = await listenMetrics({
          serverFactory,
          metrics,
          host,
          port,
          authorize: options.metricsAuth === 'token' ? tokenCheck.check() : undefined,
        });
        addresses.metrics = s.url;
        return s;
      }),
    );
  }
  if (options.dashboardBindAddress !== '0') {
    const { host, port } = parseBindAddress(options.dashboardBindAddress);
    servers.push(
      serverRunnable('dashboard', async () => {
        const s = await listenDashboard({
          serverFactory,
          host,
          port,
          source: status,
          authorize: options.dashboardAuth === 'token' ? tokenCheck.check() : undefined,
        });
        addresses.dashboard = s.url;
        return s;
      }),
    );
  }

  // 2. The control plane's informers and the clients built on them.
  const informerDefaults = options.resyncPeriodMs > 0 ? { resyncPeriodMs: options.resyncPeriodMs } : {};
  const host = new InformerManager({
    transport,
    metrics,
    logger: cacheLogger(log),
    informers: informerDefaults,
  });
  const members = new MultiClusterInformerManager({
    metrics,
    logger: cacheLogger(log),
    informers: informerDefaults,
  });
  const cacheReader = new CacheReader(host, { timeoutMs: options.cacheSyncTimeoutMs });
  // Every host controller reads its own (and the others') writes before the informers deliver them.
  const ownWrites = new MutationCache(host);
  const baseReader: Reader = readYourWritesReader(
    strategy.reads === 'fall-back-to-api-server'
      ? new FallbackCacheReader(host, cacheReader, { source: 'fallback-reader' })
      : cacheReader,
    ownWrites,
  );

  let elector: LeaderElector | undefined;
  const leading = options.leaderElect ? undefined : new Gate('leader:disabled');
  leading?.open();
  if (options.leaderElect) {
    elector = new LeaderElector({
      client: informerLeaseClient(
        host,
        new Writer(transport, { source: 'leader-election' }),
        options.leaderElectResourceNamespace,
        options.leaderElectResourceName,
      ),
      namespace: options.leaderElectResourceNamespace,
      name: options.leaderElectResourceName,
      identity: options.identity,
      leaseDurationMs: options.leaderElectLeaseDurationMs,
      renewDeadlineMs: options.leaderElectRenewDeadlineMs,
      retryPeriodMs: options.leaderElectRetryPeriodMs,
      releaseOnCancel: true,
      onNewLeader: (identity) => {
        status.setLeader(identity);
        log.info({ leader: identity }, 'observed leader');
      },
      log: (level, message, fields) => log[level](fields ?? {}, message),
    });
  }
  const isLeader = (): boolean => (elector ? elector.isLeader() : true);
  const identity = elector?.identity ?? 'leader-election-disabled';
  status.setIdentity(identity, isLeader);

  const context: ManagerContext = {
    options,
    log,
    metrics,
    host,
    members,
    reader: (controller) => countingReader(baseReader, host, () => controller.readerWaited()),
    writer: (source: string): WriteClient =>
      recordingWriter(fencedWriter(new Writer(transport, { source }), isLeader), ownWrites),
    isLeader,
  };
  // Controllers register every informer they need in their constructors: before anything starts.
  const { controllers, members: memberRegistry } = await buildControllers(context, run.signal);
  for (const c of controllers) status.addController(c);
  memberRegistry.onChange((_name, member) => {
    if (member) status.watchInformers(member.informers);
  });

  for (const informer of host.informers()) readiness.register(informer.gate);
  status.watchInformers(host);
  // main.ts may have registered the aggregate already, empty, so /readyz failed while this module loaded.
  const early = readiness.get(ALL_CACHES_GATE);
  const allCaches = early instanceof AllOfGate ? early : readiness.allOf(ALL_CACHES_GATE);
  for (const gate of host.gates()) allCaches.add(gate);
  allCaches.seal();
  log.info(
    {
      informers: host.informers().length,
      controllers: controllers.map((c) => c.name),
      strategy: strategy.name,
    },
    'informers registered',
  );

  let lost = false;
  const leaderGroup: Runnable[] = elector
    ? [
        {
          name: 'leader-election',
          start: (signal, ctx) => {
            void elector.run(signal).then((outcome) => {
              metrics.setLeader(false);
              if (outcome === 'lost') {
                lost = true;
                ctx.fail(new LeadershipLostError(identity));
              }
            });
            void elector.leading.wait({ signal }).then(
              () => metrics.setLeader(true),
              () => undefined,
            );
          },
        },
      ]
    : [];

  const lifecycle = new Lifecycle({
    readiness,
    strategy,
    stopTimeoutMs: options.gracefulShutdownTimeoutMs,
    groups: [
      { name: 'servers', runnables: servers },
      {
        name: 'caches',
        runnables: [
          { name: 'host-informers', start: (signal) => host.start(signal), stop: () => host.stop() },
          { name: 'member-informers', start: () => undefined, stop: () => memberRegistry.removeAll() },
        ],
      },
      { name: 'leader-election', runnables: leaderGroup },
      {
        name: 'controllers',
        runnables: controllers,
        waitFor: [elector ? elector.leading : leading!],
      },
    ],
  });
  status.setLifecycle(lifecycle);
  lifecycle.start({ signal: run.signal });
  void Promise.all(servers.map((s) => s.ready)).then(() => {
    run.onListening?.({
      probes: addresses.probes,
      metrics: addresses.metrics,
      dashboard: addresses.dashboard,
    });
    log.info({ ...addresses, startupMs: Date.now() - startedAt }, 'serving probes');
  });
  const report: LifecycleReport = await lifecycle.done;
  transport.close();
  tokenCheck.close();
  certificate?.close();
  if (report.outcome === 'failed') {
    log.error({ err: report.cause, stopOrder: report.stopOrder }, 'manager failed');
    return lost ? 'lost-leadership' : 'failed';
  }
  return 'stopped';
}

/**
 * The token check behind --metrics-auth/--dashboard-auth, made on first use. Its reviews go through a transport
 * of their own with a small rate limit, so a flood of made-up tokens cannot spend the controllers' request
 * budget. Warns about an endpoint exposed beyond loopback without a token check.
 */
function endpointAuth(
  options: ManagerOptions,
  endpoint: ClusterEndpoint,
  metrics: ManagerMetrics,
  log: Logger,
): { check(): (req: IncomingMessage) => Promise<AuthDecision>; close(): void } {
  for (const [flag, address, mode] of [
    ['metrics', options.metricsBindAddress, options.metricsAuth],
    ['dashboard', options.dashboardBindAddress, options.dashboardAuth],
  ] as const) {
    if (address !== '0' && mode === 'none' && !isLoopback(parseBindAddress(address).host)) {
      log.warn(
        { address, flag: `--${flag}-auth` },
        `the ${flag} endpoint listens beyond loopback without a token check; anyone who reaches ${address} can read it (set --${flag}-auth=token)`,
      );
    }
  }
  let transport: ApiTransport | undefined;
  let auth: DelegatedAuth | undefined;
  return {
    check: () => {
      transport ??= new ApiTransport(endpoint, { rateLimit: ENDPOINT_AUTH_RATE_LIMIT, metrics });
      auth ??= new DelegatedAuth({
        client: new Writer(transport, { source: 'endpoint-auth' }),
        onError: (error) => log.warn({ err: error }, 'could not review a bearer token; answered 503'),
      });
      const a = auth;
      return (req) => a.authorize(req);
    },
    close: () => transport?.close(),
  };
}

/**
 * The control plane's endpoint. Static credentials are read without @kubernetes/client-node, whose import costs
 * most of a second of blocked event loop; exec plugins and auth providers load it on demand.
 */
async function hostEndpoint(
  options: ManagerOptions,
  given: KubeConfig | undefined,
): Promise<ClusterEndpoint> {
  if (given) return endpointFromKubeConfig(given, { name: 'host' });
  const fast = staticEndpoint({ path: options.kubeconfig, name: 'host' });
  if (fast) return fast;
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  if (options.kubeconfig) kc.loadFromFile(options.kubeconfig);
  else kc.loadFromDefault();
  return endpointFromKubeConfig(kc, { name: 'host' });
}
