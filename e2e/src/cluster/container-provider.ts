// The `containers` provider: each cluster is a kube-apiserver container (testcontainers) over one shared etcd
// container, so a cluster can be cut off from its clients and restored with `docker network disconnect` /
// `connect`. Two docker networks: `backend` (etcd and every API server; host ports are published through it,
// so the harness keeps its access during a partition) and `front` (every API server under its cluster name,
// and the containers under test, e.g. the manager image). Ryuk cannot run here (no registry to pull it
// from), so every container and network carries the E2E label and down() removes them; so does the next run.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { adminRequest, type TlsIdentity } from './admin-client.js';
import { docker, dockerUnavailableReason, E2E_LABEL, removeByLabel } from './docker.js';
import { writeKubeconfig } from './kubeconfig.js';
import { ADMIN_USER, MANAGER_GROUP, MANAGER_USER } from './local-provider.js';
import { createCa, createClientCert, createServiceAccountKey, createServingCert } from './pki.js';
import {
  type Availability,
  type ClusterInfo,
  type ClusterProvider,
  type ClusterSet,
  defaultClusterNames,
  ProviderUnavailableError,
  type UpOptions,
} from './provider.js';
import { makeWorkDir, onSignalCleanup } from './supervisor.js';
import { waitFor } from './wait.js';

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`;

export interface ContainerCluster extends ClusterInfo {
  /** https://<name>:6443 on the front network: how containers under test reach this API server. */
  readonly internalServer: string;
  /** Kubeconfig of the manager identity for use inside a container on the front network. */
  readonly internalManagerKubeconfig: string;
  readonly containerId: string;
}

export interface ContainerClusterSet extends ClusterSet {
  readonly clusters: readonly ContainerCluster[];
  cluster(name: string): ContainerCluster;
  /** The docker network containers under test join (withNetworkMode) to reach the API servers by name. */
  readonly frontNetwork: string;
  /** Cuts a cluster's API server off the front network (the harness still reaches it). */
  partition(name: string): Promise<void>;
  /** Puts it back under its name. */
  heal(name: string): Promise<void>;
}

export interface ContainerProviderOptions {
  /** Image with /usr/local/bin/etcd and kube-apiserver; default $WARMSTART_APISERVER_IMAGE. */
  readonly image?: string | undefined;
  /** Value of the E2E label on everything this set creates (default `containers`). */
  readonly label?: string | undefined;
  readonly log?: ((line: string) => void) | undefined;
}

export class ContainerProvider implements ClusterProvider {
  readonly name = 'containers';
  readonly #options: ContainerProviderOptions;

  constructor(options: ContainerProviderOptions = {}) {
    this.#options = options;
  }

  get image(): string | undefined {
    return this.#options.image ?? process.env.WARMSTART_APISERVER_IMAGE;
  }

  async isAvailable(): Promise<Availability> {
    const reason = await dockerUnavailableReason();
    if (reason) return { available: false, reason };
    if (!this.image)
      return { available: false, reason: 'no etcd + kube-apiserver image named (WARMSTART_APISERVER_IMAGE)' };
    return { available: true };
  }

  async up(options: UpOptions): Promise<ContainerClusterSet> {
    const availability = await this.isAvailable();
    if (!availability.available) throw new ProviderUnavailableError(this.name, availability.reason);
    // Ryuk would be pulled from a registry; cleanup is ours (labels, down(), the next run's sweep).
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
    const log =
      this.#options.log ?? ((line: string) => process.stderr.write(`[container-provider] ${line}\n`));
    const image = this.image!;
    const label = `${E2E_LABEL}=${this.#options.label ?? 'containers'}`;
    const labels = { [E2E_LABEL]: this.#options.label ?? 'containers' };
    const names = options.names ?? defaultClusterNames(options.clusters);
    const stale = await removeByLabel(label);
    if (stale > 0) log(`removed ${stale} containers/networks left behind by an earlier run`);

    const workDir = await makeWorkDir();
    const started: StartedTestContainer[] = [];
    const networks: string[] = [];
    let downPromise: Promise<void> | undefined;
    const down = (): Promise<void> => {
      downPromise ??= (async () => {
        unregister();
        await Promise.allSettled(started.map((c) => c.stop({ timeout: 0 })));
        await Promise.allSettled(networks.map((n) => docker(['network', 'rm', n])));
        await removeByLabel(label).catch(() => 0);
        if (!process.env.WARMSTART_KEEP_WORKDIR) await rm(workDir, { recursive: true, force: true });
      })();
      return downPromise;
    };
    const unregisterSignals = onSignalCleanup(down);
    // A test runner that exits on SIGINT without awaiting teardown: remove synchronously on the way out.
    const onExit = (): void => {
      const ids = spawnSync('docker', ['ps', '-aq', '--filter', `label=${label}`], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
      if (ids.length > 0) spawnSync('docker', ['rm', '-f', '-v', ...ids], { timeout: 60_000 });
      for (const n of networks) spawnSync('docker', ['network', 'rm', n], { timeout: 30_000 });
    };
    process.on('exit', onExit);
    const unregister = (): void => {
      unregisterSignals();
      process.off('exit', onExit);
    };

    try {
      const suffix = randomBytes(3).toString('hex');
      const backend = `warmstart-backend-${suffix}`;
      const front = `warmstart-front-${suffix}`;
      for (const n of [backend, front]) {
        await docker(['network', 'create', '--label', label, n]);
        networks.push(n);
      }
      const etcdName = `warmstart-etcd-${suffix}`;

      const ca = await createCa(workDir);
      const serving = await createServingCert(workDir, ca, 'apiserver', names);
      const admin = await createClientCert(workDir, ca, ADMIN_USER, ['system:masters']);
      const manager = await createClientCert(workDir, ca, MANAGER_USER, [MANAGER_GROUP]);
      const sa = await createServiceAccountKey(workDir);
      await writeFile(join(workDir, 'audit-policy.yaml'), AUDIT_POLICY);

      const etcd = await new GenericContainer(image)
        .withName(etcdName)
        .withLabels(labels)
        .withNetworkMode(backend)
        .withTmpFs({ '/var/lib/etcd': 'rw' })
        .withEntrypoint(['/usr/local/bin/etcd'])
        .withCommand([
          '--name=warmstart',
          '--data-dir=/var/lib/etcd',
          '--listen-client-urls=http://0.0.0.0:2379',
          `--advertise-client-urls=http://${etcdName}:2379`,
          '--unsafe-no-fsync=true',
        ])
        .withWaitStrategy(Wait.forLogMessage(/serving client traffic|ready to serve client requests/i))
        .start();
      started.push(etcd);

      const pki = async (path: string) => ({
        content: await readFile(path, 'utf8'),
        target: '',
        mode: 0o644,
      });
      const startOne = async (name: string): Promise<ContainerCluster> => {
        const dir = join(workDir, name);
        await mkdir(join(dir, 'logs'), { recursive: true, mode: 0o777 });
        const files = await Promise.all(
          [
            [serving.cert, '/etc/kubernetes/serving.crt'],
            [serving.key, '/etc/kubernetes/serving.key'],
            [ca.cert, '/etc/kubernetes/ca.crt'],
            [sa.pub, '/etc/kubernetes/sa.pub'],
            [sa.key, '/etc/kubernetes/sa.key'],
            [join(workDir, 'audit-policy.yaml'), '/etc/kubernetes/audit-policy.yaml'],
          ].map(async ([from, target]) => ({ ...(await pki(from!)), target: target! })),
        );
        const container = await new GenericContainer(image)
          .withName(`warmstart-apiserver-${name}-${suffix}`)
          .withLabels(labels)
          .withNetworkMode(backend)
          .withExposedPorts(6443)
          // The default wait probes the port with a shell, which a FROM-scratch image lacks.
          .withWaitStrategy(Wait.forLogMessage(/Serving securely on/))
          .withCopyContentToContainer(files)
          .withBindMounts([{ source: join(dir, 'logs'), target: '/var/log/kubernetes', mode: 'rw' }])
          .withEntrypoint(['/usr/local/bin/kube-apiserver'])
          .withCommand([
            `--etcd-servers=http://${etcdName}:2379`,
            `--etcd-prefix=/warmstart-${name}/registry`,
            '--secure-port=6443',
            '--bind-address=0.0.0.0',
            '--advertise-address=127.0.0.1',
            '--tls-cert-file=/etc/kubernetes/serving.crt',
            '--tls-private-key-file=/etc/kubernetes/serving.key',
            '--client-ca-file=/etc/kubernetes/ca.crt',
            `--service-account-issuer=https://${name}:6443`,
            '--service-account-key-file=/etc/kubernetes/sa.pub',
            '--service-account-signing-key-file=/etc/kubernetes/sa.key',
            '--service-cluster-ip-range=10.0.0.0/24',
            '--authorization-mode=RBAC',
            '--allow-privileged=true',
            '--disable-admission-plugins=ServiceAccount',
            '--endpoint-reconciler-type=none',
            '--audit-policy-file=/etc/kubernetes/audit-policy.yaml',
            '--audit-log-path=/var/log/kubernetes/audit.log',
            '--audit-log-format=json',
            '--audit-log-maxsize=4096',
            '--profiling=false',
          ])
          .start();
        started.push(container);
        await docker(['network', 'connect', '--alias', name, front, container.getId()]);
        const server = `https://127.0.0.1:${container.getMappedPort(6443)}`;
        const identity: TlsIdentity = { server, caPath: ca.cert, certPath: admin.cert, keyPath: admin.key };
        await waitFor(
          `kube-apiserver ${name} /readyz`,
          async () => (await adminRequest(identity, 'GET', '/readyz')).status === 200,
          { timeoutMs: 120_000, intervalMs: 250, signal: options.signal },
        );
        if (options.managerAccess !== 'none') {
          const res = await adminRequest(
            identity,
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
            throw new Error(`binding the manager group on ${name}: ${res.status} ${res.body.slice(0, 300)}`);
        }
        const kc = (user: string, cert: { cert: string; key: string }, file: string, url: string) =>
          writeKubeconfig({
            path: join(dir, file),
            name,
            server: url,
            caPath: ca.cert,
            user,
            certPath: cert.cert,
            keyPath: cert.key,
          });
        return {
          name,
          server,
          internalServer: `https://${name}:6443`,
          adminKubeconfig: await kc(ADMIN_USER, admin, 'admin.kubeconfig', server),
          managerKubeconfig: await kc(MANAGER_USER, manager, 'manager.kubeconfig', server),
          internalManagerKubeconfig: await kc(
            MANAGER_USER,
            manager,
            'manager-internal.kubeconfig',
            `https://${name}:6443`,
          ),
          managerUser: MANAGER_USER,
          adminUser: ADMIN_USER,
          auditLogPath: join(dir, 'logs', 'audit.log'),
          caPath: ca.cert,
          containerId: container.getId(),
        };
      };
      const clusters = await Promise.all(names.map(startOne));
      const byName = (n: string): ContainerCluster => {
        const c = clusters.find((x) => x.name === n);
        if (!c) throw new Error(`no container cluster named "${n}" (have ${names.join(', ')})`);
        return c;
      };
      return {
        clusters,
        workDir,
        frontNetwork: front,
        pids: () => [],
        cluster: byName,
        partition: async (n) => {
          await docker(['network', 'disconnect', front, byName(n).containerId]);
        },
        heal: async (n) => {
          await docker(['network', 'connect', '--alias', n, front, byName(n).containerId]);
        },
        down,
      };
    } catch (error) {
      await down();
      throw error;
    }
  }
}
