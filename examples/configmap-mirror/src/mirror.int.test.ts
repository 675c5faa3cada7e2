// The mirror against a real kube-apiserver (the suite's shared host cluster): copies, updates, repairs and
// deletes mirrors, and writes nothing once they match. Needs WARMSTART_TEST_KUBECONFIG (the global set-up).
import { randomBytes } from 'node:crypto';
import { ApiTransport, staticEndpoint, Writer } from '@warmstart/informer-cache';
import { type ControllerMetricsProvider, Manager } from '@warmstart/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigMaps, configMapMirror, MIRROR_OF } from './mirror.js';

const kubeconfig = process.env.WARMSTART_TEST_KUBECONFIG;
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' };
const suffix = randomBytes(3).toString('hex');
const from = `mirror-src-${suffix}`;
const to = `mirror-dst-${suffix}`;

/** Counts successful reconciles (controller_runtime_reconcile_total{result="success"}). */
let reconciled = 0;
const noop = { inc: () => {}, dec: () => {}, set: () => {}, observe: () => {} };
const metrics: ControllerMetricsProvider = {
  newReconcileTotalMetric: (_c, result) => (result === 'success' ? { inc: () => void reconciled++ } : noop),
  newReconcileErrorsMetric: () => noop,
  newReconcileTimeMetric: () => noop,
  newActiveWorkersMetric: () => noop,
  newMaxConcurrentReconcilesMetric: () => noop,
};

/** Resolves once `check` holds; fails after `timeoutMs` with `what`. */
async function eventually(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!kubeconfig)('configmap-mirror on a real kube-apiserver', () => {
  let admin: Writer;
  let manager: Manager;
  const stop = new AbortController();
  let running: Promise<unknown>;

  beforeAll(async () => {
    const endpoint = staticEndpoint({ path: kubeconfig, name: 'host' });
    if (!endpoint) throw new Error(`no endpoint in ${kubeconfig}`);
    admin = new Writer(new ApiTransport(endpoint), { source: 'mirror-test' });
    for (const name of [from, to]) {
      await admin.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    }
    manager = new Manager({ transport: new ApiTransport(endpoint), metrics: { controllers: metrics } });
    configMapMirror(manager, from, to);
    running = manager.run(stop.signal);
  });

  afterAll(async () => {
    stop.abort();
    expect(await running).toBe('stopped');
    for (const name of [from, to]) await admin.delete(NAMESPACES, name).catch(() => undefined);
  });

  const mirror = (name: string) => manager.informers.lister(ConfigMaps).get({ namespace: to, name });

  it('copies a ConfigMap, follows its changes, repairs a deleted mirror and removes it with its source', async () => {
    await admin.create(ConfigMaps, { metadata: { namespace: from, name: 'settings' }, data: { a: '1' } });
    await eventually(() => mirror('settings')?.data !== undefined, 'the mirror is created');
    expect(mirror('settings')?.metadata.labels?.[MIRROR_OF]).toBe(from);
    expect(mirror('settings')?.data).toEqual({ a: '1' });

    await admin.patch(ConfigMaps, `${from}/settings`, { type: 'merge', patch: { data: { a: '2' } } });
    await eventually(() => JSON.stringify(mirror('settings')?.data) === '{"a":"2"}', 'the mirror follows');

    await admin.delete(ConfigMaps, `${to}/settings`);
    await eventually(() => mirror('settings') !== undefined, 'a deleted mirror is put back');

    await admin.delete(ConfigMaps, `${from}/settings`);
    await eventually(() => mirror('settings') === undefined, 'the mirror goes with its source');
    // The mirror's own delete event reconciles its source's key once more: wait for the queue to drain.
    await eventually(() => {
      const now = manager.controllers()[0]?.status();
      return now?.queueDepth === 0 && now.inFlight === 0;
    }, 'the controller is idle');
    const [status] = manager.controllers().map((c) => c.status());
    expect(status).toMatchObject({ name: 'configmap-mirror', lastError: undefined, queueDepth: 0 });
  });

  it('writes nothing while the mirror matches', async () => {
    await admin.create(ConfigMaps, { metadata: { namespace: from, name: 'still' }, data: { k: 'v' } });
    await eventually(() => mirror('still') !== undefined, 'the mirror is created');
    const rv = mirror('still')?.metadata.resourceVersion;
    // A label change on the source is an event the controller reconciles, and finds nothing to write.
    await admin.patch(ConfigMaps, `${from}/still`, {
      type: 'merge',
      patch: { metadata: { labels: { x: 'y' } } },
    });
    await eventually(() => manager.controllers()[0]?.status().queueDepth === 0, 'the change is reconciled');
    await eventually(() => manager.controllers()[0]?.status().inFlight === 0, 'nothing in flight');
    expect(mirror('still')?.metadata.resourceVersion).toBe(rv);
  });
});
