import { ApiTransport, InformerManager, type KubeObject, resource, Writer } from '@warmstart/informer-cache';
import { FakeApiServer, until } from '@warmstart/informer-cache/testing';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { fencedWriter, NotLeaderError } from './clients.js';
import { Controller, type ReconcileContext } from './controller.js';
import { Manager } from './manager.js';
import type { ControllerMetricsProvider, ReconcileResultLabel } from './metrics.js';

interface ConfigMap extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}
const ConfigMaps = resource<ConfigMap>({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
  kind: 'ConfigMap',
});
interface Secret extends KubeObject {
  readonly kind: 'Secret';
}
const Secrets = resource<Secret>({
  group: '',
  version: 'v1',
  resource: 'secrets',
  namespaced: true,
  kind: 'Secret',
});

/** Counts controller_runtime_reconcile_total by result. */
function countingMetrics(): { provider: ControllerMetricsProvider; totals: Map<string, number> } {
  const totals = new Map<string, number>();
  const noop = { inc: () => {}, dec: () => {}, set: () => {}, observe: () => {} };
  return {
    totals,
    provider: {
      newReconcileTotalMetric: (c: string, r: ReconcileResultLabel) => ({
        inc: () => totals.set(`${c}/${r}`, (totals.get(`${c}/${r}`) ?? 0) + 1),
      }),
      newReconcileErrorsMetric: () => noop,
      newReconcileTimeMetric: () => noop,
      newActiveWorkersMetric: () => noop,
      newMaxConcurrentReconcilesMetric: () => noop,
    },
  };
}

