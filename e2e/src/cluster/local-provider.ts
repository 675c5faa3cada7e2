// The `local` provider: real etcd, kube-apiserver and kube-controller-manager processes on 127.0.0.1, built
// from the Go module proxy (no Docker). One etcd serves every API server of a set, each under its own
// --etcd-prefix, as Kubernetes' own integration tests do.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { adminRequest, type TlsIdentity } from './admin-client.js';
import { type Binaries, type EnsureBinariesOptions, ensureBinaries } from './binaries.js';
import type { CpuRequestGroups, CpuRole } from './cpu-requests.js';
import { writeKubeconfig } from './kubeconfig.js';
import { createCa, createClientCert, createServiceAccountKey, createServingCert } from './pki.js';
import {
  type Availability,
  type ClusterInfo,
  type ClusterProvider,
  type ClusterSet,
  defaultClusterNames,
  type UpOptions,
} from './provider.js';
import {
  type ManagedProcess,
  makeWorkDir,
  onSignalCleanup,
  reapStale,
  type SpawnOptions,
  spawnManaged,
} from './supervisor.js';
import { waitFor } from './wait.js';

export const ADMIN_USER = 'warmstart-admin';
export const MANAGER_USER = 'warmstart-manager';
export const MANAGER_GROUP = 'warmstart:managers';

