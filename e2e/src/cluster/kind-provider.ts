// The `kind` provider: the ClusterProvider contract through the kind CLI and a node image built locally
// (e2e/scripts/build-node-image.sh: no registry is reachable). Each cluster is one node with a Metadata-level
// JSON audit log on the host, a manager identity of its own (a client certificate signed by the cluster's CA)
// and an address its peers' pods can reach (the node's address on kind's docker network).
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { adminRequest, type TlsIdentity } from './admin-client.js';
import { docker, dockerUnavailableReason, E2E_LABEL } from './docker.js';
import { writeKubeconfig } from './kubeconfig.js';
import { MANAGER_GROUP, MANAGER_USER } from './local-provider.js';
import { createClientCert } from './pki.js';
import {
  type Availability,
  type ClusterInfo,
  type ClusterProvider,
  type ClusterSet,
  defaultClusterNames,
  ProviderUnavailableError,
  type UpOptions,
} from './provider.js';
import { alive, makeWorkDir, onSignalCleanup } from './supervisor.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

/** Where the audit policy and log live inside the kind node container. */
const NODE_AUDIT_DIR = '/etc/kubernetes/audit';
const NODE_AUDIT_LOG_DIR = '/var/log/kubernetes';
/** Every kind cluster this provider creates is named with this prefix (the reaper relies on it). */
export const KIND_CLUSTER_PREFIX = 'warmstart-';
/**
 * The docker network the clusters' nodes join, instead of kind's default `kind`: kind creates its network on the
 * first cluster and never removes it, and a user's own `kind` network is not ours to remove. This one carries the
 * e2e label, so it goes with the clusters and any sweep by label (scripts/test-containers.sh) removes it too.
 */
