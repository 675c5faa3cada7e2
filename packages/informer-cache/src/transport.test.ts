import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { endpointFromKubeConfig } from './endpoint.js';
import { ApiError } from './errors.js';
import { FakeApiServer } from './testing/fake-api-server.js';
import { configmaps } from './testing/fixtures.js';
import { ApiTransport, INFORMER_SOURCE, version } from './transport.js';

const servers: FakeApiServer[] = [];
const transports: ApiTransport[] = [];
afterEach(async () => {
  for (const t of transports.splice(0)) t.close();
  for (const s of servers.splice(0)) await s.close();
});

async function server(): Promise<FakeApiServer> {
  const s = await FakeApiServer.start();
  s.addResource(configmaps);
  servers.push(s);
  return s;
}

function track(t: ApiTransport): ApiTransport {
  transports.push(t);
  return t;
}

const get = (source: string, name = 'a') =>
  ({
    method: 'GET',
    verb: 'get',
    path: `/api/v1/namespaces/default/configmaps/${name}`,
    source,
    resource: 'core/v1/configmaps',
  }) as const;

describe('ApiTransport', () => {
  it('reads the server, CA and token from a client-node KubeConfig and authenticates', async () => {
    const s = await server();
    s.create(configmaps, { metadata: { name: 'a', namespace: 'default' } });
    const kc = new KubeConfig();
    kc.loadFromString(s.kubeConfigYaml('member-1'));
    const endpoint = endpointFromKubeConfig(kc);
    expect(endpoint.name).toBe('member-1');
    expect(endpoint.tls.rejectUnauthorized).toBe(false);
    const t = track(ApiTransport.fromKubeConfig(kc));
    const { body } = await t.request<{ metadata: { name: string } }>(get('ctl'));
    expect(body.metadata.name).toBe('a');
    expect(s.requests[0]?.headers.authorization).toBe('Bearer fake-token');
  });

  it('tags every request with a User-Agent naming its source', async () => {
    const s = await server();
    const t = track(new ApiTransport(s.endpoint()));
    await t.request(get('my-controller')).catch(() => {});
    await t.request(get(INFORMER_SOURCE)).catch(() => {});
    expect(s.requests.map((r) => r.headers['user-agent'])).toEqual([
      `warmstart/${version()} (my-controller)`,
      `warmstart/${version()} (informer)`,
    ]);
    expect(version()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('accounts every request by verb, resource, source and code, network failures as code 0', async () => {
    const s = await server();
    s.create(configmaps, { metadata: { name: 'a', namespace: 'default' } });
    const t = track(new ApiTransport(s.endpoint()));
    await t.request(get('ctl'));
    const missing = await t.request(get('ctl', 'missing')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).isNotFound).toBe(true);
    expect((missing as ApiError).message).toMatch(/404 NotFound: configmaps "missing" not found/);
    const deadUrl = s.url;
    await s.close();
    servers.length = 0;
    const dead = track(new ApiTransport({ ...s.endpoint(), server: deadUrl }, { accounting: t.accounting }));
    await expect(dead.request(get('ctl'))).rejects.toThrow();
    expect(t.accounting.snapshot()).toEqual([
      { cluster: 'fake', verb: 'get', resource: 'core/v1/configmaps', source: 'ctl', code: 0, count: 1 },
      { cluster: 'fake', verb: 'get', resource: 'core/v1/configmaps', source: 'ctl', code: 200, count: 1 },
      { cluster: 'fake', verb: 'get', resource: 'core/v1/configmaps', source: 'ctl', code: 404, count: 1 },
    ]);
    expect(t.accounting.count({ source: 'ctl', code: 404 })).toBe(1);
  });

  it('rate-limits controller requests with the token bucket, but not informer watches', async () => {
    const s = await server();
    const limited: string[] = [];
    const t = track(
      new ApiTransport(s.endpoint(), {
        rateLimit: { qps: 1, burst: 1 },
        metrics: { rateLimited: (labels) => limited.push(`${labels.source}:${labels.verb}`) },
      }),
    );
    const abort = new AbortController();
    await t.request(get('ctl')).catch(() => {});
    const second = t.request({ ...get('ctl'), signal: abort.signal });
    // The second controller request waits for a token; an informer watch meanwhile goes straight out.
    const watch = await t.stream({
      method: 'GET',
      verb: 'watch',
      path: '/api/v1/configmaps',
      query: { watch: true, resourceVersion: s.resourceVersion },
      source: INFORMER_SOURCE,
      resource: 'core/v1/configmaps',
      signal: abort.signal,
    });
    expect(watch.code).toBe(200);
    expect(s.requests.map((r) => r.verb)).toEqual(['get', 'watch']);
    abort.abort();
    await expect(second).rejects.toThrow();
    expect(limited).toEqual([]);
  });

  it('refuses unsupported URL schemes with a clear message', () => {
    expect(
      () => new ApiTransport({ server: 'ftp://x', name: 'x', tls: {}, headers: async () => ({}) }),
    ).toThrow(/https:\/\//);
  });
});
