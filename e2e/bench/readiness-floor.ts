// The floor under a restarted manager's /readyz. The manager lists every resource it caches at once, host and
// members alike, and /readyz waits for the host's part of that. So the floor is a client that fetches exactly the
// same resources from the same servers all at once, only receives and parses (a raw paged LIST, and separately a
// WatchList stream), keeps nothing, and notes when its host part is done. No informer can be ready sooner than
// the servers can hand the same objects over while they also serve the rest.
import { KubeConfig } from '@kubernetes/client-node';
import { metricValue } from '../src/manager/manager-process.js';
import { rawPagedList } from './raw-list.js';
import { rawWatchList } from './raw-watch-list.js';

/** The cluster whose caches /readyz waits for. */
export const HOST_CLUSTER = 'host';

/** What the manager caches in one cluster, and a kubeconfig that may read it. */
export interface FloorTarget {
  readonly cluster: string;
  readonly kubeconfig: string;
  /** `<group or core>/<version>/<resource>` of every informer the manager has on this cluster. */
  readonly resources: readonly string[];
}

export interface FloorTiming {
  /** Until every host resource was parsed, with the members' fetched meanwhile: the floor of /readyz. */
  readonly hostMs: number;
  /** Until every resource of every cluster was parsed. */
  readonly allMs: number;
}

export interface ReadinessFloor {
  readonly clusters: readonly {
    readonly cluster: string;
    readonly resources: number;
    readonly objects: number;
  }[];
  /** Every resource listed in pages of 500, all clusters in parallel. */
  readonly list: FloorTiming;
  /**
   * Every resource streamed by WatchList (a paged LIST where the server refuses it), all clusters in parallel,
   * until the last initial-events-end bookmark.
   */
  readonly watchList: FloorTiming;
}

/** The resources the manager caches, by cluster, from its own `warmstart_informer_synced` series. */
export function cachedResources(metrics: string): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const line of metrics.split('\n')) {
    if (!line.startsWith('warmstart_informer_synced{')) continue;
    const cluster = /cluster="([^"]+)"/.exec(line)?.[1];
    const resource = /resource="([^"]+)"/.exec(line)?.[1];
    if (cluster === undefined || resource === undefined) continue;
    if (metricValue(line, 'warmstart_informer_synced') !== 1) continue;
    const set = out.get(cluster) ?? new Set<string>();
    set.add(resource);
    out.set(cluster, set);
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)).map(([c, s]) => [c, [...s].sort()]));
}

function collectionPath(resource: string): string {
  const [group, version, name] = resource.split('/');
  if (group === undefined || version === undefined || name === undefined)
    throw new Error(`not a <group>/<version>/<resource>: ${resource}`);
  return group === 'core' ? `/api/${version}/${name}` : `/apis/${group}/${version}/${name}`;
}

type Fetch = (kc: KubeConfig, path: string) => Promise<number>;

/** Fetches every target at once; when the host's part and when everything was done, and the objects per cluster. */
async function timed(
  targets: readonly FloorTarget[],
  configs: readonly KubeConfig[],
  fetch: Fetch,
): Promise<{ timing: FloorTiming; objects: number[] }> {
  const started = performance.now();
  let hostMs = 0;
  const objects = await Promise.all(
    targets.map(async (t, i) => {
      const kc = configs[i]!;
      const counts = await Promise.all(t.resources.map((r) => fetch(kc, collectionPath(r))));
      if (t.cluster === HOST_CLUSTER) hostMs = performance.now() - started;
      return counts.reduce((a, b) => a + b, 0);
    }),
  );
  const allMs = Math.round(performance.now() - started);
  return { timing: { hostMs: Math.round(hostMs), allMs }, objects };
}

function configsFor(targets: readonly FloorTarget[]): KubeConfig[] {
  if (!targets.some((t) => t.cluster === HOST_CLUSTER))
    throw new Error(`the manager reports no synced cache on "${HOST_CLUSTER}"; is it running and synced?`);
  return targets.map((t) => {
    const kc = new KubeConfig();
    kc.loadFromFile(t.kubeconfig);
    return kc;
  });
}

/** Measures both floors, one after the other, as the manager's users. */
export async function readinessFloor(targets: readonly FloorTarget[]): Promise<ReadinessFloor> {
  const configs = configsFor(targets);
  const list = await timed(targets, configs, (kc, p) => rawPagedList(kc, p, 500));
  // A resource whose watch cache is off is not served by WatchList; the manager lists it instead, and so does this.
  const watchList = await timed(targets, configs, (kc, p) =>
    rawWatchList(kc, p).catch(() => rawPagedList(kc, p, 500)),
  );
  return {
    clusters: targets.map((t, i) => ({
      cluster: t.cluster,
      resources: t.resources.length,
      objects: list.objects[i]!,
    })),
    list: list.timing,
    watchList: watchList.timing,
  };
}

/**
 * The paged-LIST floor alone, host part: measured again just before each restart, so a restart the servers served
 * slowly can be told from one the manager made slow. One run's floor moved by a third between runs at 50k.
 */
export async function pagedListFloorMs(targets: readonly FloorTarget[]): Promise<number> {
  const { timing } = await timed(targets, configsFor(targets), (kc, p) => rawPagedList(kc, p, 500));
  return timing.hostMs;
}

/** The faster of the two host floors: the soonest any client fetching what the manager fetches holds the host's. */
export function floorMs(floor: ReadinessFloor): number {
  return Math.min(floor.list.hostMs, floor.watchList.hostMs);
}

/** One paragraph under the table. */
export function floorNote(floor: ReadinessFloor): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const what = floor.clusters
    .map((c) => `${c.cluster}: ${c.resources} resources, ${c.objects} objects`)
    .join('; ');
  return (
    `Readiness floor, same run: everything the manager caches (${what}), fetched all at once as it does, parsed, ` +
    `nothing kept. Host part done: paged LIST ${s(floor.list.hostMs)}, WatchList ${s(floor.watchList.hostMs)}; ` +
    `everything done: paged LIST ${s(floor.list.allMs)}, WatchList ${s(floor.watchList.allMs)}. ` +
    `"/readyz ÷ floor" divides by the faster host part (/readyz waits for the host's caches only); ` +
    `"÷ floor just before" by the host part of a paged LIST of the same resources made with the manager idle ` +
    `just before that restart.`
  );
}
