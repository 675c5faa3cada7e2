// The manager's command-line flags: one table gives each flag's type, default and help, so parsing,
// validation and --help cannot disagree. Names and defaults follow karmada-controller-manager where the
// meaning is the same; where ours differ (metrics bind to localhost) the help says so.
import { parseArgs } from 'node:util';
import { isControllerEnabled, validateControllers } from './controllers-flag.js';
import { DurationSyntaxError, formatDuration, parseDuration } from './duration.js';

export const CONTROLLERS = [
  'detector',
  'scheduler',
  'binding',
  'bindingStatus',
  'execution',
  'workStatus',
  'cluster',
  'dependencies-distributor',
] as const;
export type ControllerName = (typeof CONTROLLERS)[number];
export const DISABLED_BY_DEFAULT: ReadonlySet<string> = new Set();

export const CACHE_SYNC_STRATEGIES = ['block-reads', 'gate-start', 'fallback'] as const;
export type CacheSyncStrategyName = (typeof CACHE_SYNC_STRATEGIES)[number];

export const INITIAL_SYNC_MODES = ['watch-list', 'paged-list'] as const;
export type InitialSyncMode = (typeof INITIAL_SYNC_MODES)[number];

export const ENDPOINT_AUTH_MODES = ['none', 'token'] as const;
export type EndpointAuthMode = (typeof ENDPOINT_AUTH_MODES)[number];

export interface ManagerOptions {
  readonly kubeconfig: string | undefined;
  readonly kubeApiQps: number;
  readonly kubeApiBurst: number;
  readonly clusterApiQps: number;
  readonly clusterApiBurst: number;
  readonly controllers: readonly string[];
  readonly enabledControllers: ReadonlySet<ControllerName>;
  readonly leaderElect: boolean;
  readonly leaderElectResourceNamespace: string;
  readonly leaderElectResourceName: string;
  readonly leaderElectLeaseDurationMs: number;
  readonly leaderElectRenewDeadlineMs: number;
  readonly leaderElectRetryPeriodMs: number;
  readonly healthProbeBindAddress: string;
  readonly metricsBindAddress: string;
  readonly dashboardBindAddress: string;
  readonly metricsAuth: EndpointAuthMode;
  readonly tlsCertFile: string;
  readonly tlsPrivateKeyFile: string;
  readonly dashboardAuth: EndpointAuthMode;
  readonly cacheSyncStrategy: CacheSyncStrategyName;
  readonly cacheSyncTimeoutMs: number;
  readonly clusterCacheSyncTimeoutMs: number;
  readonly resyncPeriodMs: number;
  readonly informerInitialSync: InitialSyncMode;
  readonly concurrentResourceTemplateSyncs: number;
  readonly concurrentPropagationPolicySyncs: number;
  readonly concurrentClusterPropagationPolicySyncs: number;
  readonly concurrentResourceBindingSyncs: number;
  readonly concurrentClusterResourceBindingSyncs: number;
  readonly concurrentWorkSyncs: number;
  readonly concurrentClusterSyncs: number;
  readonly skippedPropagatingApis: string;
  readonly skippedPropagatingNamespaces: readonly string[];
  readonly clusterStatusUpdateFrequencyMs: number;
  readonly clusterSuccessThresholdMs: number;
  readonly clusterFailureThresholdMs: number;
  readonly gracefulShutdownTimeoutMs: number;
  readonly logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  readonly logFormat: 'json' | 'text';
  readonly identity: string | undefined;
}

export class FlagError extends Error {
  constructor(message: string) {
    super(`${message}\nRun with --help to see every flag.`);
    this.name = 'FlagError';
  }
}

type Kind = 'string' | 'int' | 'float' | 'bool' | 'duration' | 'list';

interface FlagSpec {
  readonly name: string;
  readonly key: keyof ManagerOptions;
  readonly kind: Kind;
  readonly default: string;
  readonly help: string;
  readonly choices?: readonly string[];
  readonly min?: number;
}

