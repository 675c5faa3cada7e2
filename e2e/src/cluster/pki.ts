// Certificates for local clusters, made with the openssl CLI (Node has no API to issue X.509 certificates).
// One CA per cluster set signs every serving and client certificate; the subject's CN is the username and
// O the groups, as the API server's client-certificate authenticator reads them.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export class OpensslMissingError extends Error {
  constructor(cause: unknown) {
    super(
      "the openssl command is needed to make the local clusters' certificates: apt-get install -y openssl",
      {
        cause,
      },
    );
    this.name = 'OpensslMissingError';
  }
}

async function openssl(args: readonly string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new OpensslMissingError(error);
    throw error;
  }
}

export interface KeyPair {
  readonly cert: string;
  readonly key: string;
}

const DAYS = '30';

async function newKey(dir: string, name: string): Promise<string> {
  const key = join(dir, `${name}.key`);
  await openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', key], dir);
  return key;
}

export async function createCa(dir: string): Promise<KeyPair> {
  const key = await newKey(dir, 'ca');
  const cert = join(dir, 'ca.crt');
  await openssl(
    ['req', '-x509', '-new', '-key', key, '-out', cert, '-days', DAYS, '-subj', '/CN=warmstart-local-ca'],
    dir,
  );
  return { cert, key };
}

interface SignOptions {
  readonly name: string;
  readonly subject: string;
  readonly extensions: string;
}

async function sign(dir: string, ca: KeyPair, options: SignOptions): Promise<KeyPair> {
  const key = await newKey(dir, options.name);
  const csr = join(dir, `${options.name}.csr`);
  const ext = join(dir, `${options.name}.ext`);
  const cert = join(dir, `${options.name}.crt`);
  await writeFile(ext, options.extensions);
  await openssl(['req', '-new', '-key', key, '-out', csr, '-subj', options.subject], dir);
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      ca.cert,
      '-CAkey',
      ca.key,
      '-CAcreateserial',
      '-out',
      cert,
      '-days',
      DAYS,
      '-extfile',
      ext,
    ],
    dir,
  );
  return { cert, key };
}

/**
 * A serving certificate for 127.0.0.1 and localhost, `dnsNames` (container network aliases, Service names) and
 * `ipAddresses` (e.g. a kind node's or a Service's address).
 */
export function createServingCert(
  dir: string,
  ca: KeyPair,
  name: string,
  dnsNames: readonly string[] = [],
  ipAddresses: readonly string[] = [],
): Promise<KeyPair> {
  const sans = [
    'IP:127.0.0.1',
    'DNS:localhost',
    ...ipAddresses.map((ip) => `IP:${ip}`),
    ...dnsNames.map((d) => `DNS:${d}`),
  ].join(',');
  return sign(dir, ca, {
    name,
    subject: '/CN=kube-apiserver',
    extensions: `subjectAltName=${sans}\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature,keyEncipherment\n`,
  });
}

/** A client certificate whose CN is the username and whose O entries are the groups. */
export function createClientCert(
  dir: string,
  ca: KeyPair,
  user: string,
  groups: readonly string[],
): Promise<KeyPair> {
  const subject = `${groups.map((g) => `/O=${g}`).join('')}/CN=${user}`;
  return sign(dir, ca, {
    name: `user-${user.replace(/[^a-zA-Z0-9-]/g, '_')}`,
    subject,
    extensions: 'extendedKeyUsage=clientAuth\nkeyUsage=digitalSignature,keyEncipherment\n',
  });
}

/** The key pair the API server signs service-account tokens with. */
export async function createServiceAccountKey(dir: string): Promise<{ key: string; pub: string }> {
  const key = await newKey(dir, 'sa');
  const pub = join(dir, 'sa.pub');
  await openssl(['pkey', '-in', key, '-pubout', '-out', pub], dir);
  return { key, pub };
}
