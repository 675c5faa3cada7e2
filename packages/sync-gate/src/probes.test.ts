import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listenProbes, type ProbeServer } from './probe-server.js';
import { createProbeHandler, formatDuration } from './probes.js';
import { Readiness } from './readiness.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');
let server: ProbeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.useRealTimers();
});

// A lag source the test controls, so /livez results do not depend on the machine's load.
function fakeLag(initial = 0) {
  let value = initial;
  return {
    lagMs: () => value,
    set: (ms: number) => {
      value = ms;
    },
  };
}

async function get(path: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server!.url}${path}`, { ...init, signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: await res.text() };
}

describe('probe server', () => {
  it('listens on 127.0.0.1 with port 0 and reports the real address', async () => {
    server = await listenProbes({ host: '127.0.0.1', port: 0, eventLoopLag: fakeLag() });
    expect(server.address.address).toBe('127.0.0.1');
    expect(server.address.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.address.port}`);
    expect(await get('/metrics')).toMatchObject({ status: 404 });
    await server.close();
    await expect(server.close()).resolves.toBeUndefined();
    await expect(fetch(`${server.url}/livez`)).rejects.toThrow();
    server = undefined;
  });
});

describe('/livez', () => {
  it('is healthy right after listening with the real event-loop monitor', async () => {
    server = await listenProbes({ host: '127.0.0.1', port: 0 });
    expect(await get('/livez?verbose')).toEqual({
      status: 200,
      body: '[+]ping ok\n[+]event-loop-lag ok\nlivez check passed\n',
    });
  });

  it('passes while the event-loop lag is under the bound, whatever the gates say', async () => {
    const readiness = new Readiness();
    readiness.gate('informer:host/v1/pods').fail(new Error('forbidden'));
    server = await listenProbes({ host: '127.0.0.1', port: 0, readiness, eventLoopLag: fakeLag(40) });
    expect(await get('/livez')).toEqual({ status: 200, body: 'ok' });
    expect(await get('/livez?verbose')).toEqual({
      status: 200,
      body: '[+]ping ok\n[+]event-loop-lag ok\nlivez check passed\n',
    });
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok' });
  });

  it('fails with 503 and the reason when the lag exceeds the bound; excluding the check passes', async () => {
    const lag = fakeLag(7300);
    server = await listenProbes({ host: '127.0.0.1', port: 0, eventLoopLag: lag, maxEventLoopLagMs: 5000 });
    expect(await get('/livez')).toEqual({
      status: 503,
      body: '[+]ping ok\n[-]event-loop-lag failed: event loop lagged 7300 ms, over the 5000 ms bound\nlivez check failed\n',
    });
    expect(await get('/livez?exclude=event-loop-lag&verbose')).toEqual({
      status: 200,
      body: '[+]ping ok\n[+]event-loop-lag excluded: ok\nlivez check passed\n',
    });
    expect(await get('/livez/event-loop-lag')).toMatchObject({ status: 503 });
    expect(await get('/livez/ping')).toEqual({ status: 200, body: 'ok' });
    lag.set(10);
    expect(await get('/livez')).toEqual({ status: 200, body: 'ok' });
  });

  it('runs extra liveness checks and reports one that throws', async () => {
    server = await listenProbes({
      host: '127.0.0.1',
      port: 0,
      eventLoopLag: fakeLag(),
      livezChecks: [
        { name: 'watchdog', check: () => undefined },
        {
          name: 'broken',
          check: () => {
            throw new Error('bug\nin check');
          },
        },
      ],
    });
    const { status, body } = await get('/livez');
    expect(status).toBe(503);
    expect(body).toContain('[+]watchdog ok\n');
    expect(body).toContain('[-]broken failed: check threw: bug in check\n');
  });
});

