// What the API server saw (DESIGN.md §7): thousands of CacheReader get/list/byIndex calls, many issued before the
// informers synced, leave no `get` and no `list` without resourceVersion from the manager's user in the audit log.
// The same count over a FallbackCacheReader's reads finds them, so the measurement can see direct reads.
// Uses the shared cluster set; the files of the integration project run one at a time, so the time window holds
// only this file's requests.

import { readFileSync } from 'node:fs';
import { CacheReader, FallbackCacheReader, InformerManager } from '@warmstart/informer-cache';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readAuditLog, summarize } from '../audit/audit-log.js';
import { adminRequest } from '../cluster/admin-client.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { kubeconfigIdentity } from '../karmada/join.js';
import { inParallel } from './bulk.js';
import {
  type AdminClient,
  adminClient,
  configMapObject,
  configmaps,
  loadKubeConfig,
  namespaceObject,
  namespaces,
  uniqueName,
} from './fixtures.js';

const OBJECTS = 300;
const READS = 5_000;
const APPS = ['a', 'b', 'c'];

/**
 * Audit events are written when responses complete, a moment after the client has its answer. A marker request
 * made now as the manager's user is logged after everything the manager finished before it.
 */
async function auditBarrier(cluster: ClusterInfo): Promise<void> {
  const marker = `audit-barrier-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  await adminRequest(kubeconfigIdentity(cluster, cluster.managerKubeconfig), 'GET', `/version?${marker}`);
  await waitFor(
    'the audit barrier in the audit log',
    () => readFileSync(cluster.auditLogPath!, 'utf8').includes(marker),
    {
      timeoutMs: 10_000,
      intervalMs: 20,
    },
  );
}

describe('no direct reads in the audit log', () => {
  const cluster = inject('clusters')[0]!;
  const ns = uniqueName('no-direct');
  let admin: AdminClient;

  beforeAll(async () => {
    admin = adminClient(cluster);
    await admin.writer.create(namespaces, namespaceObject(ns));
    await inParallel(OBJECTS, 16, (i) =>
      admin.writer.create(
        configmaps,
        configMapObject(ns, `cm-${i}`, { i: String(i) }, { app: APPS[i % 3]! }),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await admin?.writer.delete(namespaces, ns).catch(() => undefined);
    admin?.close();
  });

  it(`${READS} CacheReader reads, during and after the sync, make no get and no list without resourceVersion`, async () => {
    expect(cluster.auditLogPath).toBeTruthy();
    const since = Date.now();
    const manager = InformerManager.fromKubeConfig(loadKubeConfig(cluster.managerKubeconfig), {
      informers: { namespace: ns },
    });
    manager.forResource(configmaps, undefined, {
      indexers: { byApp: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) },
    });
    manager.forResource(namespaces);
    const reader = new CacheReader(manager, { timeoutMs: 30_000 });
    manager.start();
    let wrong = 0;
    let beforeSync = 0;
    try {
      await inParallel(READS, 200, async (i) => {
        if (!manager.hasSynced(configmaps)) beforeSync++;
        const n = i % OBJECTS;
        switch (i % 5) {
          case 0:
          case 1: {
            const o = await reader.get(configmaps, { namespace: ns, name: `cm-${n}` });
            if (o?.data?.i !== String(n)) wrong++;
            return;
          }
          case 2: {
            const missing = await reader.get(configmaps, `${ns}/absent-${n}`);
            if (missing !== undefined) wrong++;
            return;
          }
          case 3: {
            const app = APPS[n % 3]!;
            const listed = await reader.list(configmaps, {
              namespace: ns,
              labelSelector: `app=${app}`,
            });
            if (listed.length !== OBJECTS / 3) wrong++;
            return;
          }
          default: {
            const byIndex = await reader.byIndex(configmaps, 'byApp', APPS[n % 3]!);
            const ns0 = await reader.get(namespaces, ns);
            if (byIndex.length !== OBJECTS / 3 || ns0 === undefined) wrong++;
          }
        }
      });
    } finally {
      await manager.stop();
    }
    expect(wrong).toBe(0);
    expect(beforeSync).toBeGreaterThan(0);

    await auditBarrier(cluster);
    const events = await readAuditLog(cluster.auditLogPath!, {
      user: cluster.managerUser,
      since,
      until: Date.now(),
    });
    const summary = summarize(events);
    // The informers are in the window (so the filter sees the manager's requests)...
    expect(summary.byClass.watch).toBeGreaterThanOrEqual(2);
    // ...and nothing else reads: no get of a resource (the barrier's GET /version is not one), no list without
    // resourceVersion, no write.
    expect(events.filter((e) => e.class === 'direct-get').map((e) => e.requestURI)).toEqual([]);
    expect(events.filter((e) => e.class === 'direct-list').map((e) => e.requestURI)).toEqual([]);
    expect(summary.directReads).toBe(0);
    expect(summary.writes).toBe(0);
  });

  it('finds the direct reads a FallbackCacheReader makes (the measurement can see them)', async () => {
    const since = Date.now();
    const manager = InformerManager.fromKubeConfig(loadKubeConfig(cluster.managerKubeconfig), {
      informers: { namespace: ns },
    });
    manager.forResource(configmaps); // registered, never started: the fallback reads through
    const fallback = new FallbackCacheReader(manager, new CacheReader(manager));
    try {
      for (let i = 0; i < 3; i++) {
        expect((await fallback.get(configmaps, `${ns}/cm-${i}`))?.data?.i).toBe(String(i));
      }
      expect(await fallback.list(configmaps, { namespace: ns, labelSelector: 'app=a' })).toHaveLength(
        OBJECTS / 3,
      );
    } finally {
      await manager.stop();
    }
    expect(fallback.directReads).toBe(4);

    await auditBarrier(cluster);
    const events = await readAuditLog(cluster.auditLogPath!, {
      user: cluster.managerUser,
      since,
      until: Date.now(),
    });
    const summary = summarize(events);
    expect(summary.byClass['direct-get']).toBe(3);
    expect(summary.byClass['direct-list']).toBe(1);
    expect(summary.directReads).toBe(fallback.directReads);
  });
});