describe('Controller', () => {
  let server: FakeApiServer;
  let stop: AbortController;
  let manager: Manager;
  let running: Promise<unknown>;
  const metrics = countingMetrics();

  beforeEach(async () => {
    server = await FakeApiServer.start();
    server.addResource(ConfigMaps);
    server.addResource(Secrets);
    stop = new AbortController();
    manager = new Manager({
      transport: new ApiTransport(server.endpoint()),
      metrics: { controllers: metrics.provider },
      gracefulShutdownTimeoutMs: 5_000,
    });
  });

  afterEach(async () => {
    stop.abort();
    await running;
    await server.close();
  });

  it('reconciles the for() resource by key, and keys from owns() and watches()', async () => {
    server.create(ConfigMaps, { metadata: { name: 'a', namespace: 'ns' } });
    const seen: string[] = [];
    new Controller(manager, { name: 'mirror', concurrency: 2 })
      .for(ConfigMaps)
      .owns(Secrets)
      .watches(Secrets, (s) => (s.metadata.labels?.for ? `ns/${s.metadata.labels.for}` : undefined))
      .reconcile((key) => {
        seen.push(key);
      });
    running = manager.run(stop.signal);
    await until(() => seen.includes('ns/a'), 5_000, 'initial list reconciled');
    server.create(Secrets, {
      metadata: {
        name: 's1',
        namespace: 'ns',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u', controller: true }],
      },
    });
    server.create(Secrets, { metadata: { name: 's2', namespace: 'ns', labels: { for: 'mapped' } } });
    await until(
      () => seen.includes('ns/owner') && seen.includes('ns/mapped'),
      5_000,
      'owned and mapped keys',
    );
    // A delete delivers the last state (a tombstone is unwrapped the same way).
    seen.length = 0;
    server.remove(ConfigMaps, 'ns/a');
    await until(() => seen.includes('ns/a'), 5_000, 'delete reconciled');
  });

  it('unwraps a tombstone from a relist and maps the last known state', async () => {
    server.create(ConfigMaps, { metadata: { name: 't', namespace: 'ns', labels: { owner: 'x' } } });
    const seen: string[] = [];
    const controller = new Controller(manager, { name: 'tombstones' })
      .for(ConfigMaps, { map: (o) => `owner/${o.metadata.labels?.owner}` })
      .reconcile((key) => {
        seen.push(key);
      });
    running = manager.run(stop.signal);
    await until(() => seen.includes('owner/x'), 5_000, 'initial list reconciled');
    await server.waitForWatch(ConfigMaps);
    await until(() => controller.status().inFlight === 0, 5_000, 'idle');
    seen.length = 0;
    // The delete happens while the watch is stalled and history is compacted: the relist finds it missing
    // and delivers a DeletedFinalStateUnknown, whose last state the map function still reads.
    server.stallWatches();
    server.remove(ConfigMaps, 'ns/t');
    server.compact();
    server.closeWatches();
    await until(() => seen.includes('owner/x'), 5_000, 'the tombstone mapped to its key');
  });

  it('puts initial-list items behind a change made meanwhile', async () => {
    for (let i = 0; i < 20; i++)
      server.create(ConfigMaps, { metadata: { name: `old-${i}`, namespace: 'ns' } });
    const seen: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    new Controller(manager, { name: 'priorities' }).for(ConfigMaps).reconcile(async (key) => {
      seen.push(key);
      await gate;
    });
    running = manager.run(stop.signal);
    // One worker holds the first initial-list key; a change made now must be handed out before the rest.
    await until(() => seen.length === 1, 5_000, 'the first key in flight');
    await until(() => manager.controllers()[0]?.status().queueDepth === 19, 5_000, 'the backlog queued');
    server.create(ConfigMaps, { metadata: { name: 'fresh', namespace: 'ns' } });
    await until(() => manager.controllers()[0]?.status().queueDepth === 20, 5_000, 'the change queued');
    release();
    await until(() => seen.length === 21, 5_000, 'everything reconciled');
    expect(seen[1]).toBe('ns/fresh');
  });

  it('requeues after the asked delay and counts results under controller-runtime names', async () => {
    server.create(ConfigMaps, { metadata: { name: 'r', namespace: 'ns' } });
    let runs = 0;
    const controller = new Controller(manager, { name: 'requeuer' }).for(ConfigMaps).reconcile(() => {
      runs++;
      return runs < 3 ? { requeueAfter: 10 } : undefined;
    });
    running = manager.run(stop.signal);
    await until(() => runs >= 3, 5_000, 'three runs');
    expect(metrics.totals.get('requeuer/requeue_after')).toBe(2);
    await until(() => metrics.totals.get('requeuer/success') === 1, 5_000, 'one success');
    expect(controller.status()).toMatchObject({ name: 'requeuer', started: true, lastError: undefined });
  });

  it('applies the error policy and shows the last error in status()', async () => {
    server.create(ConfigMaps, { metadata: { name: 'bad', namespace: 'ns' } });
    let runs = 0;
    const controller = new Controller(manager, {
      name: 'failing',
      errorPolicy: (_error, _key, { retries }) => (retries === 0 ? { requeueAfter: 5 } : 'forget'),
    })
      .for(ConfigMaps)
      .reconcile(() => {
        runs++;
        throw new Error('boom');
      });
    running = manager.run(stop.signal);
    await until(() => runs === 2, 5_000, 'a second run after the policy delay');
    expect(controller.status().lastError).toMatchObject({ key: 'ns/bad', message: 'boom' });
    expect(metrics.totals.get('failing/error')).toBe(2);
  });

  it('lets a predicate drop events and hands reconcile a fenced writer', async () => {
    server.create(ConfigMaps, { metadata: { name: 'p', namespace: 'ns' } });
    const seen: string[] = [];
    let ctx: ReconcileContext | undefined;
    new Controller(manager, { name: 'filtered' })
      .for(ConfigMaps, { predicates: { update: () => false } })
      .reconcile((key, c) => {
        seen.push(key);
        ctx = c;
      });
    running = manager.run(stop.signal);
    await until(() => seen.length === 1, 5_000, 'the add');
    server.update(ConfigMaps, { metadata: { name: 'p', namespace: 'ns', labels: { x: 'y' } } });
    server.create(ConfigMaps, { metadata: { name: 'q', namespace: 'ns' } });
    await until(() => seen.includes('ns/q'), 5_000, 'the second add');
    expect(seen).toEqual(['ns/p', 'ns/q']);
    expect(await ctx?.reader.get(ConfigMaps, 'ns/q')).toBeDefined();
  });
});

