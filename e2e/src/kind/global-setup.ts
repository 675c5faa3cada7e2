// Vitest global setup of the `kind` project: one set of kind clusters (host + two members) for every file,
// deleted at the end whatever happened. Records how long each cluster took and the memory each node uses.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { containerMemoryBytes } from '../cluster/docker.js';
import { type KindCluster, KindProvider } from '../cluster/kind-provider.js';
import {
  type ContainerEnv,
  containerTestsSkipped,
  ensureContainerEnv,
  REPO_ROOT,
} from '../testing/container-env.js';

declare module 'vitest' {
  export interface ProvidedContext {
    kindClusters: readonly KindCluster[];
    containerEnv: ContainerEnv;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (containerTestsSkipped()) return undefined;
  const env = await ensureContainerEnv();
  const t0 = Date.now();
  const set = await new KindProvider({
    kindBin: env.kindBin,
    nodeImage: env.nodeImage,
    // The host runs the manager's and the Karmada API server's Deployments, so it keeps every controller (the
    // load lives on the Karmada API server, where none runs); members only store what is propagated to them.
    controllerManagerArgs: (name) =>
      name === 'host' ? {} : { controllers: '*,-deployment-controller,-replicaset-controller' },
  }).up({
    clusters: Number(process.env.WARMSTART_KIND_CLUSTERS ?? 3),
  });
  const upMs = Date.now() - t0;
  const memory = await Promise.all(set.clusters.map((c) => containerMemoryBytes(c.nodeContainer)));
  const report = {
    upMs,
    clusters: set.clusters.map((c, i) => ({ name: c.name, createMs: c.createMs, memoryBytes: memory[i] })),
  };
  process.stderr.write(
    `[kind] ${set.clusters.length} clusters in ${upMs} ms: ${report.clusters
      .map((c) => `${c.name} ${c.createMs} ms, ${Math.round(c.memoryBytes! / 2 ** 20)} MiB`)
      .join('; ')}\n`,
  );
  await mkdir(join(REPO_ROOT, 'e2e/artifacts'), { recursive: true });
  await writeFile(
    join(REPO_ROOT, 'e2e/artifacts/kind-clusters.json'),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  project.provide('kindClusters', set.clusters);
  project.provide('containerEnv', env);
  return () => set.down();
}
