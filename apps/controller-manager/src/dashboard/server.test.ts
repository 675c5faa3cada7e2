import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardListenError } from './errors.js';
import { type DashboardServer, listenDashboard } from './server.js';
import { FakeSource } from './testing/fake-source.js';
import { EventStream, fetchText, within } from './testing/http.js';

let dashboard: DashboardServer | undefined;

afterEach(async () => {
  await dashboard?.close();
  dashboard = undefined;
});

describe('listenDashboard', () => {
  it('binds to 127.0.0.1 by default and serves the page, status.json and events; 404 elsewhere', async () => {
    dashboard = await listenDashboard({ port: 0, source: new FakeSource() });
    expect(dashboard.address.address).toBe('127.0.0.1');
    expect(dashboard.url).toBe(`http://127.0.0.1:${dashboard.address.port}/`);
    expect((await fetchText(dashboard.url)).status).toBe(200);
    expect((await fetchText(`${dashboard.url}status.json`)).status).toBe(200);
    const missing = await fetchText(`${dashboard.url}metrics`);
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('/status.json');
  });

  it('on a loopback address answers loopback Host names only (no DNS rebinding)', async () => {
    const source = new FakeSource();
    dashboard = await listenDashboard({ port: 0, source });
    const port = dashboard.address.port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect((await fetchText(`${dashboard.url}status.json`, { headers: { host } })).status, host).toBe(200);
    }
    for (const host of [`rebind.attacker.example:${port}`, `127.0.0.1.nip.io:${port}`]) {
      const res = await fetchText(`${dashboard.url}status.json`, { headers: { host } });
      expect(res.status, host).toBe(403);
      expect(res.body).not.toContain('block-reads');
    }
  });

  it('answers any Host when told to bind beyond loopback', async () => {
    dashboard = await listenDashboard({ host: '0.0.0.0', port: 0, source: new FakeSource() });
    expect(dashboard.address.address).toBe('0.0.0.0');
    const res = await fetchText(`http://127.0.0.1:${dashboard.address.port}/status.json`, {
      headers: { host: 'manager.karmada-system.svc:8090' },
    });
    expect(res.status).toBe(200);
  });

  it('rejects with DashboardListenError naming the address and the flag when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const error = await listenDashboard({ port, source: new FakeSource() }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DashboardListenError);
      expect((error as DashboardListenError).address).toBe(`127.0.0.1:${port}`);
      expect((error as Error).message).toMatch(/EADDRINUSE.*--dashboard-bind-address/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('close() ends open event streams, stops listening and is safe to call twice', async () => {
    const source = new FakeSource();
    dashboard = await listenDashboard({ port: 0, source });
    const stream = await EventStream.open(`${dashboard.url}events`);
    await stream.waitFor(() => stream.events.length === 1, 'the initial event');
    await within(dashboard.close(), 'close()');
    await within(stream.ended, 'the stream to end');
    expect(source.listeners.size).toBe(0);
    await expect(dashboard.close()).resolves.toBeUndefined();
    await expect(fetchText(dashboard.url)).rejects.toThrow();
    dashboard = undefined;
  });

  it('closes when its signal is aborted, and refuses to start on an aborted signal', async () => {
    const controller = new AbortController();
    dashboard = await listenDashboard({ port: 0, source: new FakeSource(), signal: controller.signal });
    const stream = await EventStream.open(`${dashboard.url}events`);
    await stream.waitFor(() => stream.events.length === 1, 'the initial event');
    controller.abort(new Error('manager stopping'));
    await within(stream.ended, 'the stream to end after abort');
    await within(dashboard.close(), 'close() after abort');
    dashboard = undefined;
    await expect(
      listenDashboard({ port: 0, source: new FakeSource(), signal: controller.signal }),
    ).rejects.toThrow('manager stopping');
  });
});