const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
`;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface LocalProviderOptions extends EnsureBinariesOptions {
  /** Milliseconds to wait for one kube-apiserver to be ready. */
  readonly startTimeoutMs?: number | undefined;
  readonly log?: ((line: string) => void) | undefined;
  /** Flags appended to every kube-apiserver's (a later flag wins), e.g. `--profiling=true` to take a heap profile. */
  readonly apiserverArgs?: readonly string[] | undefined;
  /** Environment for every kube-apiserver, e.g. `GOMEMLIMIT` so a big load does not outgrow the machine. */
  readonly apiserverEnv?: Readonly<Record<string, string>> | undefined;
  /** Start etcd, the API servers and the controller managers in these groups (the bench's --cpu-request). */
  readonly cpuGroups?: CpuRequestGroups | undefined;
}

/** A running kube-apiserver of a local set, with what a fault test needs to restart or pause it. */
export interface LocalCluster extends ClusterInfo {
  readonly apiserver: () => ManagedProcess;
  /** Its kube-controller-manager (garbage collector and namespace controllers), unless the set was made without. */
  readonly controllerManager: () => ManagedProcess | undefined;
  /** Stops and starts this cluster's kube-apiserver with the same flags (watch-continuity tests). */
  restartApiserver(options?: { readonly graceMs?: number }): Promise<void>;
}

export interface LocalClusterSet extends ClusterSet {
  readonly clusters: readonly LocalCluster[];
  cluster(name: string): LocalCluster;
  readonly binaries: Binaries;
  readonly etcdEndpoint: string;
  /** The one etcd every API server of the set stores in (its pid, e.g. to measure its CPU). */
  readonly etcd: ManagedProcess;
  /** Compacts etcd at its current revision, so older resourceVersions answer 410 Gone. */
  compactEtcd(): Promise<void>;
}

export class LocalProvider implements ClusterProvider {
  readonly name = 'local';
  readonly #options: LocalProviderOptions;

  constructor(options: LocalProviderOptions = {}) {
    this.#options = options;
  }

  async isAvailable(): Promise<Availability> {
    // Always runnable where Go and openssl are; a missing tool fails `up` with an error that names it.
    return { available: true };
  }

  async up(options: UpOptions): Promise<LocalClusterSet> {
    const log = this.#options.log ?? ((line: string) => process.stderr.write(`[local-provider] ${line}\n`));
    const names = options.names ?? defaultClusterNames(options.clusters);
    if (names.length !== options.clusters) {
      throw new Error(`up: ${options.clusters} clusters requested but ${names.length} names given`);
    }
    const binaries = await ensureBinaries({ ...this.#options, signal: options.signal });
    const reaped = reapStale();
    if (reaped > 0) log(`killed ${reaped} processes left behind by an earlier run`);

    const workDir = await makeWorkDir();
    const pidDir = join(workDir, 'pids');
    const processes: ManagedProcess[] = [];
    const startTimeoutMs = this.#options.startTimeoutMs ?? 60_000;
    const groups = this.#options.cpuGroups;
    // Each process in a group of its own, as each pod has its own: two API servers do not share one request.
    const spawnIn = (role: CpuRole, o: SpawnOptions, instance?: string): Promise<ManagedProcess> =>
      spawnManaged({ ...o, via: groups?.via(role, o.command, o.args, instance) });
    let downPromise: Promise<void> | undefined;

    const down = (): Promise<void> => {
      downPromise ??= (async () => {
        unregister();
        // Reverse start order: controller managers, API servers, then etcd.
        for (const p of [...processes].reverse()) await p.stop();
        if (!process.env.WARMSTART_KEEP_WORKDIR) await rm(workDir, { recursive: true, force: true });
      })();
      return downPromise;
    };
    const unregister = onSignalCleanup(down);

    try {
      const t0 = Date.now();
      const ca = await createCa(workDir);
      const serving = await createServingCert(workDir, ca, 'apiserver');
      const admin = await createClientCert(workDir, ca, ADMIN_USER, ['system:masters']);
      const manager = await createClientCert(workDir, ca, MANAGER_USER, [MANAGER_GROUP]);
      const kcm = await createClientCert(workDir, ca, 'warmstart-kube-controller-manager', [
        'system:masters',
      ]);
      const sa = await createServiceAccountKey(workDir);
      await writeFile(join(workDir, 'audit-policy.yaml'), AUDIT_POLICY);

      const etcdClient = await freePort();
      const etcdPeer = await freePort();
      const etcdEndpoint = `http://127.0.0.1:${etcdClient}`;
      const etcd = await spawnIn('etcd', {
        name: 'etcd',
        command: binaries.etcd,
        args: [
          '--name=warmstart',
          `--data-dir=${join(workDir, 'etcd')}`,
          `--listen-client-urls=${etcdEndpoint}`,
          `--advertise-client-urls=${etcdEndpoint}`,
          `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
          `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
          `--initial-cluster=warmstart=http://127.0.0.1:${etcdPeer}`,
          '--unsafe-no-fsync=true',
          '--quota-backend-bytes=8589934592',
          '--log-level=warn',
        ],
        logPath: join(workDir, 'etcd.log'),
        pidDir,
      });
      processes.push(etcd);
      await waitFor(
        'etcd /health',
        async () => {
          if (!etcd.running()) throw new Error(`etcd exited; see ${etcd.logPath}`);
          const res = await fetch(`${etcdEndpoint}/health`);
          return res.ok && ((await res.json()) as { health?: string }).health === 'true';
        },
        { timeoutMs: 30_000, signal: options.signal },
      );

      const clusters: LocalCluster[] = [];
      for (const name of names) {
        const port = await freePort();
        const server = `https://127.0.0.1:${port}`;
        const dir = join(workDir, name);
        await mkdir(dir, { recursive: true });
        const auditLogPath = join(dir, 'audit.log');
        const args = [
          `--etcd-servers=${etcdEndpoint}`,
          `--etcd-prefix=/warmstart-${name}/registry`,
          `--secure-port=${port}`,
          '--bind-address=127.0.0.1',
          '--advertise-address=127.0.0.1',
          `--tls-cert-file=${serving.cert}`,
          `--tls-private-key-file=${serving.key}`,
          `--client-ca-file=${ca.cert}`,
          `--service-account-issuer=${server}`,
          `--service-account-key-file=${sa.pub}`,
          `--service-account-signing-key-file=${sa.key}`,
          '--service-cluster-ip-range=10.0.0.0/24',
          '--authorization-mode=RBAC',
          '--allow-privileged=true',
          '--disable-admission-plugins=ServiceAccount',
          '--endpoint-reconciler-type=none',
          `--audit-policy-file=${join(workDir, 'audit-policy.yaml')}`,
          `--audit-log-path=${auditLogPath}`,
          '--audit-log-format=json',
          '--audit-log-maxsize=4096',
          '--profiling=false',
          ...(this.#options.apiserverArgs ?? []),
        ];
        let apiserver: ManagedProcess | undefined;
        const identity: TlsIdentity = { server, caPath: ca.cert, certPath: admin.cert, keyPath: admin.key };
        const startApiserver = async (): Promise<void> => {
          const started = Date.now();
          const proc = await spawnIn(
            'kube-apiserver',
            {
              name: `kube-apiserver-${name}`,
              command: binaries.kubeApiserver,
              args,
              env: this.#options.apiserverEnv,
              logPath: join(dir, 'kube-apiserver.log'),
              pidDir,
            },
            name,
          );
          const index = apiserver ? processes.indexOf(apiserver) : -1;
          if (index >= 0) processes[index] = proc;
          else processes.push(proc);
          apiserver = proc;
          await waitFor(
            `kube-apiserver ${name} /readyz`,
            async () => {
              if (!proc.running()) throw new Error(`kube-apiserver ${name} exited; see ${proc.logPath}`);
              const res = await adminRequest(identity, 'GET', '/readyz');
              return res.status === 200;
            },
            { timeoutMs: startTimeoutMs, intervalMs: 200, signal: options.signal },
          );
          await waitFor(
            `namespace default on ${name}`,
            async () => (await adminRequest(identity, 'GET', '/api/v1/namespaces/default')).status === 200,
            { timeoutMs: startTimeoutMs, intervalMs: 200, signal: options.signal },
          );
          log(`kube-apiserver ${name} ready at ${server} in ${Date.now() - started} ms`);
        };
        await startApiserver();
        const [adminKubeconfig, managerKubeconfig, kcmKubeconfig] = await Promise.all([
          writeKubeconfig({
            path: join(dir, 'admin.kubeconfig'),
            name,
            server,
            caPath: ca.cert,
            user: ADMIN_USER,
            certPath: admin.cert,
            keyPath: admin.key,
          }),
          writeKubeconfig({
            path: join(dir, 'manager.kubeconfig'),
            name,
            server,
            caPath: ca.cert,
            user: MANAGER_USER,
            certPath: manager.cert,
            keyPath: manager.key,
          }),
          writeKubeconfig({
            path: join(dir, 'kcm.kubeconfig'),
            name,
            server,
            caPath: ca.cert,
            user: 'kcm',
            certPath: kcm.cert,
            keyPath: kcm.key,
          }),
        ]);
        if ((options.managerAccess ?? 'cluster-admin') === 'cluster-admin') {
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
          if (res.status !== 201)
            throw new Error(
              `binding the manager user to cluster-admin on ${name} failed: ${res.status} ${res.body}`,
            );
        }
        let kcmProc: ManagedProcess | undefined;
        if (options.controllerManager ?? true) {
          kcmProc = await spawnIn(
            'kube-controller-manager',
            {
              name: `kube-controller-manager-${name}`,
              command: binaries.kubeControllerManager,
              args: [
                `--kubeconfig=${kcmKubeconfig}`,
                `--authentication-kubeconfig=${kcmKubeconfig}`,
                `--authorization-kubeconfig=${kcmKubeconfig}`,
                `--controllers=${(options.kubeControllers?.(name) ?? ['garbagecollector', 'namespace']).join(',')}`,
                '--leader-elect=false',
                '--use-service-account-credentials=false',
                '--bind-address=127.0.0.1',
                `--secure-port=${await freePort()}`,
                `--cert-dir=${join(dir, 'kcm-certs')}`,
              ],
              logPath: join(dir, 'kube-controller-manager.log'),
              pidDir,
            },
            name,
          );
          processes.push(kcmProc);
        }
        clusters.push({
          name,
          server,
          adminKubeconfig,
          managerKubeconfig,
          managerUser: MANAGER_USER,
          adminUser: ADMIN_USER,
          auditLogPath,
          caPath: ca.cert,
          apiserver: () => apiserver!,
          controllerManager: () => kcmProc,
          restartApiserver: async ({ graceMs } = {}) => {
            await apiserver!.stop(graceMs);
            await startApiserver();
          },
        });
      }
      log(`${clusters.length} cluster(s) up in ${Date.now() - t0} ms (work dir ${workDir})`);

      return {
        clusters,
        workDir,
        binaries,
        etcdEndpoint,
        etcd,
        pids: () => processes.filter((p) => p.running()).map((p) => p.pid),
        cluster: (n: string) => {
          const c = clusters.find((x) => x.name === n);
          if (!c)
            throw new Error(
              `no cluster named "${n}" in this set (have: ${clusters.map((x) => x.name).join(', ')})`,
            );
          return c;
        },
        compactEtcd: async () => {
          const status = await fetch(`${etcdEndpoint}/v3/kv/range`, {
            method: 'POST',
            body: JSON.stringify({ key: Buffer.from('compact_probe').toString('base64') }),
          });
          const body = (await status.json()) as { header?: { revision?: string } };
          const revision = body.header?.revision;
          if (!revision) throw new Error(`could not read etcd's revision: ${JSON.stringify(body)}`);
          const res = await fetch(`${etcdEndpoint}/v3/kv/compaction`, {
            method: 'POST',
            body: JSON.stringify({ revision, physical: true }),
          });
          if (!res.ok) throw new Error(`etcd compaction failed: ${res.status} ${await res.text()}`);
        },
        down,
      };
    } catch (error) {
      // Read the tails of the logs before down() removes the work directory: they usually hold the reason.
      if (error instanceof Error) {
        const tails = await Promise.all(
          processes.map(async (p) => {
            const text = await readFile(p.logPath, 'utf8').catch(() => '');
            return `--- ${p.name}:\n${text.split('\n').slice(-10).join('\n')}`;
          }),
        );
        error.message += `\n${tails.join('\n')}`;
      }
      await down().catch(() => undefined);
      throw error;
    }
  }
}