export const FLAGS: readonly FlagSpec[] = [
  {
    name: 'kubeconfig',
    key: 'kubeconfig',
    kind: 'string',
    default: '',
    help: 'Path to the control plane kubeconfig; empty means $KUBECONFIG, then in-cluster config.',
  },
  {
    name: 'kube-api-qps',
    key: 'kubeApiQps',
    kind: 'float',
    default: '40',
    min: 0,
    help: 'Client-side QPS limit for non-watch requests to the control plane.',
  },
  {
    name: 'kube-api-burst',
    key: 'kubeApiBurst',
    kind: 'int',
    default: '60',
    min: 1,
    help: 'Burst allowed above --kube-api-qps.',
  },
  {
    name: 'cluster-api-qps',
    key: 'clusterApiQps',
    kind: 'float',
    default: '40',
    min: 0,
    help: 'Client-side QPS limit for each member cluster.',
  },
  {
    name: 'cluster-api-burst',
    key: 'clusterApiBurst',
    kind: 'int',
    default: '60',
    min: 1,
    help: 'Burst allowed above --cluster-api-qps.',
  },
  {
    name: 'controllers',
    key: 'controllers',
    kind: 'list',
    default: '*',
    help: `Controllers to run: '*' enables all, 'foo' enables foo, '-foo' disables foo; the first match wins. All: ${CONTROLLERS.join(', ')}.`,
  },
  {
    name: 'leader-elect',
    key: 'leaderElect',
    kind: 'bool',
    default: 'true',
    help: 'Elect a leader through a coordination.k8s.io Lease before running controllers. Caches fill on standby replicas too.',
  },
  {
    name: 'leader-elect-resource-namespace',
    key: 'leaderElectResourceNamespace',
    kind: 'string',
    default: 'karmada-system',
    help: 'Namespace of the leader election Lease.',
  },
  {
    name: 'leader-elect-resource-name',
    key: 'leaderElectResourceName',
    kind: 'string',
    default: 'karmada-controller-manager',
    help: "Name of the Lease; the default is Karmada's, so this manager and Karmada's can never lead at the same time.",
  },
  {
    name: 'leader-elect-lease-duration',
    key: 'leaderElectLeaseDurationMs',
    kind: 'duration',
    default: '15s',
    help: 'How long standbys wait after the last renewal before taking over.',
  },
  {
    name: 'leader-elect-renew-deadline',
    key: 'leaderElectRenewDeadlineMs',
    kind: 'duration',
    default: '10s',
    help: 'How long the leader keeps trying to renew before it stops leading. Must be less than the lease duration.',
  },
  {
    name: 'leader-elect-retry-period',
    key: 'leaderElectRetryPeriodMs',
    kind: 'duration',
    default: '2s',
    help: 'Interval between acquire and renew attempts.',
  },
  {
    name: 'health-probe-bind-address',
    key: 'healthProbeBindAddress',
    kind: 'string',
    default: ':10357',
    help: "Address for /livez and /readyz (also /healthz). '0' disables.",
  },
  {
    name: 'metrics-bind-address',
    key: 'metricsBindAddress',
    kind: 'string',
    default: '127.0.0.1:8080',
    help: "Address for /metrics. Binds to localhost by default (Karmada: ':8080'); '0' disables.",
  },
  {
    name: 'dashboard-bind-address',
    key: 'dashboardBindAddress',
    kind: 'string',
    default: '127.0.0.1:8090',
    help: "Address of the read-only status page. Binds to localhost by default; '0' disables.",
  },
  {
    name: 'metrics-auth',
    key: 'metricsAuth',
    kind: 'string',
    default: 'none',
    choices: ENDPOINT_AUTH_MODES,
    help: 'token: /metrics answers only a bearer token that the API server accepts (TokenReview) and whose user may get the nonResourceURL /metrics (SubjectAccessReview). Needs create on tokenreviews and subjectaccessreviews (deploy/optional/endpoint-auth.yaml).',
  },
  {
    name: 'dashboard-auth',
    key: 'dashboardAuth',
    kind: 'string',
    default: 'none',
    choices: ENDPOINT_AUTH_MODES,
    help: 'token: the dashboard answers only a bearer token whose user may get the path asked for (/, /status.json, /events), checked as for --metrics-auth.',
  },
  {
    name: 'tls-cert-file',
    key: 'tlsCertFile',
    kind: 'string',
    default: '',
    help: 'PEM certificate (chain) to serve /metrics and the dashboard over HTTPS; renewals on disk are picked up without a restart. With --tls-private-key-file. Probes stay plain HTTP.',
  },
  {
    name: 'tls-private-key-file',
    key: 'tlsPrivateKeyFile',
    kind: 'string',
    default: '',
    help: 'PEM private key of --tls-cert-file.',
  },
  {
    name: 'cache-sync-strategy',
    key: 'cacheSyncStrategy',
    kind: 'string',
    default: 'block-reads',
    choices: CACHE_SYNC_STRATEGIES,
    help: 'block-reads: controllers start at once, a read waits for the one cache it needs. gate-start: controllers start after every cache synced. fallback: reads of unsynced caches go to the API server (legacy, for comparison only).',
  },
  {
    name: 'cache-sync-timeout',
    key: 'cacheSyncTimeoutMs',
    kind: 'duration',
    default: '2m',
    help: "How long a read waiting for its cache to sync tolerates the cache's list making no progress before it fails (and is retried with backoff); a large list that keeps moving is waited for.",
  },
  {
    name: 'cluster-cache-sync-timeout',
    key: 'clusterCacheSyncTimeoutMs',
    kind: 'duration',
    default: '2m',
    help: 'The same stall deadline for member-cluster caches.',
  },
  {
    name: 'resync-period',
    key: 'resyncPeriodMs',
    kind: 'duration',
    default: '0',
    help: 'Replay every cached object to handlers this often (no API calls); 0 disables.',
  },
  {
    name: 'informer-initial-sync',
    key: 'informerInitialSync',
    kind: 'string',
    default: 'watch-list',
    choices: INITIAL_SYNC_MODES,
    help: 'How each informer fills its cache. watch-list: one streaming watch with initial events (falls back to paged-list where the API server does not serve it). paged-list: LIST at resourceVersion=0, then WATCH; a watch cache answers it in one response whatever the page size, which can take gigabytes of API server memory at scale.',
  },
  {
    name: 'concurrent-resource-template-syncs',
    key: 'concurrentResourceTemplateSyncs',
    kind: 'int',
    default: '5',
    min: 1,
    help: 'Detector workers for resource templates.',
  },
  {
    name: 'concurrent-propagation-policy-syncs',
    key: 'concurrentPropagationPolicySyncs',
    kind: 'int',
    default: '1',
    min: 1,
    help: 'Detector workers for PropagationPolicies.',
  },
  {
    name: 'concurrent-cluster-propagation-policy-syncs',
    key: 'concurrentClusterPropagationPolicySyncs',
    kind: 'int',
    default: '1',
    min: 1,
    help: 'Detector workers for ClusterPropagationPolicies.',
  },
  {
    name: 'concurrent-resourcebinding-syncs',
    key: 'concurrentResourceBindingSyncs',
    kind: 'int',
    default: '5',
    min: 1,
    help: 'Workers for ResourceBindings.',
  },
  {
    name: 'concurrent-clusterresourcebinding-syncs',
    key: 'concurrentClusterResourceBindingSyncs',
    kind: 'int',
    default: '5',
    min: 1,
    help: 'Workers for ClusterResourceBindings.',
  },
  {
    name: 'concurrent-work-syncs',
    key: 'concurrentWorkSyncs',
    kind: 'int',
    default: '5',
    min: 1,
    help: 'Workers for Works (the execution controller).',
  },
  {
    name: 'concurrent-cluster-syncs',
    key: 'concurrentClusterSyncs',
    kind: 'int',
    default: '5',
    min: 1,
    help: 'Workers for Clusters.',
  },
  {
    name: 'skipped-propagating-apis',
    key: 'skippedPropagatingApis',
    kind: 'string',
    default: '',
    help: "Resources never propagated, Karmada syntax: '<group>' | '<group>/<version>' | '<group>/<version>/<kind>,<kind>', ';'-separated; core is empty group, e.g. 'v1/Node,Pod;networking.k8s.io'.",
  },
  {
    name: 'skipped-propagating-namespaces',
    key: 'skippedPropagatingNamespaces',
    kind: 'list',
    default: 'kube-.*',
    help: 'Regular expressions of namespaces never propagated (comma list).',
  },
  {
    name: 'cluster-status-update-frequency',
    key: 'clusterStatusUpdateFrequencyMs',
    kind: 'duration',
    default: '10s',
    help: 'How often the cluster controller checks member health.',
  },
  {
    name: 'cluster-success-threshold',
    key: 'clusterSuccessThresholdMs',
    kind: 'duration',
    default: '30s',
    help: 'How long a not-Ready member must answer its health check before its Cluster is Ready again.',
  },
  {
    name: 'cluster-failure-threshold',
    key: 'clusterFailureThresholdMs',
    kind: 'duration',
    default: '30s',
    help: 'How long a Ready member must fail its health check before its Cluster is marked not Ready.',
  },
  {
    name: 'graceful-shutdown-timeout',
    key: 'gracefulShutdownTimeoutMs',
    kind: 'duration',
    default: '30s',
    help: 'Longest a SIGTERM shutdown waits for controllers, leader election and caches to stop.',
  },
  {
    name: 'log-level',
    key: 'logLevel',
    kind: 'string',
    default: 'info',
    choices: ['trace', 'debug', 'info', 'warn', 'error'],
    help: 'Log level.',
  },
  {
    name: 'log-format',
    key: 'logFormat',
    kind: 'string',
    default: 'json',
    choices: ['json', 'text'],
    help: 'json: one JSON object per line (pino); text: human-readable.',
  },
  {
    name: 'identity',
    key: 'identity',
    kind: 'string',
    default: '',
    help: 'Leader election identity; defaults to <hostname>_<random>.',
  },
];

