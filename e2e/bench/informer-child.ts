// One measurement of the informer benchmark, in a fresh process so its heap holds nothing but what is measured.
// Usage (the parent runs it): node --expose-gc --conditions=@warmstart/source --import tsx informer-child.ts
//   <impl> <kubeconfig> <expected objects>
// Prints one JSON line: { impl, objects, syncMs, heapBytesPerObject, rssBytes, cpuMs }.
import type { KubeConfig } from '@kubernetes/client-node';
import { type ChildResult, DIAGNOSTIC_IMPLS, IMPLS, type Impl } from './row.js';
import { stderrLogger } from './stderr-logger.js';

interface Synced {
  readonly objects: number;
  /** What keeps the cache alive until the heap is measured. */
  readonly keep: unknown;
}

type Sync = (kc: KubeConfig) => Promise<Synced>;

const deployments = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  namespaced: true,
  kind: 'Deployment',
} as const;

/** Loads one implementation's modules before the baseline, so their code is not counted as cache. */
async function load(impl: Impl): Promise<Sync> {
  switch (impl) {
    case 'warmstart-watchlist':
    case 'warmstart-list': {
      const { InformerManager } = await import('@warmstart/informer-cache');
      return async (kc) => {
        let method: string | undefined;
        const manager = InformerManager.fromKubeConfig(kc, {
          // 'always'/'never' force each initial sync: a WatchList stream, or the paged LIST (limit=500,
          // resourceVersion=0) the reflector falls back to.
          informers: { watchList: impl === 'warmstart-watchlist' ? 'always' : 'never' },
          metrics: { listCompleted: (_l, m) => (method = m) },
          ...(process.env.BENCH_LOG ? { logger: stderrLogger } : {}),
        });
        const informer = manager.forResource(deployments);
        manager.start();
        await informer.waitForSync({ timeoutMs: 1_200_000 });
        const expected = impl === 'warmstart-watchlist' ? 'watch-list' : 'list';
        if (method !== expected) throw new Error(`${impl} synced by ${method}, not ${expected}`);
        return { objects: informer.store.size, keep: manager };
      };
    }
    case 'client-node': {
      const { AppsV1Api, makeInformer } = await import('@kubernetes/client-node');
      type Deployment = import('@kubernetes/client-node').V1Deployment;
      return async (kc) => {
        const apps = kc.makeApiClient(AppsV1Api);
        // The listFn pages (limit 500, continue) like the raw LIST floor: one unpaged LIST of 100k realistic
        // Deployments is a ~600 MB body, past V8's longest string, and client-node reads bodies as one string.
        const listFn = async () => {
          const items: Deployment[] = [];
          let token: string | undefined;
          let resourceVersion = '';
          do {
            const page = await apps.listDeploymentForAllNamespaces(
              token === undefined ? { limit: 500 } : { limit: 500, _continue: token },
            );
            for (const item of page.items) items.push(item);
            token = page.metadata?._continue || undefined;
            resourceVersion = page.metadata?.resourceVersion ?? '';
          } while (token !== undefined);
          return { apiVersion: 'apps/v1', kind: 'DeploymentList', metadata: { resourceVersion }, items };
        };
        const informer = makeInformer(kc, '/apis/apps/v1/deployments', listFn);
        await informer.start(); // resolves once the list is in the cache and the watch is open
        return { objects: informer.list().length, keep: informer };
      };
    }
    case 'raw-list': {
      const { rawPagedList } = await import('./raw-list.js');
      return async (kc) => ({
        objects: await rawPagedList(kc, '/apis/apps/v1/deployments', 500),
        keep: undefined,
      });
    }
    case 'raw-watchlist': {
      const { rawWatchList } = await import('./raw-watch-list.js');
      return async (kc) => ({
        objects: await rawWatchList(kc, '/apis/apps/v1/deployments'),
        keep: undefined,
      });
    }
  }
}

async function settle(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc: the heap figures need forced collections');
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const [implArg, kubeconfigPath, expectedArg] = process.argv.slice(2);
const known: readonly string[] = [...IMPLS, ...DIAGNOSTIC_IMPLS];
if (
  implArg === undefined ||
  !known.includes(implArg) ||
  kubeconfigPath === undefined ||
  expectedArg === undefined
) {
  throw new Error(`usage: informer-child.ts <${known.join('|')}> <kubeconfig> <expected objects>`);
}
const impl = implArg as Impl;
const expected = Number(expectedArg);
const { KubeConfig: KubeConfigClass } = await import('@kubernetes/client-node');
const kc = new KubeConfigClass();
kc.loadFromFile(kubeconfigPath);
const sync = await load(impl);

await settle();
const heapBefore = process.memoryUsage().heapUsed;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const synced = await sync(kc);
const syncMs = Math.round(performance.now() - started);
const cpu = process.cpuUsage(cpuBefore);
// The cache must stay reachable until the heap is measured.
(globalThis as { keep?: unknown }).keep = synced.keep;
await settle();
const { heapUsed, rss } = process.memoryUsage();
if (synced.objects !== expected) {
  throw new Error(`${impl} synced ${synced.objects} objects, expected ${expected}`);
}
const row: ChildResult = {
  impl,
  objects: synced.objects,
  syncMs,
  heapBytesPerObject: Math.round((heapUsed - heapBefore) / synced.objects),
  rssBytes: rss,
  cpuMs: Math.round((cpu.user + cpu.system) / 1000),
};
// Leave without tearing the cache down: nothing after this line is measured.
process.stdout.write(`${JSON.stringify(row)}\n`);
process.exit(0);
