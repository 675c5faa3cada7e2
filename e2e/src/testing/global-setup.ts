// Vitest global setup of the `integration` project: one local cluster set (host + two members) for every
// integration file, torn down at the end whatever happened. Files get its description through inject('clusters')
// and, for packages that must not import e2e, the WARMSTART_TEST_* environment variables.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { LocalProvider } from '../cluster/local-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';

export type SharedClusters = readonly ClusterInfo[];

declare module 'vitest' {
  export interface ProvidedContext {
    clusters: SharedClusters;
    workDir: string;
  }
}

/** Builds the manager (and what it depends on) so tests run the binary users run; turbo skips it when cached. */
function buildManager(): void {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  execFileSync(
    `${root}node_modules/.bin/turbo`,
    ['run', 'build', '--filter=@warmstart/controller-manager...', '--output-logs=errors-only'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  buildManager();
  const count = Number(process.env.WARMSTART_TEST_CLUSTERS ?? 3);
  const set = await new LocalProvider().up({ clusters: count });
  const clusters = set.clusters.map((c) => ({
    name: c.name,
    server: c.server,
    adminKubeconfig: c.adminKubeconfig,
    managerKubeconfig: c.managerKubeconfig,
    managerUser: c.managerUser,
    adminUser: c.adminUser,
    auditLogPath: c.auditLogPath,
    caPath: c.caPath,
  }));
  project.provide('clusters', clusters);
  project.provide('workDir', set.workDir);
  const host = clusters[0]!;
  process.env.WARMSTART_TEST_KUBECONFIG = host.adminKubeconfig;
  process.env.WARMSTART_TEST_MANAGER_KUBECONFIG = host.managerKubeconfig;
  process.env.WARMSTART_TEST_MANAGER_USER = host.managerUser;
  process.env.WARMSTART_TEST_AUDIT_LOG = host.auditLogPath ?? '';
  return () => set.down();
}
