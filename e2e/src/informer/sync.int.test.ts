// Sync of 10,000 objects against a real kube-apiserver, and what CacheReader does around it: a read issued during
// the sync waits for it and is served from the full store; an unregistered resource fails fast with NotCachedError;
// a deadline names the resource; a resource RBAC forbids fails the read at once instead of hanging.
// Runs on a set of its own: the manager user gets list/watch on ConfigMaps only (managerAccess 'none' + one role).
import {
  CacheReader,
  CacheSyncTimeoutError,
  ForbiddenResourceError,
  InformerManager,
  NotCachedError,
} from '@warmstart/informer-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRequest } from '../cluster/admin-client.js';
import { type LocalClusterSet, LocalProvider, MANAGER_GROUP } from '../cluster/local-provider.js';
import { adminIdentity } from '../karmada/join.js';
import { inParallel } from './bulk.js';
import {
  type AdminClient,
  adminClient,
  configMapObject,
  configmaps,
  loadKubeConfig,
  namespaceObject,
  namespaces,
  secrets,
} from './fixtures.js';
import { MetricsLog } from './metrics-log.js';
import { diffState, serverState, versionsOf } from './server-state.js';

const OBJECTS = 10_000;
const NS = 'sync-10k';
const LAST = `${NS}/cm-${OBJECTS - 1}`;
// ~600 bytes of data per object, so the list has some weight (6 MB) without slowing the seeding down.
const payload = (i: number): Record<string, string> => ({
  index: String(i),
  'settings.yaml': `name: cm-${i}\n${'key: value-with-some-length\n'.repeat(20)}`,
});

describe('informer sync of 10k objects on a real kube-apiserver', () => {
  let set: LocalClusterSet;
  let admin: AdminClient;

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 1, managerAccess: 'none', controllerManager: false });
    const cluster = set.clusters[0]!;
    const id = adminIdentity(cluster);
    // Least privilege: the manager may list and watch ConfigMaps, nothing else (Secrets stay forbidden).
    const role = await adminRequest(id, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'warmstart-int-configmaps' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'] }],
    });
    expect(role.status).toBe(201);
    const binding = await adminRequest(id, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'warmstart-int-configmaps' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'warmstart-int-configmaps',
      },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: MANAGER_GROUP }],
    });
    expect(binding.status).toBe(201);

    admin = adminClient(cluster);
    await admin.writer.create(namespaces, namespaceObject(NS));
    await inParallel(OBJECTS, 32, (i) =>
      admin.writer.create(configmaps, configMapObject(NS, `cm-${i}`, payload(i), { shard: String(i % 10) })),
    );
  }, 120_000);

  afterAll(async () => {
    admin?.close();
    await set?.down();
  });

  const managerFor = (metrics?: MetricsLog): InformerManager =>
    InformerManager.fromKubeConfig(loadKubeConfig(set.clusters[0]!.managerKubeconfig), {
      ...(metrics ? { metrics } : {}),
      informers: { namespace: NS },
    });

  it('serves a read issued during the sync only after the sync, from the complete store', async () => {
    const metrics = new MetricsLog();
    const manager = managerFor(metrics);
    const informer = manager.forResource(configmaps);
    const reader = new CacheReader(manager, { timeoutMs: 60_000 });
    manager.start();
    try {
      const syncedWhenAsked = informer.hasSynced;
      const asked = performance.now();
      const [last, all] = await Promise.all([
        reader.get(configmaps, LAST),
        reader.list(configmaps, { namespace: NS }),
      ]);
      const served = performance.now();

      // It waited: the informer had not synced when the read was issued, and synced before the read resolved.
      expect(syncedWhenAsked).toBe(false);
      const synced = await metrics.waitFor((e) => e.type === 'synced', 0, 'synced');
      expect(synced.at).toBeGreaterThan(asked);
      expect(synced.at).toBeLessThanOrEqual(served);
      const waits = metrics.events.values.filter((e) => e.type === 'readerWaited');
      expect(waits.map((e) => e.type === 'readerWaited' && e.outcome)).toEqual(['served', 'served']);

      // Served right: the last object created, whole, and a list that is the full 10k (never half a list).
      expect(last?.metadata.name).toBe(`cm-${OBJECTS - 1}`);
      expect(last?.data).toEqual(payload(OBJECTS - 1));
      expect(last?.metadata.managedFields).toBeUndefined();
      expect(all).toHaveLength(OBJECTS);
      const server = await serverState(set.clusters[0]!, `/api/v1/namespaces/${NS}/configmaps`);
      expect(server.size).toBe(OBJECTS);
      expect(diffState(versionsOf(informer.store.list()), server)).toEqual({
        missing: [],
        extra: [],
        stale: [],
      });
      expect(await reader.list(configmaps, { namespace: NS, labelSelector: 'shard=3' })).toHaveLength(
        OBJECTS / 10,
      );
      const initial = metrics.events.values.find((e) => e.type === 'listCompleted');
      expect(initial).toMatchObject({ method: 'watch-list', objects: OBJECTS });
    } finally {
      await manager.stop();
    }
  });

  it('fails a read of a resource with no informer with NotCachedError, without a request', async () => {
    const manager = managerFor();
    manager.forResource(configmaps);
    manager.start();
    try {
      const error = await new CacheReader(manager).get(secrets, `${NS}/anything`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotCachedError);
      expect((error as NotCachedError).resource).toBe('core/v1/secrets');
      expect((error as Error).message).toContain('core/v1/secrets');
      expect(manager.transport.accounting.snapshot().filter((r) => r.resource === 'core/v1/secrets')).toEqual(
        [],
      );
    } finally {
      await manager.stop();
    }
  });

  it('names the resource in the deadline error of a read that waits past its timeout during the sync', async () => {
    const manager = managerFor();
    const informer = manager.forResource(configmaps);
    manager.start();
    try {
      const error = await new CacheReader(manager)
        .get(configmaps, LAST, { timeoutMs: 5 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CacheSyncTimeoutError);
      const timeout = error as CacheSyncTimeoutError;
      expect(timeout.resource).toBe('core/v1/configmaps');
      expect(timeout.cluster).toBe(manager.cluster);
      expect(timeout.message).toContain('core/v1/configmaps');
      expect(timeout.message).toContain(`"${manager.cluster}"`);
      expect(informer.hasSynced).toBe(false);
      // The informer itself carries on and syncs; only that read gave up.
      await informer.waitForSync({ timeoutMs: 60_000 });
      expect(informer.store.size).toBe(OBJECTS);
    } finally {
      await manager.stop();
    }
  });

  it('fails a read of a resource RBAC forbids at once, naming the resource, instead of hanging', async () => {
    const manager = managerFor();
    const informer = manager.forResource(secrets);
    manager.start();
    try {
      const started = performance.now();
      const error = await new CacheReader(manager)
        .get(secrets, `${NS}/anything`, { timeoutMs: 30_000 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ForbiddenResourceError);
      expect((error as ForbiddenResourceError).resource).toBe('core/v1/secrets');
      expect((error as ForbiddenResourceError).code).toBe(403);
      expect((error as Error).message).toContain('core/v1/secrets');
      // Well before the 30 s deadline: the first refused list fails the gate.
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(informer.hasSynced).toBe(false);
      expect(informer.gate.state).toBe('failed');
    } finally {
      await manager.stop();
    }
  });
});
