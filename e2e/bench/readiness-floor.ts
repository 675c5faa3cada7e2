// The floor under a restarted manager's /readyz: the host resources it caches, fetched all at once as it does, by a
// client that only receives and parses (a raw paged LIST, and separately a WatchList stream) and keeps nothing.
// No informer can be ready sooner than the server can hand the same objects over.
import { KubeConfig } from '@kubernetes/client-node';
import { metricValue } from '../src/manager/manager-process.js';
import { rawPagedList } from './raw-list.js';
import { rawWatchList } from './raw-watch-list.js';

export interface ReadinessFloor {
  /** `<group or core>/<version>/<resource>` of every host informer. */
  readonly resources: readonly string[];
  readonly objects: number;
  /** Every resource listed in pages of 500, in parallel, until the last page is parsed. */
  readonly listMs: number;
  /**
   * Every resource streamed by WatchList (a paged LIST where the server refuses it), in parallel, until the last
   * initial-events-end bookmark.
   */
  readonly watchListMs: number;
}

/** The host resources the manager caches, from its own warmstart_informer_synced{cluster="host"} series. */
export function cachedHostResources(metrics: string): string[] {
  const out = new Set<string>();
  for (const line of metrics.split('\n')) {
    if (!line.startsWith('warmstart_informer_synced{') || !line.includes('cluster="host"')) continue;
    const resource = /resource="([^"]+)"/.exec(line)?.[1];
    if (resource !== undefined && metricValue(line, 'warmstart_informer_synced') === 1) out.add(resource);
  }
  return [...out].sort();
}

function collectionPath(resource: string): string {
  const [group, version, name] = resource.split('/');
  if (group === undefined || version === undefined || name === undefined)
    throw new Error(`not a <group>/<version>/<resource>: ${resource}`);
  return group === 'core' ? `/api/${version}/${name}` : `/apis/${group}/${version}/${name}`;
}

async function timed(run: () => Promise<number[]>): Promise<{ ms: number; objects: number }> {
  const started = performance.now();
  const counts = await run();
  return { ms: Math.round(performance.now() - started), objects: counts.reduce((a, b) => a + b, 0) };
}

/** Measures both floors, one after the other, as the manager's user (`kubeconfig`). */
export async function readinessFloor(
  kubeconfig: string,
  resources: readonly string[],
): Promise<ReadinessFloor> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const paths = resources.map(collectionPath);
  const list = await timed(() => Promise.all(paths.map((p) => rawPagedList(kc, p, 500))));
  // A resource whose watch cache is off is not served by WatchList; the manager lists it instead, and so does this.
  const watchList = await timed(() =>
    Promise.all(paths.map((p) => rawWatchList(kc, p).catch(() => rawPagedList(kc, p, 500)))),
  );
  return { resources, objects: list.objects, listMs: list.ms, watchListMs: watchList.ms };
}
