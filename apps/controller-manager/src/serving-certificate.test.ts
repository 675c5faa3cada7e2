import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { selfSignedCertificate } from '@warmstart/informer-cache/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServingCertificate, ServingCertificateError } from './serving-certificate.js';

/** The subject CN of the certificate a TLS server presents now. */
function presented(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const cn = socket.getPeerCertificate().subject.CN;
      socket.end();
      resolve(Array.isArray(cn) ? cn.join(',') : (cn ?? ''));
    });
    socket.once('error', reject);
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('ServingCertificate', () => {
  let dir: string;
  let first: { cert: string; key: string };
  let second: { cert: string; key: string };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'warmstart-tls-'));
    first = await selfSignedCertificate(dir, 'first');
    second = await selfSignedCertificate(dir, 'second');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the certificate, takes up a renewal on disk, and keeps the old one when the new pair does not match', async () => {
    const certFile = join(dir, 'tls.crt');
    const keyFile = join(dir, 'tls.key');
    await copyFile(first.cert, certFile);
    await copyFile(first.key, keyFile);
    const warnings: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => warnings.push(line) });
    const certificate = await ServingCertificate.load({ certFile, keyFile, log, pollIntervalMs: 20 });
    const server = certificate.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await presented(port)).toBe('first');

      // Half a renewal (the certificate written, the key not yet): it does not load, the old pair stays.
      await copyFile(second.cert, certFile);
      await until('a warning about the mismatched pair', () =>
        warnings.some((l) => l.includes('does not load')),
      );
      expect(certificate.reloads).toBe(0);
      expect(await presented(port)).toBe('first');

      await copyFile(second.key, keyFile);
      await until('the renewal to be taken up', () => certificate.reloads === 1);
      expect(await presented(port)).toBe('second');
    } finally {
      certificate.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('refuses a pair that does not load, naming both flags', async () => {
    const log = pino({ level: 'silent' });
    await expect(ServingCertificate.load({ certFile: first.cert, keyFile: second.key, log })).rejects.toThrow(
      ServingCertificateError,
    );
    await expect(
      ServingCertificate.load({ certFile: join(dir, 'missing.crt'), keyFile: first.key, log }),
    ).rejects.toThrow(/--tls-cert-file=.*missing\.crt.*--tls-private-key-file=/);
  });
});
