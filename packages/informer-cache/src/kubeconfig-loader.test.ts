import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KubeconfigError, staticEndpoint } from './kubeconfig-loader.js';

const dir = mkdtempSync(join(tmpdir(), 'kubeconfig-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('staticEndpoint', () => {
  it('reads embedded client certificates and the CA', async () => {
    const path = write(
      'certs.yaml',
      `apiVersion: v1
kind: Config
current-context: c
contexts: [{ name: c, context: { cluster: k, user: u } }]
clusters: [{ name: k, cluster: { server: "https://127.0.0.1:6443/", certificate-authority-data: ${b64('CA')} } }]
users: [{ name: u, user: { client-certificate-data: ${b64('CERT')}, client-key-data: ${b64('KEY')} } }]
`,
    );
    const e = staticEndpoint({ path })!;
    expect(e.server).toBe('https://127.0.0.1:6443');
    expect(e.name).toBe('k');
    expect(String(e.tls.ca)).toBe('CA');
    expect(String(e.tls.cert)).toBe('CERT');
    expect(String(e.tls.key)).toBe('KEY');
    expect(await e.headers()).toEqual({});
  });

  it('sends a token from a file relative to the kubeconfig', async () => {
    write('token', 'sekret\n');
    const path = write(
      'token.yaml',
      `current-context: c
contexts: [{ name: c, context: { cluster: k, user: u } }]
clusters: [{ name: k, cluster: { server: https://h:1, insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { tokenFile: token } }]
`,
    );
    const e = staticEndpoint({ path, name: 'host' })!;
    expect(e.name).toBe('host');
    expect(e.tls.rejectUnauthorized).toBe(false);
    expect(await e.headers()).toEqual({ authorization: 'Bearer sekret' });
  });

  it('leaves exec plugins to client-node', () => {
    const path = write(
      'exec.yaml',
      `current-context: c
contexts: [{ name: c, context: { cluster: k, user: u } }]
clusters: [{ name: k, cluster: { server: https://h:1 } }]
users: [{ name: u, user: { exec: { command: aws } } }]
`,
    );
    expect(staticEndpoint({ path })).toBeUndefined();
  });

  it('says what is wrong with a broken kubeconfig', () => {
    const path = write('broken.yaml', 'current-context: missing\ncontexts: []\n');
    expect(() => staticEndpoint({ path })).toThrow(KubeconfigError);
    expect(() => staticEndpoint({ path: join(dir, 'absent') })).toThrow(/--kubeconfig/);
  });
});
