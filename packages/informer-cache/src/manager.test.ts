import { afterEach, describe, expect, it } from 'vitest';
import { InformerManager, STARTS_PER_TURN } from './manager.js';
import { FakeApiServer } from './testing/fake-api-server.js';
import { ApiTransport } from './transport.js';
import type { GroupVersionResource } from './types.js';

const servers: FakeApiServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `count` distinct namespaced resources of one fake group. */
function resources(count: number): GroupVersionResource[] {
  return Array.from({ length: count }, (_, i) => ({
    group: 'example.com',
    version: 'v1',
    resource: `things${i}`,
    kind: `Thing${i}`,
    namespaced: true,
  }));
}

async function managerFor(gvrs: readonly GroupVersionResource[]) {
  const server = await FakeApiServer.start();
  servers.push(server);
  for (const gvr of gvrs) server.addResource(gvr);
  const manager = new InformerManager({ transport: new ApiTransport(server.endpoint('host')) });
  const informers = gvrs.map((gvr) => manager.forResource(gvr));
  return { manager, informers, server };
}

describe('InformerManager.start', () => {
  it('starts its informers a batch per event-loop turn, so no turn sends every first request', async () => {
    const { manager, informers } = await managerFor(resources(STARTS_PER_TURN * 2 + 3));
    const started = () => informers.filter((i) => i.isStarted).length;
    manager.start();
    expect(started()).toBe(STARTS_PER_TURN);
    await nextTurn();
    expect(started()).toBe(STARTS_PER_TURN * 2);
    await nextTurn();
    expect(started()).toBe(STARTS_PER_TURN * 2 + 3);
    await manager.waitForSync({ timeoutMs: 5_000 });
    await manager.stop();
  });

  it('starts no more informers once stopped, and an informer registered later starts at once', async () => {
    const gvrs = resources(STARTS_PER_TURN + 2);
    const { manager, informers, server } = await managerFor(gvrs.slice(0, -1));
    manager.start();
    const late = manager.forResource(gvrs.at(-1)!);
    expect(late.isStarted).toBe(true);
    await manager.stop();
    await nextTurn();
    await nextTurn();
    expect(informers.filter((i) => i.isStarted)).toHaveLength(STARTS_PER_TURN);
    // Only the first batch and the late one ever asked the server for anything.
    const listed = new Set(server.requests.map((r) => r.resource));
    expect(listed.size).toBeLessThanOrEqual(STARTS_PER_TURN + 1);
  });
});