describe('watches on another cluster', () => {
  it('maps events of a member cluster informer, tombstones unwrapped, and removes its handler on stop', async () => {
    const host = await FakeApiServer.start();
    const member = await FakeApiServer.start();
    host.addResource(ConfigMaps);
    member.addResource(Secrets);
    const stop = new AbortController();
    const manager = new Manager({ transport: new ApiTransport(host.endpoint()) });
    const members = new InformerManager({
      transport: new ApiTransport({ ...member.endpoint(), name: 'member' }),
    });
    const secrets = members.forResource(Secrets);
    const seen: string[] = [];
    const controller = new Controller(manager, { name: 'drift' })
      .for(ConfigMaps)
      .watches(secrets, (s) => s.metadata.labels?.work, { predicates: { create: (_o, initial) => !initial } })
      .reconcile((key) => {
        seen.push(key);
      });
    members.start(stop.signal);
    const running = manager.run(stop.signal);
    await secrets.waitForSync({ timeoutMs: 5_000 });
    member.create(Secrets, { metadata: { name: 's', namespace: 'ns', labels: { work: 'es/w1' } } });
    await until(() => seen.includes('es/w1'), 5_000, 'a member add mapped to its Work');
    // An update that drops the label maps through the old object: the Work must hear of it.
    seen.length = 0;
    member.update(Secrets, { metadata: { name: 's', namespace: 'ns', labels: {} } });
    await until(() => seen.includes('es/w1'), 5_000, 'an update out of the mapping');
    // A delete the member's informer only sees on relist is a tombstone; the map gets its last state.
    member.create(Secrets, { metadata: { name: 't', namespace: 'ns', labels: { work: 'es/w2' } } });
    await until(() => secrets.store.get('ns/t') !== undefined, 5_000, 'the member cache has t');
    await member.waitForWatch(Secrets);
    seen.length = 0;
    member.stallWatches();
    member.remove(Secrets, 'ns/t');
    member.compact();
    member.closeWatches();
    await until(() => seen.includes('es/w2'), 5_000, 'the tombstone mapped to its Work');
    expect(secrets.hasHandler('drift')).toBe(true);
    stop.abort();
    await running;
    expect(secrets.hasHandler('drift')).toBe(false);
    expect(controller.status().lastError).toBeUndefined();
    await members.stop();
    await host.close();
    await member.close();
  });
});

describe('typed reads', () => {
  it('types a read by its descriptor and refuses resources the controller did not register', () => {
    // Compile-time only: the function is never called.
    const build = (manager: Manager) =>
      new Controller(manager, { name: 'typed' })
        .for(ConfigMaps)
        .reads(Secrets)
        .reconcile(async (key, { reader }) => {
          const cm = await reader.get(ConfigMaps, key);
          expectTypeOf(cm).toEqualTypeOf<ConfigMap | undefined>();
          expectTypeOf(await reader.list(Secrets)).toEqualTypeOf<Secret[]>();
          const Leases = resource<KubeObject & { readonly kind: 'Lease'; readonly spec?: unknown }>({
            group: 'coordination.k8s.io',
            version: 'v1',
            resource: 'leases',
            namespaced: true,
            kind: 'Lease',
          });
          // @ts-expect-error Leases is not registered by this controller: NotCachedError, caught at compile time.
          await reader.get(Leases, key);
        });
    expect(typeof build).toBe('function');
  });
});

describe('fenced writes', () => {
  it('refuses to write while not leading', async () => {
    const server = await FakeApiServer.start();
    server.addResource(ConfigMaps);
    const manager = new Manager({ transport: new ApiTransport(server.endpoint()) });
    let leading = true;
    const writer = fencedWriter(new Writer(manager.informers.transport, { source: 't' }), () => leading);
    await writer.create(ConfigMaps, { metadata: { name: 'ok', namespace: 'ns' } });
    leading = false;
    await expect(
      writer.create(ConfigMaps, { metadata: { name: 'no', namespace: 'ns' } }),
    ).rejects.toBeInstanceOf(NotLeaderError);
    expect(server.get(ConfigMaps, 'ns/no')).toBeUndefined();
    await manager.informers.stop();
    await server.close();
  });
});
