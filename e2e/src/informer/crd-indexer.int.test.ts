// A CRD informer on a real kube-apiserver: a small CRD of our own, an index function, index correctness under
// updates (values moving between index buckets, buckets emptying) and deletes, and the transform applied before any
// handler sees an object (the server's objects carry managedFields; what handlers and readers get does not).
// Uses the shared cluster set: it restarts nothing.
import {
  ApiError,
  CacheReader,
  InformerManager,
  type KubeObject,
  type KubeObjectInput,
  resource,
  stripManagedFields,
} from '@warmstart/informer-cache';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminRequest } from '../cluster/admin-client.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity } from '../karmada/join.js';
import { inParallel } from './bulk.js';
import {
  type AdminClient,
  adminClient,
  loadKubeConfig,
  namespaceObject,
  namespaces,
  uniqueName,
} from './fixtures.js';
import { HandlerLog } from './handler-log.js';
import { diffState, serverState, versionsOf } from './server-state.js';

const GROUP = 'int.warmstart.dev';
const widgets = resource<Widget>({
  group: GROUP,
  version: 'v1',
  resource: 'widgets',
  namespaced: true,
  kind: 'Widget',
});
type Widget = KubeObject & {
  readonly spec?: { readonly color?: string; readonly size?: number; readonly payload?: string };
};

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  color: { type: 'string' },
                  size: { type: 'integer' },
                  payload: { type: 'string' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

const COLORS = ['red', 'green', 'blue'];
const widget = (ns: string, name: string, color: string, size: number): KubeObjectInput => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'Widget',
  metadata: { name, namespace: ns },
  spec: { color, size, payload: 'x'.repeat(512) },
});

/** color -> sorted keys, computed from the server's objects. */
async function serverColors(cluster: Parameters<typeof adminIdentity>[0], ns: string) {
  const res = await adminRequest(adminIdentity(cluster), 'GET', `/apis/${GROUP}/v1/namespaces/${ns}/widgets`);
  expect(res.status).toBe(200);
  const items = (JSON.parse(res.body) as { items: Widget[] }).items;
  const byColor = new Map<string, string[]>();
  for (const w of items) {
    const color = w.spec?.color;
    if (color === undefined) continue;
    byColor.set(color, [...(byColor.get(color) ?? []), `${ns}/${w.metadata.name}`].sort());
  }
  return { items, byColor };
}