export const KIND_NETWORK = 'warmstart-kind';

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`;

/**
 * The kind cluster config: a Metadata-level JSON audit log mounted on the host; cgroup v1 allowed (these
 * machines have it); no default CNI (the node image carries a bridge CNI config, so one node per cluster);
 * kube-proxy in iptables mode (the node image selects legacy iptables).
 */
export function kindClusterConfig(
  hostDir: string,
  controllerManagerArgs: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  return {
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    networking: { disableDefaultCNI: true, kubeProxyMode: 'iptables' },
    nodes: [
      {
        role: 'control-plane',
        kubeadmConfigPatches: [
          stringify({
            kind: 'ClusterConfiguration',
            apiServer: {
              extraArgs: {
                'audit-policy-file': `${NODE_AUDIT_DIR}/policy.yaml`,
                'audit-log-path': `${NODE_AUDIT_LOG_DIR}/audit.log`,
                'audit-log-format': 'json',
                'audit-log-maxsize': '4096',
              },
              extraVolumes: [
                {
                  name: 'audit-policy',
                  hostPath: `${NODE_AUDIT_DIR}/policy.yaml`,
                  mountPath: `${NODE_AUDIT_DIR}/policy.yaml`,
                  readOnly: true,
                  pathType: 'File',
                },
                {
                  name: 'audit-logs',
                  hostPath: NODE_AUDIT_LOG_DIR,
                  mountPath: NODE_AUDIT_LOG_DIR,
                  readOnly: false,
                  pathType: 'DirectoryOrCreate',
                },
              ],
            },
            ...(Object.keys(controllerManagerArgs).length > 0
              ? { controllerManager: { extraArgs: { ...controllerManagerArgs } } }
              : {}),
          }),
          stringify({ kind: 'KubeletConfiguration', failCgroupV1: false }),
        ],
        extraMounts: [
          {
            hostPath: join(hostDir, 'policy.yaml'),
            containerPath: `${NODE_AUDIT_DIR}/policy.yaml`,
            readOnly: true,
          },
          { hostPath: join(hostDir, 'logs'), containerPath: NODE_AUDIT_LOG_DIR },
        ],
      },
    ],
  };
}

export interface KindProviderOptions {
  /** Node image; default $WARMSTART_KIND_NODE_IMAGE (set by scripts/kind-setup.sh). */
  readonly nodeImage?: string | undefined;
  /** kind binary; default $WARMSTART_KIND_BIN, then `kind` on PATH. */
  readonly kindBin?: string | undefined;
  /** Create the clusters concurrently (default false: on 2 busy cores, one at a time is as fast and safer). */
  readonly parallel?: boolean | undefined;
  readonly log?: ((line: string) => void) | undefined;
  /**
   * kube-controller-manager flags per cluster name, e.g. members that only store what the manager propagates
   * need no deployment or replicaset controller (Karmada's members would run them; here they would create
   * thousands of pods that nothing runs).
   */
  readonly controllerManagerArgs?: ((clusterName: string) => Readonly<Record<string, string>>) | undefined;
}

export interface KindCluster extends ClusterInfo {
  readonly kindName: string;
  /** The node's docker container (one node per cluster). */
  readonly nodeContainer: string;
  /** https://<node address on the kind network>:6443, reachable from every kind node and its pods. */
  readonly internalServer: string;
  /** How long `kind create cluster` took, until the node was Ready. */
  readonly createMs: number;
}

export interface KindClusterSet extends ClusterSet {
  readonly clusters: readonly KindCluster[];
  cluster(name: string): KindCluster;
  readonly kindBin: string;
  readonly nodeImage: string;
}

interface KubeconfigDoc {
  clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
}

export class KindProvider implements ClusterProvider {
  readonly name = 'kind';
  readonly #options: KindProviderOptions;

  constructor(options: KindProviderOptions = {}) {
    this.#options = options;
  }

  get kindBin(): string {
    return this.#options.kindBin ?? process.env.WARMSTART_KIND_BIN ?? 'kind';
  }

  get nodeImage(): string | undefined {
    return this.#options.nodeImage ?? process.env.WARMSTART_KIND_NODE_IMAGE;
  }

  async isAvailable(): Promise<Availability> {
    try {
      await run(this.kindBin, ['version']);
    } catch {
      return {
        available: false,
        reason: `the kind CLI (${this.kindBin}) does not run: build it with e2e/scripts/build-node-binaries.sh`,
      };
    }
    const dockerReason = await dockerUnavailableReason();
    if (dockerReason)
      return { available: false, reason: `${dockerReason} (kind runs its nodes as containers)` };
    const image = this.nodeImage;
    if (!image) {
      return {
        available: false,
        reason:
          'no node image named: set WARMSTART_KIND_NODE_IMAGE (e2e/scripts/build-node-image.sh prints it)',
      };
    }
    try {
      await docker(['image', 'inspect', image]);
    } catch {
      return {
        available: false,
        reason: `the node image ${image} is not in the engine (build-node-image.sh)`,
      };
    }
    return { available: true };
  }

  async up(options: UpOptions): Promise<KindClusterSet> {
    const availability = await this.isAvailable();
    if (!availability.available) throw new ProviderUnavailableError(this.name, availability.reason);
    const log = this.#options.log ?? ((line: string) => process.stderr.write(`[kind-provider] ${line}\n`));
    const names = options.names ?? defaultClusterNames(options.clusters);
    if (names.length !== options.clusters) {
      throw new Error(`up: ${options.clusters} clusters requested but ${names.length} names given`);
    }
    const kindBin = this.kindBin;
    const nodeImage = this.nodeImage!;
    const reaped = await reapStaleKindClusters(kindBin, names);
    if (reaped.length > 0) log(`deleted kind clusters left behind by an earlier run: ${reaped.join(', ')}`);
    await ensureKindNetwork();
    const workDir = await makeWorkDir();
    const created = new Set<string>();
    const clusters: KindCluster[] = [];
    let downPromise: Promise<void> | undefined;
    const down = (): Promise<void> => {
      downPromise ??= (async () => {
        unregister();
        await Promise.allSettled(
          [...created].map((n) => run(kindBin, ['delete', 'cluster', '--name', n], { timeout: 120_000 })),
        );
        await docker(['network', 'rm', KIND_NETWORK]).catch(() => undefined);
        if (!process.env.WARMSTART_KEEP_WORKDIR) await rm(workDir, { recursive: true, force: true });
      })();
      return downPromise;
    };
    const unregisterSignals = onSignalCleanup(down);
    // A test runner that exits on SIGINT without awaiting teardown: delete synchronously on the way out.
    const onExit = (): void => {
      for (const n of created) spawnSync(kindBin, ['delete', 'cluster', '--name', n], { timeout: 60_000 });
      spawnSync('docker', ['network', 'rm', KIND_NETWORK], { timeout: 30_000 });
    };
    process.on('exit', onExit);
    const unregister = (): void => {
      unregisterSignals();
      process.off('exit', onExit);
    };

    const createOne = async (name: string): Promise<KindCluster> => {
      const kindName = `${KIND_CLUSTER_PREFIX}${name}`;
      const dir = join(workDir, name);
      await mkdir(join(dir, 'logs'), { recursive: true });
      await writeFile(join(dir, 'policy.yaml'), AUDIT_POLICY);
      await writeFile(
        join(dir, 'kind.yaml'),
        stringify(kindClusterConfig(dir, this.#options.controllerManagerArgs?.(name))),
      );
      const adminKubeconfig = join(dir, 'admin.kubeconfig');
      const t0 = Date.now();
      created.add(kindName);
      const args = [
        'create',
        'cluster',
        '--name',
        kindName,
        '--image',
        nodeImage,
        '--config',
        join(dir, 'kind.yaml'),
        '--kubeconfig',
        adminKubeconfig,
        '--wait',
        '180s',
      ];
      // kubeadm gives each API call 10 s; on a machine whose cores are saturated by others the bootstrap can
      // miss that once. A second attempt starts from a deleted cluster.
      for (let attempt = 1; ; attempt++) {
        try {
          await run(kindBin, args, {
            signal: options.signal,
            timeout: 300_000,
            env: {
              ...process.env,
              KIND_EXPERIMENTAL_PROVIDER: 'docker',
              KIND_EXPERIMENTAL_DOCKER_NETWORK: KIND_NETWORK,
            },
          });
          break;
        } catch (error) {
          const e = error as { stderr?: string; message: string };
          const why = (e.stderr ?? e.message).trim();
          if (attempt < 2 && !options.signal?.aborted) {
            log(
              `kind create cluster ${kindName} failed (attempt ${attempt}), retrying: ${why.split('\n').slice(-3).join(' ')}`,
            );
            await run(kindBin, ['delete', 'cluster', '--name', kindName], { timeout: 120_000 }).catch(
              () => undefined,
            );
            continue;
          }
          throw new Error(`kind create cluster ${kindName}: ${why.slice(-2000)}`, { cause: error });
        }
      }
      const createMs = Date.now() - t0;
      const nodeContainer = `${kindName}-control-plane`;
      const info = await clusterIdentities(dir, name, adminKubeconfig, nodeContainer);
      const ip = (
        await docker([
          'inspect',
          '-f',
          `{{(index .NetworkSettings.Networks "${KIND_NETWORK}").IPAddress}}`,
          nodeContainer,
        ])
      ).stdout.trim();
      if (options.managerAccess !== 'none') {
        const res = await adminRequest(
          info.admin,
          'POST',
          '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRoleBinding',
            metadata: { name: 'warmstart-manager-cluster-admin' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
            subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: MANAGER_GROUP }],
          },
        );
        if (res.status !== 201 && res.status !== 409)
          throw new Error(
            `binding the manager group on ${kindName}: ${res.status} ${res.body.slice(0, 300)}`,
          );
      }
      // ServiceAccounts appear once kube-controller-manager runs; tests that deploy need `default`.
      await waitFor(
        `the default ServiceAccount in ${kindName}`,
        async () =>
          (await adminRequest(info.admin, 'GET', '/api/v1/namespaces/default/serviceaccounts/default'))
            .status === 200,
        { timeoutMs: 120_000, intervalMs: 500 },
      );
      log(`${kindName} ready in ${createMs} ms (node ${ip})`);
      return {
        name,
        kindName,
        nodeContainer,
        server: info.server,
        internalServer: `https://${ip}:6443`,
        adminKubeconfig,
        managerKubeconfig: info.managerKubeconfig,
        managerUser: MANAGER_USER,
        adminUser: 'kubernetes-admin',
        auditLogPath: join(dir, 'logs', 'audit.log'),
        caPath: info.caPath,
        createMs,
      };
    };

    try {
      if (this.#options.parallel ?? false) {
        const results = await Promise.allSettled(names.map(createOne));
        const failed = results.find((r) => r.status === 'rejected');
        if (failed) throw failed.reason;
        for (const r of results) if (r.status === 'fulfilled') clusters.push(r.value);
      } else {
        for (const n of names) clusters.push(await createOne(n));
      }
    } catch (error) {
      await down();
      throw error;
    }
    return {
      clusters,
      workDir,
      kindBin,
      nodeImage,
      pids: () => [],
      cluster: (n) => {
        const c = clusters.find((x) => x.name === n);
        if (!c) throw new Error(`no kind cluster named "${n}" in this set (have ${names.join(', ')})`);
        return c;
      },
      down,
    };
  }
}

