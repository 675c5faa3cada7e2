// The watchdog against a real kube-apiserver: with the server frozen (SIGSTOP) a watch receives nothing, not even an
// error, and only the watchdog can tell. A ticker keeps the watch busy while the server runs, so a watchdog restart
// can only come from the freeze. After SIGCONT the watch is reopened and the store catches up with changes made then.
import { InformerManager, type SharedInformer } from '@warmstart/informer-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import { inParallel } from './bulk.js';
import {
  type AdminClient,
  adminClient,
  type ConfigMap,
  configMapObject,
  configmaps,
  loadKubeConfig,
  namespaceObject,
  namespaces,
} from './fixtures.js';
import { HandlerLog } from './handler-log.js';
import { MetricsLog } from './metrics-log.js';
import { diffState, serverState, versionsOf } from './server-state.js';

const NS = 'watchdog';
const WATCHDOG_MS = 3_000;
const TICK_MS = 250;

describe('watchdog: a silent watch on a frozen kube-apiserver is restarted', () => {
  let set: LocalClusterSet;
  let admin: AdminClient;

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 1, controllerManager: false });
    admin = adminClient(set.clusters[0]!);
    await admin.writer.create(namespaces, namespaceObject(NS));
    await admin.writer.create(configmaps, configMapObject(NS, 'tick', { n: '0' }));
    await inParallel(50, 16, (i) =>
      admin.writer.create(configmaps, configMapObject(NS, `cm-${i}`, { v: '0' })),
    );
  }, 120_000);

  afterAll(async () => {
    set?.clusters[0]?.apiserver().signal('SIGCONT');
    admin?.close();
    await set?.down();
  });

  it('restarts the watch (reason watchdog) only while the server is frozen, then catches up', async () => {
    const cluster = set.clusters[0]!;
    const metrics = new MetricsLog();
    const manager = InformerManager.fromKubeConfig(loadKubeConfig(cluster.managerKubeconfig), {
      metrics,
      informers: { namespace: NS, watchdogMs: WATCHDOG_MS, backoff: { initialMs: 100, maxMs: 1_000 } },
    });
    const log = new HandlerLog<ConfigMap>('watchdog');
    const informer: SharedInformer<ConfigMap> = manager.forResource(configmaps, log);
    const tickArrivals: number[] = [];
    manager.forResource(configmaps, {
      name: 'tick-arrivals',
      onUpdate: (_old, o) => (o.metadata.name === 'tick' ? tickArrivals.push(performance.now()) : undefined),
    });
    const ticking = new AbortController();
    let ticks = 0;
    // The ticker: one update every TICK_MS, so a healthy watch is never silent for WATCHDOG_MS. Its requests hang
    // while the server is frozen; that is fine, it only has to keep the watch busy while the server runs.
    const ticker = (async () => {
      while (!ticking.signal.aborted) {
        await admin.writer
          .patch(
            configmaps,
            `${NS}/tick`,
            { type: 'merge', patch: { data: { n: String(++ticks) } } },
            { signal: ticking.signal, timeoutMs: 30_000 },
          )
          .catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, TICK_MS));
      }
    })();
    const tickSeen = (n: number) =>
      log.notes.waitFor(
        (e) =>
          e.type === 'update' && e.key === `${NS}/tick` && Number(informer.lister.get(e.key)?.data?.n) >= n,
        30_000,
        `tick ${n} in the cache`,
      );
    manager.start();
    try {
      await manager.waitForSync({ timeoutMs: 30_000 });
      // Two watchdog intervals of a busy, healthy watch: no watchdog restart.
      const healthyFrom = ticks;
      const arrivalsFrom = tickArrivals.length;
      await log.notes.next(
        (e) =>
          e.type === 'update' &&
          e.key === `${NS}/tick` &&
          Number(informer.lister.get(e.key)?.data?.n) >= healthyFrom + (2 * WATCHDOG_MS) / TICK_MS,
        30_000,
        'ticks of a healthy watch',
      );
      // The premise first: the ticker kept the watch from going silent (a starved machine would break it).
      const arrivals = tickArrivals.slice(arrivalsFrom);
      const longestSilence = Math.max(...arrivals.slice(1).map((t, i) => t - arrivals[i]!));
      expect(longestSilence, 'longest gap between ticks seen by the informer').toBeLessThan(WATCHDOG_MS);
      expect(metrics.count((e) => e.type === 'watchRestarted' && e.reason === 'watchdog')).toBe(0);

      const apiserver = cluster.apiserver();
      apiserver.signal('SIGSTOP');
      const stoppedAt = performance.now();
      let restart: Awaited<ReturnType<MetricsLog['next']>>;
      try {
        restart = await metrics.next(
          (e) => e.type === 'watchRestarted' && e.reason === 'watchdog',
          WATCHDOG_MS * 5,
          'a watchdog restart while the server is frozen',
        );
      } finally {
        apiserver.signal('SIGCONT');
      }
      // It fired because of the freeze, about one interval after the last byte.
      expect(restart.at - stoppedAt).toBeGreaterThan(0);
      expect(restart.at - stoppedAt).toBeLessThan(WATCHDOG_MS * 2 + 1_000);

      // Caught up: changes made after SIGCONT all arrive, and the store equals the server.
      await inParallel(10, 10, async (i) => {
        await admin.writer.patch(configmaps, `${NS}/cm-${i}`, { type: 'merge', patch: { data: { v: '1' } } });
        await admin.writer.delete(configmaps, `${NS}/cm-${10 + i}`);
        await admin.writer.create(configmaps, configMapObject(NS, `after-${i}`));
      });
      await tickSeen(ticks);
      ticking.abort();
      await ticker;
      await admin.writer.create(configmaps, configMapObject(NS, 'barrier'));
      await log.added(`${NS}/barrier`, 30_000);
      const server = await serverState(cluster, `/api/v1/namespaces/${NS}/configmaps`);
      expect(server.size).toBe(1 + 50 + 1);
      expect(diffState(versionsOf(informer.store.list()), server)).toEqual({
        missing: [],
        extra: [],
        stale: [],
      });
      expect(diffState(log.replayed, server)).toEqual({ missing: [], extra: [], stale: [] });
      expect(log.duplicateAdds()).toEqual([]);
      // The informer never relisted: the watchdog reopens the watch from the last resourceVersion.
      expect(metrics.count((e) => e.type === 'relisted' && e.reason !== 'initial')).toBe(0);
    } finally {
      ticking.abort();
      await ticker;
      await manager.stop();
    }
  });
});
