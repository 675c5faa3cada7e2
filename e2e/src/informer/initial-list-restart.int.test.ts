// A kube-apiserver that dies during an informer's initial list (issue 9): each informer reads through a proxy that
// hands it the server's bytes at 1 MB/s, so listing ~12 MB of ConfigMaps takes seconds; once part of the list has
// arrived, and before the informer has synced, the API server is killed (no graceful shutdown, so the response is
// cut off, not finished) and started again. Both initial-sync methods (WatchList and LIST) must list again, end
// with a store equal to the server's state, notify each object once, and the audit log must show no direct read.
import { InformerManager, type SharedInformer } from '@warmstart/informer-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDirectRead, readAuditLog } from '../audit/audit-log.js';
import { type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import { type ThrottledProxy, throttledProxy } from '../cluster/throttled-proxy.js';
import { waitFor } from '../cluster/wait.js';
import { auditBarrier } from '../restart/scenario.js';
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

const NS = 'initial-list-restart';
const OBJECTS = 3_000;
// ~4 KB of data per ConfigMap: ~12 MB per list, more than loopback socket buffers hold, so the server cannot have
// written the whole response before it dies.
const PAYLOAD = 'x'.repeat(4_000);
const BYTES_PER_SECOND = 1_000_000;
// Part of the list (not just the TLS handshake and headers) has reached the informer.
const INTERRUPT_AFTER_BYTES = 1_000_000;

describe('a kube-apiserver restart during the initial list', () => {
  let set: LocalClusterSet;
  let admin: AdminClient;
  const proxies: ThrottledProxy[] = [];

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 1, controllerManager: false });
    admin = adminClient(set.clusters[0]!);
    await admin.writer.create(namespaces, namespaceObject(NS));
    await inParallel(OBJECTS, 32, (i) =>
      admin.writer.create(configmaps, configMapObject(NS, `cm-${i}`, { v: '0', payload: PAYLOAD })),
    );
  }, 300_000);

  afterAll(async () => {
    for (const p of proxies) p.close();
    admin?.close();
    await set?.down();
  });

  it('lists again, ends equal to the server, adds nothing twice and reads nothing directly', {
    timeout: 240_000,
  }, async () => {
    const cluster = set.clusters[0]!;
    const since = Date.now();
    const flavours = await Promise.all(
      (['auto', 'never'] as const).map(async (watchList) => {
        const proxy = await throttledProxy(cluster.server, BYTES_PER_SECOND);
        proxies.push(proxy);
        const metrics = new MetricsLog();
        const manager = InformerManager.fromKubeConfig(loadKubeConfig(cluster.managerKubeconfig, proxy.url), {
          metrics,
          informers: { namespace: NS, watchList, backoff: { initialMs: 100, maxMs: 1_000 } },
        });
        const log = new HandlerLog<ConfigMap>(`initial-list-${watchList}`);
        const informer: SharedInformer<ConfigMap> = manager.forResource(configmaps, log);
        return { watchList, proxy, metrics, manager, informer, log };
      }),
    );
    for (const f of flavours) f.manager.start();
    try {
      await waitFor(
        'both informers to be part-way through their initial list',
        () => flavours.every((f) => f.proxy.downstreamBytes() >= INTERRUPT_AFTER_BYTES) || undefined,
        { timeoutMs: 60_000, intervalMs: 20 },
      );
      for (const f of flavours) expect(f.informer.hasSynced, `watchList=${f.watchList}`).toBe(false);
      // graceMs 0: SIGKILL, as a crash or an OOM kill would; a graceful stop would let a LIST finish first.
      await cluster.restartApiserver({ graceMs: 0 });
      const restarted = performance.now();

      // Changes made while the informers list again must arrive too (in the list or by watch).
      await inParallel(10, 10, async (i) => {
        await admin.writer.patch(configmaps, `${NS}/cm-${i}`, { type: 'merge', patch: { data: { v: '1' } } });
        await admin.writer.delete(configmaps, `${NS}/cm-${100 + i}`);
        await admin.writer.create(configmaps, configMapObject(NS, `new-${i}`, { v: '1' }));
      });
      await admin.writer.create(configmaps, configMapObject(NS, 'barrier'));
      await Promise.all(flavours.map((f) => f.log.added(`${NS}/barrier`, 120_000)));

      const server = await serverState(cluster, `/api/v1/namespaces/${NS}/configmaps`);
      expect(server.size).toBe(OBJECTS + 1);
      for (const f of flavours) {
        const label = `watchList=${f.watchList}`;
        expect(f.informer.hasSynced, label).toBe(true);
        // The first initial sync was cut off, and the one sync that completed completed after the restart. A broken
        // LIST is retried after a backoff (a relist for reason 'error'). A broken WatchList either does the same (the
        // fallback LIST found the server still down) or falls straight back to a paged LIST that the restarted server
        // serves (client-go's "making progress is better than deadlocking"); which one depends on how long the
        // proxy took to drain what it had buffered, so both are accepted, and nothing else is.
        const relists = f.metrics.events.values.filter((e) => e.type === 'relisted');
        const completed = f.metrics.events.values.filter((e) => e.type === 'listCompleted');
        expect(completed, label).toHaveLength(1);
        const reasons = relists.map((e) => (e.type === 'relisted' ? e.reason : ''));
        const method = completed[0]!.type === 'listCompleted' ? completed[0]!.method : undefined;
        const retried = reasons.includes('error');
        const fellBack = f.watchList === 'auto' && method === 'list';
        expect(
          retried || fellBack,
          `${label}: relisted for ${reasons.join(', ')}; completed by ${method}`,
        ).toBe(true);
        expect(completed[0]!.at, label).toBeGreaterThan(restarted);

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
      }

      await auditBarrier(cluster);
      const requests = await readAuditLog(cluster.auditLogPath!, { user: cluster.managerUser, since });
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((e) => isDirectRead(e.class))).toEqual([]);
    } finally {
      await Promise.all(flavours.map((f) => f.manager.stop()));
    }
  });
});