describe('CRD informer with an index function and a transform', () => {
  const cluster = inject('clusters')[0]!;
  const ns = uniqueName('widgets');
  let admin: AdminClient;

  beforeAll(async () => {
    admin = adminClient(cluster);
    const id = adminIdentity(cluster);
    const created = await adminRequest(
      id,
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      CRD,
    );
    expect([201, 409]).toContain(created.status);
    await waitFor(
      `CRD widgets.${GROUP} Established`,
      async () => {
        const res = await adminRequest(
          id,
          'GET',
          `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${GROUP}`,
        );
        const crd = JSON.parse(res.body) as { status?: { conditions?: { type: string; status: string }[] } };
        return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    await admin.writer.create(namespaces, namespaceObject(ns));
    // The CRD's REST endpoint can lag Established by a moment; retry the first create until it is served.
    await waitFor(
      'the widgets endpoint to accept a create',
      () =>
        admin.writer.create(widgets, widget(ns, 'w-0', COLORS[0]!, 0)).then(
          () => true,
          (error: unknown) => {
            if (error instanceof ApiError && error.isAlreadyExists) return true;
            throw error;
          },
        ),
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    await inParallel(29, 10, (i) =>
      admin.writer.create(widgets, widget(ns, `w-${i + 1}`, COLORS[(i + 1) % 3]!, i + 1)),
    );
  }, 120_000);

  afterAll(async () => {
    await admin?.writer.delete(namespaces, ns).catch(() => undefined);
    await adminRequest(
      adminIdentity(cluster),
      'DELETE',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${GROUP}`,
    ).catch(() => undefined);
    admin?.close();
  });

  it('keeps the index exact under updates and deletes, and hands handlers transformed objects', async () => {
    const manager = InformerManager.fromKubeConfig(loadKubeConfig(cluster.managerKubeconfig), {
      informers: { namespace: ns },
    });
    const log = new HandlerLog<Widget>('widgets');
    let transformed = 0;
    const informer = manager.forResource(widgets, log, {
      indexers: { byColor: (w) => (w.spec?.color ? [w.spec.color] : []) },
      // Drop managedFields (as the default does) and the payload, which this controller never reads.
      transform: (o) => {
        transformed++;
        const stripped = stripManagedFields(o) as Widget;
        if (stripped.spec?.payload === undefined) return stripped;
        const { payload: _dropped, ...spec } = stripped.spec;
        return { ...stripped, spec };
      },
    });
    manager.start();
    const reader = new CacheReader(manager, { timeoutMs: 30_000 });
    const expectIndexMatchesServer = async (): Promise<void> => {
      const server = await serverColors(cluster, ns);
      expect(informer.store.listIndexValues('byColor').sort()).toEqual([...server.byColor.keys()].sort());
      for (const [color, keys] of server.byColor) {
        expect(informer.store.indexKeys('byColor', color).sort(), color).toEqual(keys);
        const objects = await reader.byIndex(widgets, 'byColor', color);
        expect(
          objects.every(
            (w) => w.spec?.color === color && informer.store.get(`${ns}/${w.metadata.name}`) === w,
          ),
        ).toBe(true);
      }
      expect(
        diffState(
          versionsOf(informer.store.list()),
          await serverState(cluster, `/apis/${GROUP}/v1/namespaces/${ns}/widgets`),
        ),
      ).toEqual({ missing: [], extra: [], stale: [] });
      // What the server holds still has what the transform dropped.
      expect(server.items[0]?.metadata.managedFields?.length).toBeGreaterThan(0);
      expect(server.items[0]?.spec?.payload).toHaveLength(512);
    };
    try {
      await manager.waitForSync({ timeoutMs: 30_000 });
      expect(informer.store.size).toBe(30);
      await expectIndexMatchesServer();

      // Recolour six (red and green become yellow), delete five, create five; a purple one that turns red empties
      // the purple bucket again.
      await admin.writer.create(widgets, widget(ns, 'w-purple', 'purple', 99));
      await log.added(`${ns}/w-purple`, 10_000);
      expect(informer.store.indexKeys('byColor', 'purple')).toEqual([`${ns}/w-purple`]);
      await inParallel(6, 6, (i) =>
        admin.writer.patch(widgets, `${ns}/w-${i}`, { type: 'merge', patch: { spec: { color: 'yellow' } } }),
      );
      await inParallel(5, 5, (i) => admin.writer.delete(widgets, `${ns}/w-${10 + i}`));
      await inParallel(5, 5, (i) =>
        admin.writer.create(widgets, widget(ns, `w-new-${i}`, COLORS[i % 3]!, 100 + i)),
      );
      await admin.writer.patch(widgets, `${ns}/w-purple`, {
        type: 'merge',
        patch: { spec: { color: 'red' } },
      });
      await admin.writer.create(widgets, widget(ns, 'barrier', 'black', 0));
      await log.added(`${ns}/barrier`, 30_000);

      expect(informer.store.listIndexValues('byColor')).not.toContain('purple');
      expect(informer.store.indexKeys('byColor', 'yellow')).toHaveLength(6);
      for (let i = 0; i < 5; i++) expect(informer.store.get(`${ns}/w-${10 + i}`)).toBeUndefined();
      await expectIndexMatchesServer();

      // The transform ran before every handler call: no handler ever saw managedFields or the payload.
      expect(log.objects.length).toBeGreaterThanOrEqual(30 + 1 + 6 + 5 + 1 + 1);
      expect(transformed).toBeGreaterThanOrEqual(log.objects.length);
      for (const o of log.objects) {
        expect(o.metadata.managedFields).toBeUndefined();
        expect(o.spec?.payload).toBeUndefined();
        expect(Object.isFrozen(o) && Object.isFrozen(o.metadata)).toBe(true);
      }
      expect(log.duplicateAdds()).toEqual([]);
    } finally {
      await manager.stop();
    }
  });
});
