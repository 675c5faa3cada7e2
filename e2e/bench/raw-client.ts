// The floors' HTTP: a keep-alive HTTPS agent with the kubeconfig user's client certificate, and a GET that hands the
// body over chunk by chunk. Nothing from the package under test, so the floors measure the server and JSON.parse only.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** A GET the server answered with a status other than 200; `body` is its whole text (a Status, usually). */
export class RawGetError extends Error {
  constructor(
    readonly path: string,
    readonly status: number | undefined,
    readonly body: string,
  ) {
    super(`GET ${path} failed: ${status} ${body.slice(0, 300)}`);
    this.name = 'RawGetError';
  }
}

export interface RawClient {
  readonly server: string;
  /** GETs `path`; `onChunk` returning true ends the request early (a watch that has what it needs). */
  get(path: string, onChunk: (chunk: Buffer) => boolean | undefined): Promise<void>;
  close(): void;
}

function fileOrData(file: string | undefined, data: string | undefined): Buffer | undefined {
  if (file) return readFileSync(file);
  return data ? Buffer.from(data, 'base64') : undefined;
}

export function rawClient(kc: KubeConfig): RawClient {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (cluster === null || user === null) throw new Error('kubeconfig has no current cluster or user');
  const agent = new Agent({
    keepAlive: true,
    ca: fileOrData(cluster.caFile, cluster.caData),
    cert: fileOrData(user.certFile, user.certData),
    key: fileOrData(user.keyFile, user.keyData),
  });
  return {
    server: cluster.server,
    get: (path, onChunk) =>
      new Promise((resolve, reject) => {
        const url = new URL(path, cluster.server);
        let done = false;
        const req = request(url, { agent, headers: { accept: 'application/json' } }, (res) => {
          if (res.statusCode !== 200) {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              text += c;
            });
            res.on('end', () => reject(new RawGetError(url.pathname, res.statusCode, text)));
            return;
          }
          res.on('data', (chunk: Buffer) => {
            if (done) return;
            if (onChunk(chunk) === true) {
              done = true;
              res.destroy();
              resolve();
            }
          });
          res.on('end', () => resolve());
          res.on('error', (e) => (done ? undefined : reject(e)));
        });
        req.on('error', (e) => (done ? undefined : reject(e)));
        req.end();
      }),
    close: () => agent.destroy(),
  };
}