/**
 * Reads what the harness needs from kind's admin kubeconfig (server, CA, admin certificate) and issues the
 * manager's own client certificate with the cluster CA, which only the node holds.
 */
async function clusterIdentities(
  dir: string,
  name: string,
  adminKubeconfig: string,
  nodeContainer: string,
): Promise<{ server: string; caPath: string; managerKubeconfig: string; admin: TlsIdentity }> {
  const kc = parse(readFileSync(adminKubeconfig, 'utf8')) as KubeconfigDoc;
  const server = kc.clusters[0]!.cluster.server;
  const caPath = join(dir, 'ca.crt');
  await writeFile(caPath, Buffer.from(kc.clusters[0]!.cluster['certificate-authority-data'], 'base64'));
  const user = kc.users[0]!.user;
  const admin: TlsIdentity = {
    server,
    caPath,
    certPath: '',
    keyPath: '',
    certPem: Buffer.from(user['client-certificate-data'], 'base64').toString(),
    keyPem: Buffer.from(user['client-key-data'], 'base64').toString(),
  };
  const caKey = join(dir, 'ca.key');
  const key = (await docker(['exec', nodeContainer, 'cat', '/etc/kubernetes/pki/ca.key'])).stdout;
  await writeFile(caKey, key, { mode: 0o600 });
  const manager = await createClientCert(dir, { cert: caPath, key: caKey }, MANAGER_USER, [MANAGER_GROUP]);
  const managerKubeconfig = await writeKubeconfig({
    path: join(dir, 'manager.kubeconfig'),
    name,
    server,
    caPath,
    user: MANAGER_USER,
    certPath: manager.cert,
    keyPath: manager.key,
  });
  return { server, caPath, managerKubeconfig, admin };
}

