// The controller manager process: flags in, a runtime Manager (informers, leader election, probes, the
// start-up order of DESIGN.md §4) with the Karmada controllers on it, plus the metrics and dashboard servers
// and the member clusters' informers. SIGTERM stops everything in reverse order within
// --graceful-shutdown-timeout.
import type { IncomingMessage, RequestListener } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  ApiTransport,
  type ClusterEndpoint,
  endpointFromKubeConfig,
  type InformerDefaults,
  MultiClusterInformerManager,
  type RateLimitOptions,
  staticEndpoint,
  Writer,
} from '@warmstart/informer-cache';
import { Manager, type ManagerOutcome, type Runnable } from '@warmstart/runtime';
import type { EventLoopStallRecorder, ProbeServer, Readiness } from '@warmstart/sync-gate';
import type { ManagerContext } from './context.js';
import { buildControllers } from './controllers/registry.js';
import { isLoopback } from './dashboard/hosts.js';
import { listenDashboard } from './dashboard/index.js';
import { type AuthDecision, DelegatedAuth } from './endpoint-auth/index.js';
import { recordEventLoopStalls } from './event-loop-stalls.js';
import { cacheLogger, type Logger } from './logger.js';
import { ManagerMetrics } from './metrics.js';
import { listenMetrics } from './metrics-server.js';
import { type ManagerOptions, parseBindAddress } from './options.js';
import { ServingCertificate } from './serving-certificate.js';
import { ManagerStatus } from './status-source.js';

/** Token and access reviews: two per token per minute at most; a burst covers a scraper fleet's first round. */
const ENDPOINT_AUTH_RATE_LIMIT: RateLimitOptions = { qps: 5, burst: 20 };

export { LeadershipLostError, type ManagerOutcome } from '@warmstart/runtime';

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
  /**
   * An event-loop stall recorder main.ts started with the probes, read by /metrics; the caller closes it.
   * When absent, the manager records its own from here on and closes it when it returns.
   */
  readonly eventLoopStalls?: EventLoopStallRecorder | undefined;
  /** Called once the servers listen, with their real addresses (tests bind port 0). */
  readonly onListening?: ((addresses: ListeningAddresses) => void) | undefined;
}

export interface ListeningAddresses {
  readonly probes: string | undefined;
  readonly metrics: string | undefined;
  readonly dashboard: string | undefined;
}

/** What every informer of the manager, host or member, starts with. */
function informerDefaults(options: ManagerOptions): InformerDefaults {
  return {
    watchList: options.informerInitialSync === 'paged-list' ? 'never' : 'auto',
    ...(options.resyncPeriodMs > 0 ? { resyncPeriodMs: options.resyncPeriodMs } : {}),
  };
}

/** A server as a runnable of the servers group: it listens at start and closes at stop. */
function serverRunnable(name: string, listen: () => Promise<{ close(): Promise<void> }>): Runnable {
  let handle: { close(): Promise<void> } | undefined;
  return {
    name,
    start: async () => {
      handle = await listen();
    },
    stop: async () => {
      await handle?.close();
    },
  };
}

export async function runManager(options: ManagerOptions, run: RunOptions): Promise<ManagerOutcome> {
  if (run.eventLoopStalls) return runWithStalls(options, run, run.eventLoopStalls);
  const eventLoopStalls = recordEventLoopStalls(run.log);
  try {
    return await runWithStalls(options, run, eventLoopStalls);
  } finally {
    eventLoopStalls.close();
  }
}

async function runWithStalls(
  options: ManagerOptions,
  run: RunOptions,
  eventLoopStalls: EventLoopStallRecorder,
): Promise<ManagerOutcome> {
  const { log } = run;
  const startedAt = Date.now();
  const metrics = new ManagerMetrics(options.cacheSyncStrategy, { eventLoopStalls });
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

  let status: ManagerStatus | undefined;
  const manager = new Manager({
    transport,
    log: cacheLogger(log),
    cacheSyncStrategy: options.cacheSyncStrategy,
    cacheSyncTimeoutMs: options.cacheSyncTimeoutMs,
    informers: informerDefaults(options),
    metrics: {
      cache: metrics,
      workqueue: metrics.workqueue,
      controllers: metrics.controllers,
      setLeader: (leading) => metrics.setLeader(leading),
    },
    leaderElection: options.leaderElect
      ? {
          namespace: options.leaderElectResourceNamespace,
          name: options.leaderElectResourceName,
          identity: options.identity,
          leaseDurationMs: options.leaderElectLeaseDurationMs,
          renewDeadlineMs: options.leaderElectRenewDeadlineMs,
          retryPeriodMs: options.leaderElectRetryPeriodMs,
          onNewLeader: (identity) => status?.setLeader(identity),
        }
      : undefined,
    probes:
      run.probes ??
      (options.healthProbeBindAddress === '0' ? undefined : parseBindAddress(options.healthProbeBindAddress)),
    gracefulShutdownTimeoutMs: options.gracefulShutdownTimeoutMs,
  });
  status = new ManagerStatus(options.cacheSyncStrategy, startedAt, manager.readiness, metrics);
  status.setIdentity(manager.identity, () => manager.isLeader());

  // 1. Servers besides the probes (the Manager's): they listen before anything else starts.
  const servers: Runnable[] = [];
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
    const source = status;
    servers.push(
      serverRunnable('dashboard', async () => {
        const s = await listenDashboard({
          serverFactory,
          host,
          port,
          source,
          authorize: options.dashboardAuth === 'token' ? tokenCheck.check() : undefined,
        });
        addresses.dashboard = s.url;
        return s;
      }),
    );
  }
  for (const server of servers) manager.addServer(server);

  // 2. The controllers: each registers the informers it needs while it is built, before anything starts.
  const members = new MultiClusterInformerManager({
    metrics,
    logger: cacheLogger(log),
    informers: informerDefaults(options),
  });
  const context: ManagerContext = {
    options,
    log,
    metrics,
    manager,
    host: manager.informers,
    members,
    isLeader: () => manager.isLeader(),
  };
  const { statuses, members: memberRegistry } = await buildControllers(context, run.signal);
  status.setControllers(statuses);
  memberRegistry.onChange((_name, member) => {
    if (member) status?.watchInformers(member.informers);
  });
  status.watchInformers(manager.informers);
  manager.addCache({
    name: 'member-informers',
    start: () => undefined,
    stop: () => memberRegistry.removeAll(),
  });

  const outcome = manager.run(run.signal);
  if (manager.lifecycle) status.setLifecycle(manager.lifecycle);
  void manager.serving.then(() => {
    if (manager.probesUrl) addresses.probes = manager.probesUrl;
    run.onListening?.({
      probes: addresses.probes,
      metrics: addresses.metrics,
      dashboard: addresses.dashboard,
    });
    log.info({ ...addresses, startupMs: Date.now() - startedAt }, 'serving probes');
  });
  const result = await outcome;
  transport.close();
  tokenCheck.close();
  certificate?.close();
  return result;
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
