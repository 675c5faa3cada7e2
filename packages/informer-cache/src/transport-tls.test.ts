import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { selfSignedCertificate } from './testing/self-signed.js';
import { ApiTransport } from './transport.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ApiTransport over TLS', () => {
  it('builds one TLS context for all its connections, however many open at once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'transport-tls-'));
    const files = await selfSignedCertificate(dir, 'apiserver');
    const [cert, key] = await Promise.all([readFile(files.cert), readFile(files.key)]);
    await rm(dir, { recursive: true, force: true });
    let connections = 0;
    const pending: (() => void)[] = [];
    const server = https.createServer({ cert, key }, (_req, res) => {
      // Held until every request has arrived, so each needs a connection of its own.
      pending.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"kind":"Status"}'));
      if (pending.length === 5) for (const answer of pending) answer();
    });
    server.on('secureConnection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const contexts = vi.spyOn(tls, 'createSecureContext');
      const transport = new ApiTransport({
        server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
        name: 'tls',
        tls: { ca: cert },
        headers: async () => ({}),
      });
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          transport.request({ method: 'GET', verb: 'get', path: '/api', source: 'test', resource: '' }),
        ),
      );
      expect(answers.map((a) => a.body)).toEqual(Array(5).fill({ kind: 'Status' }));
      expect(connections).toBe(5);
      expect(contexts).toHaveBeenCalledTimes(1);
      transport.close();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
