import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthDecision } from '../endpoint-auth/decision.js';
import { createDashboardHandler, type DashboardHandler, type DashboardHandlerOptions } from './handler.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import type { DashboardStatus } from './status.js';
import { controller, FakeSource, informer, PolledSource, status } from './testing/fake-source.js';
import { EventStream, fetchText, within } from './testing/http.js';

let server: Server | undefined;
let handler: DashboardHandler | undefined;
const streams: EventStream[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const s of streams.splice(0)) s.destroy();
  handler?.close();
  handler = undefined;
  if (server !== undefined) {
    server.closeAllConnections();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
  }
});

// The handler on a real node:http server on 127.0.0.1:0, 404 for other paths like a host server would do.
async function serve(options: DashboardHandlerOptions): Promise<string> {
  const h = createDashboardHandler(options);
  handler = h;
  const s = createServer((req, res) => {
    if (h(req, res)) return;
    res.writeHead(404).end();
  });
  server = s;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

async function open(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const stream = await EventStream.open(url, headers);
  streams.push(stream);
  return stream;
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

describe('GET /', () => {
  it('serves one self-contained page with a CSP that allows only its own inline style and script', async () => {
    const base = await serve({ source: new FakeSource() });
    const res = await fetchText(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const csp = res.headers['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${sha256(PAGE_SCRIPT)}`);
    expect(csp).toContain(`style-src ${sha256(PAGE_STYLE)}`);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    // The hashes are of exactly what the page inlines.
    const script = /<script>([\s\S]*)<\/script>/.exec(res.body)?.[1];
    const style = /<style>([\s\S]*)<\/style>/.exec(res.body)?.[1];
    expect(script).toBe(PAGE_SCRIPT);
    expect(style).toBe(PAGE_STYLE);
    // No external requests: no URL with a scheme anywhere, no src= at all.
    expect(res.body).not.toMatch(/(https?:)?\/\/[a-z0-9]/i);
    expect(res.body).not.toMatch(/\ssrc=/);
    expect(res.body).toContain('data-testid="direct-reads"');
    expect(res.body).toContain("new EventSource('events')");
  });

  it('ships a script that parses and never writes HTML from data', () => {
    expect(() => new Function(PAGE_SCRIPT)).not.toThrow();
    expect(PAGE_SCRIPT).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
  });

  it('answers HEAD with the headers only, and /index.html as /', async () => {
    const source = new FakeSource();
    const base = await serve({ source });
    const head = await fetchText(`${base}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(1000);
    expect((await fetchText(`${base}/index.html?x=1`)).body).toContain('<!doctype html>');
    // The page itself needs no snapshot: it is static, the data comes over /events.
    expect(source.snapshots).toBe(0);
  });

  it('leaves other paths to the host server', async () => {
    const base = await serve({ source: new FakeSource() });
    expect((await fetchText(`${base}/metrics`)).status).toBe(404);
    expect((await fetchText(`${base}/status.json/x`)).status).toBe(404);
  });
});

describe('GET /status.json', () => {
  it('answers the snapshot as JSON', async () => {
    const snap = status({ informers: [informer({ objects: 41_000, listRatePerSecond: 8_200.5 })] });
    const base = await serve({ source: new FakeSource(snap) });
    const res = await fetchText(`${base}/status.json`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.parse(res.body)).toEqual(JSON.parse(JSON.stringify(snap)));
  });

  it('sends only the declared fields, so a richer object from the source cannot leak', async () => {
    const leaky = {
      ...informer({ error: 'x'.repeat(5_000) }),
      items: [{ kind: 'Secret', data: { token: 'c2VjcmV0' } }],
    };
    const snap = {
      ...status({ informers: [leaky] }),
      kubeconfig: 'client-key-data: LS0tLS1CRUdJTi',
      leader: {
        identity: 'manager-0',
        leading: true,
        holder: undefined,
        lease: { spec: { renewTime: 'now' } },
      },
    } as DashboardStatus;
    const base = await serve({ source: new FakeSource(snap) });
    const res = await fetchText(`${base}/status.json`);
    expect(res.body).not.toContain('c2VjcmV0');
    expect(res.body).not.toContain('LS0tLS1CRUdJTi');
    expect(res.body).not.toContain('renewTime');
    const body = JSON.parse(res.body) as DashboardStatus;
    expect(Object.keys(body.informers[0]!).sort()).toEqual([
      'cluster',
      'error',
      'objects',
      'resource',
      'state',
      'waitingMs',
    ]);
    expect(body.informers[0]!.error).toHaveLength(1_000);
    expect(body.informers[0]!.error!.endsWith('…')).toBe(true);
  });

  it('answers 500 without details when the snapshot throws, and tells onError', async () => {
    const onError = vi.fn();
    const base = await serve({
      source: {
        snapshot: () => {
          throw new Error('token abc123 expired');
        },
      },
      onError,
    });
    const res = await fetchText(`${base}/status.json`);
    expect(res.status).toBe(500);
    expect(res.body).not.toContain('abc123');
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'token abc123 expired' }));
  });
});

describe('GET /events', () => {
  it('opens an event stream that starts with the current status', async () => {
    const base = await serve({ source: new FakeSource(status({ directReads: 0, strategy: 'gate-start' })) });
    const stream = await open(`${base}/events`);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers['cache-control']).toBe('no-store');
    await stream.waitFor(() => stream.events.length === 1, 'the initial event');
    expect(stream.events[0]).toMatchObject({ event: 'status', retry: 2000 });
    expect(stream.statuses<DashboardStatus>()[0]).toMatchObject({ strategy: 'gate-start', directReads: 0 });
    expect(handler!.openStreams()).toBe(1);
  });

  it('turns a synchronous burst of 100 changes into one event with the last state', async () => {
    const source = new FakeSource();
    const base = await serve({ source, minIntervalMs: 250 });
    const stream = await open(`${base}/events`);
    await stream.waitFor(() => stream.events.length === 1, 'the initial event');
    for (let i = 1; i <= 100; i++) source.set(status({ informers: [informer({ objects: i })] }));
    const last = (): number | undefined => stream.statuses<DashboardStatus>().at(-1)?.informers[0]?.objects;
    await stream.waitFor(() => last() === 100, 'the event with 100 objects');
    expect(stream.events).toHaveLength(2);
  });

  it('sends at most one event per minIntervalMs while the source keeps changing, the last with the last state', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
    });
    const source = new FakeSource();
    const base = await serve({ source, minIntervalMs: 250 });
    const stream = await open(`${base}/events`);
    await stream.waitFor(() => stream.events.length === 1, 'the initial event');
    // 100 changes over 1 s of (fake) time, one every 10 ms.
    for (let i = 1; i <= 100; i++) {
      source.set(status({ informers: [informer({ objects: i, state: i === 100 ? 'open' : 'pending' })] }));
      vi.advanceTimersByTime(10);
    }
    const last = (): DashboardStatus | undefined => stream.statuses<DashboardStatus>().at(-1);
    await stream.waitFor(() => last()?.informers[0]?.objects === 100, 'the event with the last state');
    // One at once (t=0), then at 250, 500, 750 and 1000 ms: five updates after the initial event.
    expect(stream.events).toHaveLength(6);
    expect(last()!.informers[0]!.state).toBe('open');
    // Nothing more is pending once the source is quiet.
    vi.advanceTimersByTime(10_000);
    expect(stream.events).toHaveLength(6);
  });

  it('sends a heartbeat comment every heartbeatMs', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
    });
    const base = await serve({ source: new FakeSource() });
    const stream = await open(`${base}/events`);
    await stream.waitFor(() => stream.events.length === 1, 'the initial event');
    vi.advanceTimersByTime(14_999);
    vi.advanceTimersByTime(1);
    await stream.waitFor(() => stream.comments.length === 1, 'a heartbeat');
    expect(stream.comments).toEqual(['heartbeat']);
    vi.advanceTimersByTime(15_000);
    await stream.waitFor(() => stream.comments.length === 2, 'a second heartbeat');
  });

  it('polls a source without onChange', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'],
    });
    const source = new PolledSource(status({ directReads: 0 }));
    const base = await serve({ source, pollIntervalMs: 1_000 });
    const stream = await open(`${base}/events`);
    await stream.waitFor(() => stream.events.length === 1, 'the initial event');
    source.current = status({ directReads: 3 });
    vi.advanceTimersByTime(1_000);
    await stream.waitFor(() => stream.events.length === 2, 'a polled event');
    expect(stream.statuses<DashboardStatus>()[1]!.directReads).toBe(3);
  });

  it('forgets a client that disconnects, and unsubscribes from the source when none is left', async () => {
    const source = new FakeSource();
    const base = await serve({ source });
    const a = await open(`${base}/events`);
    const b = await open(`${base}/events`);
    await a.waitFor(() => a.events.length === 1, 'the initial event on a');
    await b.waitFor(() => b.events.length === 1, 'the initial event on b');
    expect(handler!.openStreams()).toBe(2);
    expect(source.listeners.size).toBe(1);
    a.destroy();
    b.destroy();
    await within(source.unsubscribed, 'the source to be unsubscribed');
    expect(handler!.openStreams()).toBe(0);
    expect(source.listeners.size).toBe(0);
  });

  it('refuses streams beyond maxClients with 503', async () => {
    const base = await serve({ source: new FakeSource(), maxClients: 1 });
    const a = await open(`${base}/events`);
    await a.waitFor(() => a.events.length === 1, 'the initial event');
    const refused = await fetchText(`${base}/events`);
    expect(refused.status).toBe(503);
    expect(refused.body).toContain('too many open dashboards');
  });
});

describe('methods', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    'answers %s with 405 and Allow: GET, HEAD',
    async (method) => {
      const source = new FakeSource();
      const base = await serve({ source });
      for (const path of ['/', '/status.json', '/events']) {
        const res = await fetchText(`${base}${path}`, { method });
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD');
      }
      expect(source.snapshots).toBe(0);
    },
  );
});

describe('authorize', () => {
  const secretish = status({
    strategy: 'strategy-marker',
    informers: [informer({ cluster: 'cluster-marker' })],
    controllers: [controller({ name: 'controller-marker' })],
  });

  it('answers 401 without a token and 403 with a refused one, and serves nothing', async () => {
    const source = new FakeSource(secretish);
    const authorize = vi.fn(async () => false);
    const base = await serve({ source, authorize });
    for (const path of ['/', '/status.json', '/events']) {
      const anonymous = await fetchText(`${base}${path}`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="warmstart-dashboard"');
      const refused = await fetchText(`${base}${path}`, { headers: { authorization: 'Bearer nope' } });
      expect(refused.status).toBe(403);
      for (const res of [anonymous, refused]) {
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.body).not.toMatch(/marker|<html|data-testid/);
      }
    }
    expect(authorize).toHaveBeenCalledTimes(6);
    expect(source.snapshots).toBe(0);
    expect(source.listeners.size).toBe(0);
    expect(handler!.openStreams()).toBe(0);
  });

  it('serves everything when it answers true', async () => {
    const base = await serve({
      source: new FakeSource(secretish),
      authorize: async (req) => req.headers.authorization === 'Bearer good',
    });
    const res = await fetchText(`${base}/status.json`, { headers: { authorization: 'Bearer good' } });
    expect(res.status).toBe(200);
    expect(res.body).toContain('cluster-marker');
    const stream = await open(`${base}/events`, { authorization: 'Bearer good' });
    await stream.waitFor(() => stream.events.length === 1, 'the initial event');
  });

  it('maps a refusing decision to 401, 403 or 503 by its reason, with its message and no status', async () => {
    const source = new FakeSource(secretish);
    const decisions: Record<string, AuthDecision> = {
      'Bearer a': { allowed: false, reason: 'unauthenticated', message: 'token expired' },
      'Bearer b': { allowed: false, reason: 'forbidden', message: 'user "b" may not get /status.json' },
      'Bearer c': { allowed: false, reason: 'unavailable', message: 'retry shortly' },
      'Bearer d': { allowed: true, user: 'd' },
    };
    const base = await serve({
      source,
      authorize: async (req) => decisions[req.headers.authorization ?? ''] ?? false,
    });
    const answer = (token: string) =>
      fetchText(`${base}/status.json`, { headers: { authorization: `Bearer ${token}` } });
    const a = await answer('a');
    expect([a.status, a.headers['www-authenticate'], a.body]).toEqual([
      401,
      'Bearer realm="warmstart-dashboard"',
      'unauthorized: token expired\n',
    ]);
    const b = await answer('b');
    expect([b.status, b.body]).toEqual([403, 'forbidden: user "b" may not get /status.json\n']);
    const c = await answer('c');
    expect([c.status, c.headers['retry-after']]).toEqual([503, '1']);
    expect(source.snapshots).toBe(0);
    const d = await answer('d');
    expect(d.status).toBe(200);
    expect(d.body).toContain('cluster-marker');
  });

  it('answers 500 without details when it throws', async () => {
    const onError = vi.fn();
    const base = await serve({
      source: new FakeSource(secretish),
      authorize: async () => {
        throw new Error('review API down');
      },
      onError,
    });
    const res = await fetchText(`${base}/status.json`);
    expect(res.status).toBe(500);
    expect(res.body).not.toMatch(/marker|review API/);
    expect(onError).toHaveBeenCalledOnce();
  });
});

describe('allowedHosts', () => {
  it('answers only the listed Host names, whatever the port', async () => {
    const source = new FakeSource();
    const base = await serve({ source, allowedHosts: ['localhost', '127.0.0.1'] });
    const rebinding = await fetchText(`${base}/status.json`, { headers: { host: 'attacker.example:8090' } });
    expect(rebinding.status).toBe(403);
    expect(source.snapshots).toBe(0);
    expect((await fetchText(`${base}/status.json`, { headers: { host: 'localhost:1' } })).status).toBe(200);
    expect((await fetchText(`${base}/status.json`)).status).toBe(200);
  });
});

describe('close()', () => {
  it('ends open streams, stops listening to the source and answers 503 afterwards', async () => {
    const source = new FakeSource();
    const base = await serve({ source });
    const a = await open(`${base}/events`);
    const b = await open(`${base}/events`);
    await a.waitFor(() => a.events.length === 1, 'the initial event on a');
    await b.waitFor(() => b.events.length === 1, 'the initial event on b');
    handler!.close();
    await within(Promise.all([a.ended, b.ended]), 'both streams to end');
    expect(handler!.openStreams()).toBe(0);
    expect(source.listeners.size).toBe(0);
    source.set(status({ directReads: 9 }));
    expect(a.events).toHaveLength(1);
    expect((await fetchText(`${base}/events`)).status).toBe(503);
    expect((await fetchText(`${base}/status.json`)).status).toBe(503);
    handler!.close();
  });
});
