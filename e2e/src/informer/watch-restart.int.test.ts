// Watch continuity across a kube-apiserver restart: informers (WatchList and paged-LIST flavours) keep watching while
// the server is stopped and started again, with creates, updates and deletes before and after. Afterwards every
// store equals a fresh admin LIST object for object (resourceVersions), the handlers' notifications replay to the same
// state, and no object was added twice. Runs on a set of its own, since it restarts the API server.
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

const NS = 'continuity';
const INITIAL = 200;

describe('watch continuity across a kube-apiserver restart', () => {
  let set: LocalClusterSet;
  let admin: AdminClient;

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 1, controllerManager: false });
    admin = adminClient(set.clusters[0]!);
    await admin.writer.create(namespaces, namespaceObject(NS));
    await inParallel(INITIAL, 16, (i) =>
      admin.writer.create(configmaps, configMapObject(NS, `cm-${i}`, { v: '0' })),
    );
  }, 120_000);

  afterAll(async () => {
    admin?.close();
    await set?.down();
  });

  it('misses nothing and adds nothing twice, with changes before and after the restart', async () => {
    const cluster = set.clusters[0]!;
    const metrics = new MetricsLog();
    const flavours = (['auto', 'never'] as const).map((watchList) => {
      const manager = InformerManager.fromKubeConfig(loadKubeConfig(cluster.managerKubeconfig), {
        metrics,
        // A short backoff so the informers reconnect within a second of the server coming back.
        informers: { namespace: NS, watchList, backoff: { initialMs: 100, maxMs: 1_000 } },
      });
      const log = new HandlerLog<ConfigMap>(`continuity-${watchList}`);
      const informer: SharedInformer<ConfigMap> = manager.forResource(configmaps, log);
      return { watchList, manager, informer, log };
    });
    for (const f of flavours) f.manager.start();
    try {
      await Promise.all(flavours.map((f) => f.manager.waitForSync({ timeoutMs: 30_000 })));
      // Ten of each per round: updates of existing objects, deletes of others, creates of new ones.
      const change = async (round: number, updateFrom: number, deleteFrom: number): Promise<void> => {
        await inParallel(10, 10, async (i) => {
          await admin.writer.patch(configmaps, `${NS}/cm-${updateFrom + i}`, {
            type: 'merge',
            patch: { data: { v: String(round) } },
          });
          await admin.writer.delete(configmaps, `${NS}/cm-${deleteFrom + i}`);
          await admin.writer.create(
            configmaps,
            configMapObject(NS, `new-${round}-${i}`, { v: String(round) }),
          );
        });
      };
      // A barrier: created after a round of changes, so once a handler has seen it, it has seen the whole round
      // (one watch delivers events in resourceVersion order; a relist delivers the whole state at once).
      const barrier = async (name: string): Promise<void> => {
        await admin.writer.create(configmaps, configMapObject(NS, name));
        await Promise.all(flavours.map((f) => f.log.added(`${NS}/${name}`, 60_000)));
      };

      await change(1, 0, 100);
      await barrier('barrier-1');
      const before = flavours.map((f) => f.informer.lastSyncResourceVersion);
      const restartsBefore = metrics.count((e) => e.type === 'watchRestarted' || e.type === 'relisted');

      await cluster.restartApiserver();
      await change(2, 10, 110);
      await change(3, 0, 120); // objects updated in round 1 again: their second update must arrive too
      await barrier('barrier-2');

      // The restart reached the informers: each watch ended and was reopened (or relisted) past its old RV.
      expect(metrics.count((e) => e.type === 'watchRestarted' || e.type === 'relisted')).toBeGreaterThan(
        restartsBefore,
      );
      flavours.forEach((f, i) => {
        expect(BigInt(f.informer.lastSyncResourceVersion)).toBeGreaterThan(BigInt(before[i]!));
      });

      const server = await serverState(cluster, `/api/v1/namespaces/${NS}/configmaps`);
      expect(server.size).toBe(INITIAL + 2); // +30 created, -30 deleted, +2 barriers
      for (const f of flavours) {
        const label = `watchList=${f.watchList}`;
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
        for (let i = 100; i < 130; i++) expect(f.log.deletes(`${NS}/cm-${i}`), label).toHaveLength(1);
        for (let i = 0; i < 10; i++) {
          const v = f.informer.lister.get(`${NS}/cm-${i}`)?.data?.v;
          expect(v, label).toBe('3');
        }
      }
    } finally {
      await Promise.all(flavours.map((f) => f.manager.stop()));
    }
  });
});
