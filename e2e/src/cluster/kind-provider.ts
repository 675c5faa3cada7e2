// The `kind` provider: the same ClusterProvider contract through the kind CLI, for machines with a Docker
// engine. Our CI machines have none, so this provider is unit-tested (its generated config) and skipped at
// run time with the reason; see the e2e README.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import {
  type Availability,
  type ClusterInfo,
  type ClusterProvider,
  type ClusterSet,
  defaultClusterNames,
  ProviderUnavailableError,
  type UpOptions,
} from './provider.js';
import { makeWorkDir } from './supervisor.js';

const run = promisify(execFile);

export const KIND_NODE_IMAGE = 'kindest/node:v1.35.0';
/** Where the audit policy and log live inside the kind node container. */
const NODE_AUDIT_DIR = '/etc/kubernetes/audit';
const NODE_AUDIT_LOG_DIR = '/var/log/kubernetes';

/** The kind cluster config that turns on a Metadata-level JSON audit log and mounts it on the host. */
export function kindClusterConfig(hostDir: string): Record<string, unknown> {
  return {
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
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
          }),
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

export class KindProvider implements ClusterProvider {
  readonly name = 'kind';

  async isAvailable(): Promise<Availability> {
    try {
      await run('kind', ['version']);
    } catch {
      return {
        available: false,
        reason: 'the kind CLI is not installed (go install sigs.k8s.io/kind@v0.33.0)',
      };
    }
    try {
      await run('docker', ['info'], { timeout: 10_000 });
    } catch {
      return {
        available: false,
        reason: 'no Docker engine answers `docker info` (kind runs its nodes as containers)',
      };
    }
    return { available: true };
  }

  async up(options: UpOptions): Promise<ClusterSet> {
    const availability = await this.isAvailable();
    if (!availability.available) throw new ProviderUnavailableError(this.name, availability.reason);
    const workDir = await makeWorkDir();
    const names = options.names ?? defaultClusterNames(options.clusters);
    const clusters: ClusterInfo[] = [];
    const created: string[] = [];
    const down = async (): Promise<void> => {
      for (const n of created) await run('kind', ['delete', 'cluster', '--name', n]).catch(() => undefined);
    };
    try {
      for (const name of names) {
        const kindName = `warmstart-${name}`;
        const dir = join(workDir, name);
        await mkdir(join(dir, 'logs'), { recursive: true });
        await writeFile(
          join(dir, 'policy.yaml'),
          'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: ["RequestReceived"]\nrules:\n- level: Metadata\n',
        );
        await writeFile(join(dir, 'kind.yaml'), stringify(kindClusterConfig(dir)));
        const kubeconfig = join(dir, 'admin.kubeconfig');
        await run(
          'kind',
          [
            'create',
            'cluster',
            '--name',
            kindName,
            '--image',
            KIND_NODE_IMAGE,
            '--config',
            join(dir, 'kind.yaml'),
            '--kubeconfig',
            kubeconfig,
            '--wait',
            '120s',
          ],
          {
            signal: options.signal,
          },
        );
        created.push(kindName);
        clusters.push({
          name,
          server: '',
          adminKubeconfig: kubeconfig,
          // kind issues one admin identity; a separate manager user would need a CSR round-trip. Tests that
          // tell the manager apart by user run on the local provider.
          managerKubeconfig: kubeconfig,
          managerUser: 'kubernetes-admin',
          adminUser: 'kubernetes-admin',
          auditLogPath: join(dir, 'logs', 'audit.log'),
          caPath: '',
        });
      }
    } catch (error) {
      await down();
      throw error;
    }
    return {
      clusters,
      workDir,
      pids: () => [],
      cluster: (n) => {
        const c = clusters.find((x) => x.name === n);
        if (!c) throw new Error(`no cluster named "${n}"`);
        return c;
      },
      down,
    };
  }
}