describe('/readyz', () => {
  async function startWithGates() {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const readiness = new Readiness();
    const deployments = readiness.gate('informer:host/apps/v1/deployments');
    const secrets = readiness.gate('informer:host/v1/secrets');
    const pods = readiness.gate('informer:host/v1/pods');
    const all = readiness.allOf('all-caches', [deployments, secrets, pods]);
    server = await listenProbes({ host: '127.0.0.1', port: 0, readiness, eventLoopLag: fakeLag() });
    return { readiness, deployments, secrets, pods, all };
  }

  it('lists each gate with its state, progress and time waiting, and fails with 503 until all are open', async () => {
    const { deployments, secrets, pods } = await startWithGates();
    pods.open();
    deployments.setProgress('listed 41,000 objects');
    vi.setSystemTime(T0 + 2_000);
    secrets.fail(new Error('secrets is forbidden: User "warmstart"\ncannot list resource "secrets"'));
    vi.setSystemTime(T0 + 12_300);

    const expected =
      '[+]ping ok\n' +
      '[-]informer:host/apps/v1/deployments pending: listed 41,000 objects (12.3s)\n' +
      '[-]informer:host/v1/secrets failed: secrets is forbidden: User "warmstart" cannot list resource "secrets" (10.3s)\n' +
      '[+]informer:host/v1/pods ok\n' +
      '[-]all-caches failed: member "informer:host/v1/secrets" failed: secrets is forbidden: User "warmstart" cannot list resource "secrets" (10.3s)\n' +
      'readyz check failed\n';
    // Failure is always verbose, as in the kube-apiserver.
    expect(await get('/readyz')).toEqual({ status: 503, body: expected });
    expect(await get('/readyz?verbose')).toEqual({ status: 503, body: expected });
  });

  it('says how long ago a pending gate last progressed once it has been quiet for 5 s', async () => {
    const { deployments, secrets, pods } = await startWithGates();
    pods.open();
    secrets.open();
    vi.setSystemTime(T0 + 1_000);
    deployments.progressed('listed 40,500 objects');
    vi.setSystemTime(T0 + 5_900);
    expect((await get('/readyz')).body).toContain(
      '[-]informer:host/apps/v1/deployments pending: listed 40,500 objects (5.9s)\n',
    );
    vi.setSystemTime(T0 + 7_000);
    expect((await get('/readyz')).body).toContain(
      '[-]informer:host/apps/v1/deployments pending: listed 40,500 objects (7.0s, last progress 6.0s ago)\n',
    );
  });

  it('passes with 200 "ok" once every gate is open, and lists them with ?verbose', async () => {
    const { deployments, secrets, pods } = await startWithGates();
    for (const g of [deployments, secrets, pods]) g.open();
    expect(await get('/readyz')).toEqual({ status: 200, body: 'ok' });
    expect(await get('/readyz?verbose')).toEqual({
      status: 200,
      body:
        '[+]ping ok\n[+]informer:host/apps/v1/deployments ok\n[+]informer:host/v1/secrets ok\n' +
        '[+]informer:host/v1/pods ok\n[+]all-caches ok\nreadyz check passed\n',
    });
  });

  it('skips every ?exclude= check and warns about names it does not know', async () => {
    const { deployments, pods } = await startWithGates();
    deployments.open();
    pods.open();
    const { status, body } = await get(
      '/readyz?verbose&exclude=informer:host/v1/secrets&exclude=all-caches&exclude=nope',
    );
    expect(status).toBe(200);
    expect(body).toContain('[+]informer:host/v1/secrets excluded: ok\n');
    expect(body).toContain('[+]all-caches excluded: ok\n');
    expect(body).toContain('warn: some health checks cannot be excluded: no matches for "nope"\n');
    expect(body.endsWith('readyz check passed\n')).toBe(true);
  });

  it('answers a single check under /readyz/<name>, names with slashes included', async () => {
    const { deployments, secrets } = await startWithGates();
    deployments.open();
    secrets.setProgress('listing');
    vi.setSystemTime(T0 + 65_000);
    expect(await get('/readyz/informer:host/apps/v1/deployments')).toEqual({ status: 200, body: 'ok' });
    expect(await get(`/readyz/${encodeURIComponent('informer:host/v1/secrets')}`)).toEqual({
      status: 503,
      body: '[-]informer:host/v1/secrets pending: listing (1m05s)\nreadyz check failed\n',
    });
    expect(await get('/readyz/informer:host/v1/nodes')).toEqual({
      status: 404,
      body: 'no readyz check named "informer:host/v1/nodes"\n',
    });
  });

  it('is ready with no gates registered and follows gates registered later', async () => {
    const readiness = new Readiness();
    server = await listenProbes({ host: '127.0.0.1', port: 0, readiness, eventLoopLag: fakeLag() });
    expect(await get('/readyz')).toEqual({ status: 200, body: 'ok' });
    const gate = readiness.gate('webhook-certs');
    const pending = await get('/readyz');
    expect(pending.status).toBe(503);
    expect(pending.body).toMatch(/^\[-\]webhook-certs pending \(\d+\.\ds\)$/m);
    gate.open();
    expect(await get('/readyz')).toEqual({ status: 200, body: 'ok' });
  });

  it('runs extra readiness checks after the gates', async () => {
    let shuttingDown = false;
    server = await listenProbes({
      host: '127.0.0.1',
      port: 0,
      readiness: new Readiness(),
      eventLoopLag: fakeLag(),
      readyzChecks: [
        { name: 'shutdown', check: () => (shuttingDown ? 'process is shutting down' : undefined) },
      ],
    });
    expect(await get('/readyz')).toMatchObject({ status: 200 });
    shuttingDown = true;
    expect(await get('/readyz')).toEqual({
      status: 503,
      body: '[+]ping ok\n[-]shutdown failed: process is shutting down\nreadyz check failed\n',
    });
  });

  it('answers HEAD without a body and refuses other methods with 405', async () => {
    server = await listenProbes({
      host: '127.0.0.1',
      port: 0,
      readiness: new Readiness(),
      eventLoopLag: fakeLag(),
    });
    const head = await fetch(`${server.url}/readyz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await head.text()).toBe('');
    const post = await fetch(`${server.url}/readyz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    await post.text();
  });
});

describe('createProbeHandler', () => {
  it('mounts on a server of its own and returns false for paths it does not own', async () => {
    const handler = createProbeHandler({
      readiness: new Readiness(),
      eventLoopLag: fakeLag(),
      paths: { livez: '/live', readyz: '/ready', healthz: false },
    });
    const http: Server = createServer((req, res) => {
      if (handler(req, res)) return;
      res.writeHead(200).end(`app: ${req.url}`);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const texts = await Promise.all(
        ['/live', '/ready?verbose', '/healthz', '/metrics'].map(async (p) =>
          (await fetch(`${base}${p}`)).text(),
        ),
      );
      expect(texts).toEqual(['ok', '[+]ping ok\nreadyz check passed\n', 'app: /healthz', 'app: /metrics']);
    } finally {
      handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});

describe('formatDuration', () => {
  it('prints seconds with a tenth under a minute, then minutes, then hours', () => {
    expect([0, 12_345, 59_949, 65_000, 3_599_000, 7_380_000].map(formatDuration)).toEqual([
      '0.0s',
      '12.3s',
      '59.9s',
      '1m05s',
      '59m59s',
      '2h03m',
    ]);
  });
});