function convert(spec: FlagSpec, raw: string): unknown {
  const bad = (what: string) => new FlagError(`--${spec.name}=${raw}: ${what}`);
  switch (spec.kind) {
    case 'string':
      if (spec.choices && !spec.choices.includes(raw)) throw bad(`must be one of ${spec.choices.join(', ')}`);
      return raw === '' && spec.key === 'kubeconfig'
        ? undefined
        : raw === '' && spec.key === 'identity'
          ? undefined
          : raw;
    case 'int':
    case 'float': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n) || (spec.kind === 'int' && !Number.isInteger(n))) {
        throw bad(spec.kind === 'int' ? 'must be a whole number' : 'must be a number');
      }
      if (spec.min !== undefined && n < spec.min) throw bad(`must be at least ${spec.min}`);
      return n;
    }
    case 'bool':
      if (raw === 'true' || raw === '') return true;
      if (raw === 'false') return false;
      throw bad('must be true or false');
    case 'duration':
      try {
        return parseDuration(raw);
      } catch (error) {
        if (error instanceof DurationSyntaxError) throw bad(error.message);
        throw error;
      }
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
  }
}

/** Parses argv (without node and script) into validated options. Throws FlagError with a message that says what to fix. */
export function parseOptions(argv: readonly string[]): ManagerOptions | 'help' {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(FLAGS.map((f) => [f.name, { type: 'string' as const }])),
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    // --leader-elect without a value is a common spelling of true.
    const argvFixed = argv.map((a) =>
      FLAGS.some((f) => f.kind === 'bool' && a === `--${f.name}`) ? `${a}=true` : a,
    );
    if (argvFixed.some((a, i) => a !== argv[i])) return parseOptions(argvFixed);
    throw new FlagError((error as Error).message);
  }
  if (parsed.values.help) return 'help';
  const out: Record<string, unknown> = {};
  for (const spec of FLAGS) {
    const raw = parsed.values[spec.name];
    out[spec.key] = convert(spec, typeof raw === 'string' ? raw : spec.default);
  }
  const o = out as Omit<ManagerOptions, 'enabledControllers'>;
  try {
    validateControllers(o.controllers, CONTROLLERS);
  } catch (error) {
    throw new FlagError((error as Error).message);
  }
  if (o.leaderElect) {
    if (o.leaderElectRenewDeadlineMs >= o.leaderElectLeaseDurationMs) {
      throw new FlagError('--leader-elect-renew-deadline must be less than --leader-elect-lease-duration');
    }
    if (o.leaderElectRetryPeriodMs >= o.leaderElectRenewDeadlineMs) {
      throw new FlagError('--leader-elect-retry-period must be less than --leader-elect-renew-deadline');
    }
  }
  for (const pattern of o.skippedPropagatingNamespaces) {
    try {
      new RegExp(`^(?:${pattern})$`);
    } catch {
      throw new FlagError(`--skipped-propagating-namespaces: "${pattern}" is not a valid regular expression`);
    }
  }
  if ((o.tlsCertFile === '') !== (o.tlsPrivateKeyFile === '')) {
    throw new FlagError('--tls-cert-file and --tls-private-key-file go together: give both or neither');
  }
  for (const key of ['healthProbeBindAddress', 'metricsBindAddress', 'dashboardBindAddress'] as const) {
    if (o[key] !== '0') parseBindAddress(o[key]);
  }
  const enabledControllers = new Set(
    CONTROLLERS.filter((c) => isControllerEnabled(c, o.controllers, DISABLED_BY_DEFAULT)),
  );
  return { ...o, enabledControllers };
}

