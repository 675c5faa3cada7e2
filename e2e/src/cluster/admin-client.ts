// A minimal HTTPS client for the harness's own calls (readiness polls, RBAC set-up). Tests use
// @kubernetes/client-node; this exists so bringing a cluster up needs nothing but node: built-ins.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';

export interface TlsIdentity {
  readonly server: string;
  readonly caPath: string;
  readonly certPath: string;
  readonly keyPath: string;
  /** PEM contents, used instead of certPath/keyPath when given. */
  readonly certPem?: string | undefined;
  readonly keyPem?: string | undefined;
}

export interface AdminResponse {
  readonly status: number;
  readonly body: string;
}

export function adminRequest(
  id: TlsIdentity,
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  contentType = 'application/json',
): Promise<AdminResponse> {
  const url = new URL(path, id.server);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ca: readFileSync(id.caPath),
        cert: id.certPem ?? readFileSync(id.certPath),
        key: id.keyPem ?? readFileSync(id.keyPath),
        headers: {
          'user-agent': 'warmstart-e2e-harness',
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': contentType }),
        },
        signal,
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}
