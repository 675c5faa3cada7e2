// The contract every cluster provider meets, so tests and benchmarks do not care where a cluster runs.

/** One Kubernetes API server the harness started (or attached to). */
export interface ClusterInfo {
  /** Stable name, e.g. `host`, `member1`. */
  readonly name: string;
  /** https://127.0.0.1:<port> */
  readonly server: string;
  /**
   * The address pods of the set's other clusters reach this API server by, when it differs from `server`
   * (kind: the node's address on the docker network). Member joins use it for the Cluster's apiEndpoint.
   */
  readonly internalServer?: string | undefined;
  /** Kubeconfig for the harness itself: an administrator (system:masters). */
  readonly adminKubeconfig: string;
  /** Kubeconfig for the manager under test: its own user, so the audit log can tell its requests apart. */
  readonly managerKubeconfig: string;
  /** The username the API server sees for managerKubeconfig. */
  readonly managerUser: string;
  /** The username the API server sees for adminKubeconfig. */
  readonly adminUser: string;
  /** JSON-lines audit log (level Metadata for every request), when the provider has one. */
  readonly auditLogPath: string | undefined;
  /** PEM of the CA that signed the serving certificate. */
  readonly caPath: string;
}

export interface UpOptions {
  /** How many API servers to start; the first is named `host`, the others `member1..n-1`. */
  readonly clusters: number;
  /** Names to use instead of the defaults (length must equal `clusters`). */
  readonly names?: readonly string[] | undefined;
  /**
   * What the manager user may do: `cluster-admin` binds it to cluster-admin (the default, for most tests);
   * `none` grants nothing, for tests that apply least-privilege RBAC themselves.
   */
  readonly managerAccess?: 'cluster-admin' | 'none' | undefined;
  /** Start a kube-controller-manager per cluster (garbage collection, namespace deletion). Default true. */
  readonly controllerManager?: boolean | undefined;
  /**
   * The kube-controller-manager controllers of one cluster (`--controllers`), by its name; the local provider only
   * (kind runs a full control plane). Default
   * `garbagecollector,namespace` everywhere: no deployment controller, so a Deployment's status stays empty; a
   * test that needs members' Deployments to report replicas adds `deployment,replicaset,serviceaccount` there.
   */
  readonly kubeControllers?: ((cluster: string) => readonly string[]) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** A running set of clusters. `down()` is idempotent and also runs on SIGINT/SIGTERM/exit. */
export interface ClusterSet {
  readonly clusters: readonly ClusterInfo[];
  /** Directory holding PKI, kubeconfigs, logs and data of this set. */
  readonly workDir: string;
  /** Process ids of every process the provider started (etcd, kube-apiserver, kube-controller-manager). */
  pids(): readonly number[];
  /** Looks a cluster up by name, throwing a clear error when it does not exist. */
  cluster(name: string): ClusterInfo;
  down(): Promise<void>;
}

export type Availability =
  | { readonly available: true }
  | { readonly available: false; readonly reason: string };

export interface ClusterProvider {
  readonly name: string;
  /** Says whether this provider can run on this machine, and if not, why. */
  isAvailable(): Promise<Availability>;
  up(options: UpOptions): Promise<ClusterSet>;
}

export class ProviderUnavailableError extends Error {
  constructor(provider: string, reason: string) {
    super(`cluster provider "${provider}" cannot run here: ${reason}`);
    this.name = 'ProviderUnavailableError';
  }
}

export function defaultClusterNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => (i === 0 ? 'host' : `member${i}`));
}
