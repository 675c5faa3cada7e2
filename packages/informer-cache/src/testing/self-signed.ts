// A throwaway certificate for tests that need a real TLS server on 127.0.0.1 (openssl, as every CI image has it).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Writes a self-signed P-256 pair for IP 127.0.0.1 as `<dir>/<name>.crt` and `.key`; returns their paths. */
export async function selfSignedCertificate(
  dir: string,
  name: string,
): Promise<{ cert: string; key: string }> {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  return { cert, key };
}
