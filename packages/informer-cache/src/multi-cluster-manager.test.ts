import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { MultiClusterInformerManager } from './multi-cluster-manager.js';
import { FakeApiServer } from './testing/fake-api-server.js';
import { cm, configmaps } from './testing/fixtures.js';
import { ApiTransport } from './transport.js';

const servers: FakeApiServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('MultiClusterInformerManager', () => {
  it('keeps one manager per cluster name, each with its own informers and gates', async () => {
    const [one, two] = await Promise.all([FakeApiServer.start(), FakeApiServer.start()]);
    servers.push(one as FakeApiServer, two as FakeApiServer);
    for (const s of servers) s.addResource(configmaps);
    one?.create(configmaps, cm('in-one'));
    two?.create(configmaps, cm('in-two'));
    const multi = new MultiClusterInformerManager({ informers: { backoff: { initialMs: 5 } } });
    const kc = new KubeConfig();
    kc.loadFromString(one?.kubeConfigYaml('ignored-name') ?? '');
    const m1 = multi.forCluster('member-1', kc);
    const m2 = multi.forCluster('member-2', new ApiTransport(two?.endpoint('member-2') ?? one!.endpoint()));
    expect(multi.forCluster('member-1', kc)).toBe(m1);
    expect(multi.get('member-2')).toBe(m2);
    expect(multi.clusters()).toEqual(['member-1', 'member-2']);

    for (const m of [m1, m2]) {
      m.forResource(configmaps);
      m.start();
    }
    await Promise.all([m1.waitForSync({ timeoutMs: 5_000 }), m2.waitForSync({ timeoutMs: 5_000 })]);
    expect(
      m1
        .lister(configmaps)
        .list()
        .map((o) => o.metadata.name),
    ).toEqual(['in-one']);
    expect(
      m2
        .lister(configmaps)
        .list()
        .map((o) => o.metadata.name),
    ).toEqual(['in-two']);
    expect(m1.gates().map((g) => g.name)).toEqual(['informer:member-1/core/v1/configmaps']);

    await multi.stop('member-1');
    expect(multi.has('member-1')).toBe(false);
    expect(m1.stopped).toBe(true);
    await multi.stopAll();
    expect(multi.clusters()).toEqual([]);
  });
});