/**
 * Deletes kind clusters of this harness whose owner process is gone (found through the work directory the
 * node mounts), and any that carry one of `names` (they would collide). Returns the deleted names.
 */
export async function reapStaleKindClusters(
  kindBin: string,
  names: readonly string[] = [],
): Promise<string[]> {
  const { stdout } = await run(kindBin, ['get', 'clusters']);
  const ours = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith(KIND_CLUSTER_PREFIX));
  const deleted: string[] = [];
  for (const kindName of ours) {
    let stale = names.includes(kindName.slice(KIND_CLUSTER_PREFIX.length));
    if (!stale) {
      const mounts = await docker([
        'inspect',
        '-f',
        '{{range .Mounts}}{{.Source}}\n{{end}}',
        `${kindName}-control-plane`,
      ])
        .then((r) => r.stdout.split('\n').filter(Boolean))
        .catch(() => [] as string[]);
      const logs = mounts.find((m) => m.endsWith('/logs'));
      const ownerFile = logs ? join(dirname(dirname(logs)), 'owner.pid') : undefined;
      const owner =
        ownerFile && existsSync(ownerFile) ? Number.parseInt(readFileSync(ownerFile, 'utf8'), 10) : 0;
      stale = owner === 0 || (owner !== process.pid && !alive(owner));
    }
    if (stale) {
      await run(kindBin, ['delete', 'cluster', '--name', kindName], { timeout: 120_000 });
      deleted.push(kindName);
    }
  }
  return deleted;
}

/**
 * Creates the labelled network the nodes join, unless it exists (a set brought up beside another, or left by a
 * run that could not clean up: its clusters are reaped first, so it is idle). kind uses a network it finds as is.
 */
async function ensureKindNetwork(): Promise<void> {
  const found = await docker(['network', 'ls', '-q', '--filter', `name=^${KIND_NETWORK}$`]);
  if (found.stdout.trim() !== '') return;
  await docker([
    'network',
    'create',
    '--driver',
    'bridge',
    '--label',
    E2E_LABEL,
    '--opt',
    'com.docker.network.bridge.enable_ip_masquerade=true',
    KIND_NETWORK,
  ]).catch(async (error: unknown) => {
    // Two sets created at once: the other one won the race, which is as good.
    const again = await docker(['network', 'ls', '-q', '--filter', `name=^${KIND_NETWORK}$`]);
    if (again.stdout.trim() === '') throw error;
  });
}