/** Splits `host:port` (`:port` means every interface). Throws FlagError on a malformed address. */
export function parseBindAddress(address: string): { host: string; port: number } {
  const i = address.lastIndexOf(':');
  const port = Number(address.slice(i + 1));
  if (i < 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new FlagError(
      `"${address}" is not a bind address: use host:port, :port for every interface, or 0 to disable`,
    );
  }
  const host = address.slice(0, i).replace(/^\[(.*)\]$/, '$1');
  return { host: host === '' ? '0.0.0.0' : host, port };
}

/** The --help text, generated from the flag table. */
export function helpText(): string {
  const lines = [
    'Usage: warmstart-controller-manager [flags]',
    '',
    'A Karmada-compatible controller manager whose controllers read only from informer caches.',
    'Probes and leader election start at once; /readyz turns ready when every cache has synced.',
    '',
    'Flags:',
  ];
  for (const f of FLAGS) {
    const def = f.kind === 'duration' ? formatDuration(parseDuration(f.default)) : f.default;
    lines.push(`  --${f.name}${f.kind === 'bool' ? '' : ` <${f.kind === 'list' ? 'a,b' : f.kind}>`}`);
    lines.push(`      ${f.help}${def === '' ? '' : ` (default ${JSON.stringify(def)})`}`);
  }
  lines.push('  -h, --help', '      Show this help.');
  return lines.join('\n');
}
