// 410 Gone on a real kube-apiserver: informers behind a proxy are cut off while objects are updated, deleted and
// created, etcd is compacted and the API server restarted (its watch cache now starts after the informers' last
// resourceVersion). When the proxy lets them through again, their watches get 410, they relist, and afterwards the
// stores equal the server, with the deletes of the gap delivered as DeletedFinalStateUnknown tombstones.
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
import { PausableProxy } from './pausable-proxy.js';
import { diffState, serverState, versionsOf } from './server-state.js';

const NS = 'expired';
const INITIAL = 100;

describe('410 Gone after compaction and a restart during a watch gap', () => {
  let set: LocalClusterSet;
  let admin: AdminClient;
  let proxy: PausableProxy;

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 1, controllerManager: false });
    admin = adminClient(set.clusters[0]!);
    proxy = await PausableProxy.start(set.clusters[0]!.server);
    await admin.writer.create(namespaces, namespaceObject(NS));
    await inParallel(INITIAL, 16, (i) =>
      admin.writer.create(configmaps, configMapObject(NS, `cm-${i}`, { v: '0' })),
    );
  }, 120_000);

  afterAll(async () => {
    admin?.close();
    await proxy?.close();
    await set?.down();
  });

  it('relists on 410 and delivers the gap: updates, creates, and deletes as tombstones', async () => {
    const cluster = set.clusters[0]!;
    const flavours = (['auto', 'never'] as const).map((watchList) => {
      const metrics = new MetricsLog();
      const manager = InformerManager.fromKubeConfig(loadKubeConfig(cluster.managerKubeconfig, proxy.url), {
        metrics,
        informers: { namespace: NS, watchList, backoff: { initialMs: 100, maxMs: 1_000 } },
      });
      const log = new HandlerLog<ConfigMap>(`expired-${watchList}`);
      const informer: SharedInformer<ConfigMap> = manager.forResource(configmaps, log);
      return { watchList, manager, informer, log, metrics };
    });
    for (const f of flavours) f.manager.start();
    try {
      await Promise.all(flavours.map((f) => f.manager.waitForSync({ timeoutMs: 30_000 })));
      const resumeFrom = flavours.map((f) => f.informer.lastSyncResourceVersion);

      proxy.cut();
      await inParallel(10, 10, async (i) => {
        await admin.writer.patch(configmaps, `${NS}/cm-${i}`, {
          type: 'merge',
          patch: { data: { v: 'gap' } },
        });
        await admin.writer.delete(configmaps, `${NS}/cm-${50 + i}`);
        await admin.writer.create(configmaps, configMapObject(NS, `gap-${i}`, { v: 'gap' }));
      });
      await set.compactEtcd();
      await cluster.restartApiserver();
      // The informers kept trying during the gap, and nothing of it reached them.
      expect(proxy.refused).toBeGreaterThan(0);
      for (const f of flavours) {
        expect(f.informer.store.get(`${NS}/cm-50`)).toBeDefined();
        expect(f.informer.store.get(`${NS}/gap-0`)).toBeUndefined();
        expect(f.metrics.count((e) => e.type === 'relisted' && e.reason === 'expired')).toBe(0);
      }
      proxy.restore();

      await Promise.all(
        flavours.map((f) =>
          f.metrics.waitFor(
            (e) => e.type === 'relisted' && e.reason === 'expired',
            30_000,
            `relist after 410 (watchList=${f.watchList})`,
          ),
        ),
      );
      await admin.writer.create(configmaps, configMapObject(NS, 'barrier'));
      await Promise.all(flavours.map((f) => f.log.added(`${NS}/barrier`, 30_000)));

      const server = await serverState(cluster, `/api/v1/namespaces/${NS}/configmaps`);
      expect(server.size).toBe(INITIAL + 1);
      for (const [i, f] of flavours.entries()) {
        const label = `watchList=${f.watchList}`;
        expect(BigInt(f.informer.lastSyncResourceVersion), label).toBeGreaterThan(BigInt(resumeFrom[i]!));
        expect(diffState(versionsOf(f.informer.store.list()), server), label).toEqual({
          missing: [],
          extra: [],
          stale: [],
        });
        expect(diffState(f.log.replayed, server), `${label}: handler notifications`).toEqual({
          missing: [],
          extra: [],
          stale: [],
        });
        expect(f.log.duplicateAdds(), label).toEqual([]);
        for (let i = 0; i < 10; i++) {
          // Deletes the informer never watched arrive once each, as tombstones carrying the last known state.
          expect(f.log.deletes(`${NS}/cm-${50 + i}`), label).toEqual([
            { type: 'delete', key: `${NS}/cm-${50 + i}`, tombstone: true },
          ]);
          expect(f.informer.lister.get(`${NS}/cm-${i}`)?.data?.v, label).toBe('gap');
          const created = f.log.notes.values.find((n) => n.type === 'add' && n.key === `${NS}/gap-${i}`);
          expect(created, label).toMatchObject({ type: 'add', initial: false });
        }
        // A relist reports changes only: objects untouched in the gap were not notified again.
        expect(
          f.log.notes.values.filter((n) => n.key === `${NS}/cm-99`),
          label,
        ).toHaveLength(1);
      }
    } finally {
      await Promise.all(flavours.map((f) => f.manager.stop()));
    }
  });
});
