// The foundation's smoke test: a real kube-apiserver, a request as the manager's own user, and the same
// requests found in the API server's audit log, classified by DESIGN.md §7.
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, inject, it } from 'vitest';
import { readAuditLog } from './audit/audit-log.js';
import { waitFor } from './cluster/wait.js';

describe('smoke: local control plane + audit log', () => {
  it('sees the manager user create and read a ConfigMap, classified correctly', async () => {
    const host = inject('clusters')[0]!;
    const kc = new KubeConfig();
    kc.loadFromFile(host.managerKubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const since = Date.now() - 1000;
    const name = `smoke-${Date.now().toString(36)}`;
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name }, data: { k: 'v' } },
    });
    const read = await core.readNamespacedConfigMap({ namespace: 'default', name });
    expect(read.data).toEqual({ k: 'v' });
    await core.listNamespacedConfigMap({ namespace: 'default' });

    const events = await waitFor(
      'the three requests in the audit log',
      async () => {
        const all = await readAuditLog(host.auditLogPath!, { user: host.managerUser, since });
        const mine = all.filter((e) => e.objectRef?.resource === 'configmaps');
        return mine.length >= 3 ? mine : undefined;
      },
      { timeoutMs: 5_000 },
    );
    const byVerb = Object.fromEntries(events.map((e) => [e.verb, e]));
    expect(byVerb.create?.class).toBe('write');
    expect(byVerb.create?.objectRef?.namespace).toBe('default');
    expect(byVerb.get?.class).toBe('direct-get');
    expect(byVerb.get?.objectRef?.name).toBe(name);
    expect(byVerb.list?.class).toBe('direct-list');
    expect(events.every((e) => e.user.username === host.managerUser)).toBe(true);
  });

  it('runs kube-controller-manager: a deleted namespace goes away and owned objects are collected', async () => {
    const host = inject('clusters')[0]!;
    const kc = new KubeConfig();
    kc.loadFromFile(host.adminKubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const ns = `smoke-gc-${Date.now().toString(36)}`;
    await core.createNamespace({ body: { metadata: { name: ns } } });
    const owner = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: `${ns}-owner` } },
    });
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: {
        metadata: {
          name: `${ns}-owned`,
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata!.name!, uid: owner.metadata!.uid! },
          ],
        },
      },
    });
    await core.deleteNamespace({ name: ns });
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: `${ns}-owner` });
    const gone = async (read: () => Promise<unknown>): Promise<boolean> => {
      try {
        await read();
        return false;
      } catch (error) {
        return (error as { code?: number }).code === 404;
      }
    };
    await waitFor(
      'the namespace controller to finish deleting the namespace',
      () => gone(() => core.readNamespace({ name: ns })),
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    );
    await waitFor(
      'the garbage collector to delete the owned ConfigMap',
      () => gone(() => core.readNamespacedConfigMap({ namespace: 'default', name: `${ns}-owned` })),
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  });
});
