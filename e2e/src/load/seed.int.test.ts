import { AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, inject, it } from 'vitest';
import { adminIdentity } from '../karmada/join.js';
import { formatProgress, seed } from './seed.js';

describe('seed', () => {
  it('creates the workloads once and resumes without duplicates', async () => {
    const host = inject('clusters')[0]!;
    const shape = {
      workloads: 300,
      namespaces: 3,
      configMapEvery: 10,
      prefix: `seed-${Date.now().toString(36)}`,
    };
    const lines: string[] = [];
    const first = await seed({
      ...shape,
      identity: adminIdentity(host),
      onProgress: (p) => lines.push(formatProgress(p)),
    });
    expect(first.total).toBe(3 + 300 + 30);
    expect(first.created + first.existed).toBe(first.total);
    expect(lines.at(-1)).toContain(`${first.total}/${first.total} objects`);

    const again = await seed({ ...shape, identity: adminIdentity(host) });
    expect(again.created).toBe(0);
    expect(again.existed).toBe(again.total);

    const kc = new KubeConfig();
    kc.loadFromFile(host.adminKubeconfig);
    const apps = kc.makeApiClient(AppsV1Api);
    const list = await apps.listNamespacedDeployment({ namespace: `${shape.prefix}-1` });
    expect(list.items).toHaveLength(100);
    expect(list.items[0]!.metadata!.managedFields?.length).toBeGreaterThan(0);
  });
});
