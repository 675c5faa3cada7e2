import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { selfSignedCertificate } from '@warmstart/informer-cache/testing';
import { describe, expect, it } from 'vitest';
import { rawPagedList } from './raw-list.js';

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('rawPagedList', () => {
  it("goes on with the server's newer token when its continue token expired, and fails on any other error", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'raw-list-'));
    const files = await selfSignedCertificate(dir, 'apiserver');
    const [cert, key] = await Promise.all([readFile(files.cert), readFile(files.key)]);
    await rm(dir, { recursive: true, force: true });
    const asked: string[] = [];
    const server = https.createServer({ cert, key }, (req, res) => {
      const url = new URL(req.url ?? '/', 'https://x');
      const token = url.searchParams.get('continue') ?? '';
      asked.push(`${url.pathname}:${token}`);
      if (url.pathname === '/forbidden') return json(res, 403, { kind: 'Status', code: 403 });
      if (token === '') return json(res, 200, { items: [1, 2], metadata: { continue: 'old' } });
      // What kube-apiserver answers once etcd compacted past the token: 410 and a token that goes on from there.
      if (token === 'old')
        return json(res, 410, { kind: 'Status', code: 410, metadata: { continue: 'newer' } });
      if (token === 'newer') return json(res, 200, { items: [3], metadata: {} });
      return json(res, 500, { kind: 'Status', code: 500 });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const kc = new KubeConfig();
      kc.loadFromOptions({
        clusters: [
          {
            name: 'c',
            server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
            caData: cert.toString('base64'),
          },
        ],
        users: [{ name: 'u' }],
        contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
        currentContext: 'x',
      });
      await expect(rawPagedList(kc, '/items', 2)).resolves.toBe(3);
      expect(asked).toEqual(['/items:', '/items:old', '/items:newer']);
      await expect(rawPagedList(kc, '/forbidden', 2)).rejects.toThrow(/GET \/forbidden failed: 403/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
