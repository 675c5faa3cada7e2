// Against a real kube-apiserver: WatchList and LIST sync, live events, the Writer's patch kinds, and the audit log
// showing that informers and readers make no direct reads. Needs WARMSTART_TEST_KUBECONFIG (an admin kubeconfig;
// the integration project's global setup provides it); WARMSTART_TEST_AUDIT_LOG enables the audit check.
import { readFile } from 'node:fs/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheReader } from './cache-reader.js';
import type { ApiError } from './errors.js';
import { deletedObject } from './handlers.js';
import { InformerManager } from './manager.js';
import { Recorder } from './testing/recorder.js';
import { ApiTransport } from './transport.js';
import type { GroupVersionResource, KubeObject } from './types.js';
import { Writer } from './writer.js';

const kubeconfigPath = process.env.WARMSTART_TEST_KUBECONFIG;
const auditLogPath = process.env.WARMSTART_TEST_AUDIT_LOG;
if (!kubeconfigPath) {
  console.warn(
    '[informer-cache] integration tests skipped: set WARMSTART_TEST_KUBECONFIG to an admin kubeconfig ' +
      '(the integration project sets it when it boots the local cluster)',
  );
}

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

describe.skipIf(!kubeconfigPath)('informer-cache against a real kube-apiserver', () => {
  const kc = new KubeConfig();
  const ns = `ic-${Date.now().toString(36)}`;
  const since = Date.now() - 1_000;
  let admin: Writer;
  let adminTransport: ApiTransport;

  beforeAll(async () => {
    kc.loadFromFile(kubeconfigPath as string);
    adminTransport = ApiTransport.fromKubeConfig(kc);
    admin = new Writer(adminTransport, { source: 'int-test-setup' });
    await admin.create(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (let i = 0; i < 30; i++) {
      await admin.create(configmaps, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace: ns, labels: { app: i % 2 === 0 ? 'even' : 'odd' } },
        data: { i: String(i) },
      });
    }
  });

  afterAll(async () => {
    await admin?.delete(namespaces, ns).catch(() => {});
    adminTransport?.close();
  });

  for (const watchList of ['auto', 'never'] as const) {
    it(`syncs by ${watchList === 'auto' ? 'WatchList' : 'paged LIST'}, then follows live changes`, async () => {
      const manager = InformerManager.fromKubeConfig(kc, {
        informers: { watchList, pageSize: 7, namespace: ns },
      });
      const notes = new Recorder<string>();
      manager.forResource(configmaps, {
        onAdd: (o, initial) => notes.push(`add:${o.metadata.name}:${initial}`),
        onUpdate: (_a, b) => notes.push(`update:${b.metadata.name}:${(b.data as Record<string, string>).i}`),
        onDelete: (o) => notes.push(`delete:${deletedObject(o).metadata.name}`),
      });
      manager.start();
      try {
        await manager.waitForSync({ timeoutMs: 30_000 });
        const reader = new CacheReader(manager);
        expect(await reader.list(configmaps, { namespace: ns })).toHaveLength(30);
        expect(await reader.list(configmaps, { labelSelector: 'app=even' })).toHaveLength(15);
        const cm0 = await reader.get(configmaps, `${ns}/cm-0`);
        expect(cm0?.metadata.managedFields).toBeUndefined();
        expect(Object.isFrozen(cm0)).toBe(true);

        const writer = new Writer(manager.transport, { source: `int-test-${watchList}` });
        await writer.patch(configmaps, `${ns}/cm-1`, {
          type: 'merge',
          patch: { data: { i: `m-${watchList}` } },
        });
        await notes.waitFor((n) => n === `update:cm-1:m-${watchList}`, 10_000);
        await writer.create(configmaps, { metadata: { name: `new-${watchList}`, namespace: ns } });
        await notes.waitFor((n) => n === `add:new-${watchList}:false`, 10_000);
        await writer.delete(configmaps, `${ns}/new-${watchList}`);
        await notes.waitFor((n) => n === `delete:new-${watchList}`, 10_000);

        const requests = manager.transport.accounting.snapshot({ source: 'informer' });
        if (watchList === 'auto') expect(requests.filter((r) => r.verb === 'list')).toEqual([]);
        else expect(requests.some((r) => r.verb === 'list' && r.code === 200)).toBe(true);
      } finally {
        await manager.stop();
      }
    });
  }

  it('sends every patch kind the API server accepts for a built-in type', async () => {
    const writer = new Writer(adminTransport, { source: 'int-test-writer' });
    const key = `${ns}/patched`;
    await writer.apply(configmaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'patched', namespace: ns },
      data: { a: '1' },
    });
    await writer.patch(configmaps, key, { type: 'merge', patch: { data: { m: '1' } } });
    await writer.patch(configmaps, key, { type: 'strategic', patch: { data: { s: '1' } } });
    const last = await writer.patch<KubeObject>(configmaps, key, {
      type: 'json',
      patch: [{ op: 'add', path: '/data/j', value: '1' }],
    });
    expect(last.data).toEqual({ a: '1', m: '1', s: '1', j: '1' });
    const conflict = await writer
      .update(configmaps, { ...last, metadata: { ...last.metadata, resourceVersion: '1' } })
      .catch((e: unknown) => e);
    expect((conflict as ApiError).isConflict).toBe(true);
  });

  it.skipIf(!auditLogPath)('leaves no direct read in the audit log', async () => {
    const manager = InformerManager.fromKubeConfig(kc, { informers: { namespace: ns } });
    manager.forResource(configmaps);
    manager.start();
    const reader = new CacheReader(manager, { timeoutMs: 30_000 });
    await reader.get(configmaps, `${ns}/cm-3`);
    await reader.list(configmaps, { labelSelector: 'app=odd' });
    await manager.stop();
    // The audit backend writes asynchronously; wait until our informer's requests show up.
    const deadline = Date.now() + 10_000;
    let mine: AuditLine[] = [];
    while (Date.now() < deadline) {
      mine = (await readAudit(auditLogPath as string)).filter(
        (e) => e.userAgent?.includes('(informer)') && Date.parse(e.requestReceivedTimestamp) >= since,
      );
      if (mine.some((e) => e.verb === 'watch')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(mine.length).toBeGreaterThan(0);
    const direct = mine.filter(
      (e) =>
        e.verb === 'get' ||
        (e.verb === 'list' && !new URL(e.requestURI, 'https://x').searchParams.has('resourceVersion')),
    );
    expect(direct).toEqual([]);
  });
});

interface AuditLine {
  readonly verb: string;
  readonly requestURI: string;
  readonly userAgent?: string;
  readonly requestReceivedTimestamp: string;
}

async function readAudit(path: string): Promise<AuditLine[]> {
  const text = await readFile(path, 'utf8');
  const out: AuditLine[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as AuditLine);
    } catch {
      // The server may be mid-write on the last line.
    }
  }
  return out;
}
