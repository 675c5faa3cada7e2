// Read-your-writes against a real kube-apiserver: real resourceVersions, real write and DELETE answers (a Status,
// or the object still held by a finalizer), an informer that catches up, and one that is held behind (stopped) so
// the overlay alone answers. Needs WARMSTART_TEST_KUBECONFIG (the integration project's global setup provides it).
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheReader } from './cache-reader.js';
import { InformerManager } from './manager.js';
import { MutationCache } from './mutation-cache.js';
import { readYourWritesReader, recordingWriter } from './read-your-writes.js';
import { until } from './testing/recorder.js';
import { ApiTransport } from './transport.js';
import type { GroupVersionResource, KubeObject } from './types.js';
import { Writer } from './writer.js';

const kubeconfigPath = process.env.WARMSTART_TEST_KUBECONFIG;

const configmaps: GroupVersionResource = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
  kind: 'ConfigMap',
};
const namespaces: GroupVersionResource = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  namespaced: false,
  kind: 'Namespace',
};
const FINALIZER = 'warmstart.io/int-test';

describe.skipIf(!kubeconfigPath)('read-your-writes against a real kube-apiserver', () => {
  const kc = new KubeConfig();
  const ns = `ryw-${Date.now().toString(36)}`;
  let transport: ApiTransport;
  let admin: Writer;

  beforeAll(async () => {
    kc.loadFromFile(kubeconfigPath as string);
    transport = ApiTransport.fromKubeConfig(kc);
    admin = new Writer(transport, { source: 'int-test-ryw' });
    await admin.create(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  });

  afterAll(async () => {
    await admin
      ?.patch(configmaps, `${ns}/held`, { type: 'merge', patch: { metadata: { finalizers: null } } })
      .catch(() => {});
    await admin?.delete(namespaces, ns).catch(() => {});
    transport?.close();
  });

  async function synced(): Promise<{ manager: InformerManager; cache: MutationCache }> {
    const manager = InformerManager.fromKubeConfig(kc, { informers: { namespace: ns } });
    manager.forResource(configmaps);
    manager.start();
    await manager.waitForSync({ timeoutMs: 30_000 });
    return { manager, cache: new MutationCache(manager) };
  }

  it('serves each write at once, then the informer store once it has caught up', async () => {
    const { manager, cache } = await synced();
    try {
      const reader = readYourWritesReader(new CacheReader(manager), cache);
      const writer = recordingWriter(admin, cache);
      for (let i = 0; i < 20; i++) {
        const created = await writer.create(configmaps, { metadata: { name: `live-${i}`, namespace: ns } });
        // Read straight after the answer: from the overlay, or from the store if the watch event was faster.
        const read = await reader.get(configmaps, `${ns}/live-${i}`);
        expect(read?.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      }
      const informer = manager.informer(configmaps)!;
      await until(
        () => informer.store.listKeys().filter((k) => k.startsWith(`${ns}/live-`)).length === 20,
        10_000,
        'the informer has every ConfigMap',
      );
      for (let i = 0; i < 20; i++) {
        expect(await reader.get(configmaps, `${ns}/live-${i}`)).toBe(informer.store.get(`${ns}/live-${i}`));
      }
      expect(cache.size).toBe(0);
    } finally {
      await manager.stop();
    }
  });

  it('with the informer held behind, reads show our creates, updates and deletes as the server answered them', async () => {
    const { manager, cache } = await synced();
    // Stopped after its sync, the informer keeps its store and hears of nothing more: an informer lagging for ever.
    await manager.stop();
    const reader = readYourWritesReader(new CacheReader(manager), cache);
    const writer = recordingWriter(admin, cache);
    const before = (await reader.list(configmaps)).length;

    const created = await writer.create<KubeObject>(configmaps, {
      metadata: { name: 'made', namespace: ns, labels: { app: 'a' } },
      data: { v: '1' },
    });
    const patched = await writer.patch<KubeObject>(configmaps, `${ns}/made`, {
      type: 'merge',
      patch: { metadata: { labels: { app: 'b' } }, data: { v: '2' } },
    });
    expect(Number(patched.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.metadata.resourceVersion),
    );
    expect((await reader.get(configmaps, `${ns}/made`))?.data).toEqual({ v: '2' });
    expect(await reader.list(configmaps, { labelSelector: 'app=a' })).toEqual([]);
    expect((await reader.list(configmaps, { labelSelector: 'app=b' })).map((o) => o.metadata.name)).toEqual([
      'made',
    ]);

    // A plain delete: gone from reads.
    await writer.delete(configmaps, `${ns}/made`);
    expect(await reader.get(configmaps, `${ns}/made`)).toBeUndefined();
    expect(await reader.list(configmaps)).toHaveLength(before);

    // A delete held by a finalizer: the object is still there, with its deletionTimestamp.
    await writer.create(configmaps, { metadata: { name: 'held', namespace: ns, finalizers: [FINALIZER] } });
    await writer.delete(configmaps, `${ns}/held`);
    const held = await reader.get(configmaps, `${ns}/held`);
    expect(held?.metadata.deletionTimestamp).toBeDefined();
    expect(held?.metadata.managedFields).toBeUndefined();
    expect(manager.informer(configmaps)?.store.get(`${ns}/held`)).toBeUndefined();
  });
});
