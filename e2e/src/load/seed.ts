// Seeds N synthetic workloads into a cluster: bounded concurrency over one keep-alive agent, 429 and 5xx
// retried after Retry-After (or a jittered backoff), resumable (an object that already exists counts as
// done), with a progress line every second. Harness code: it runs as the admin identity.

import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { TlsIdentity } from '../cluster/admin-client.js';
import { configMap, deployment, type LoadShape, namespaceOf } from './workloads.js';

export interface SeedOptions extends LoadShape {
  readonly identity: TlsIdentity;
  readonly concurrency?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: SeedProgress) => void) | undefined;
}

export interface SeedProgress {
  readonly done: number;
  readonly total: number;
  readonly created: number;
  readonly existed: number;
  readonly retries: number;
  readonly perSecond: number;
  readonly elapsedMs: number;
}

export class SeedError extends Error {
  constructor(path: string, status: number, body: string) {
    super(`seeding failed at ${path}: HTTP ${status}: ${body.slice(0, 300)}`);
    this.name = 'SeedError';
  }
}

interface Sender {
  post(
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<{ status: number; body: string; retryAfterMs: number | undefined }>;
  close(): void;
}

function sender(id: TlsIdentity, concurrency: number): Sender {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: concurrency,
    ca: readFileSync(id.caPath),
    cert: id.certPem ?? readFileSync(id.certPath),
    key: id.keyPem ?? readFileSync(id.keyPath),
  });
  return {
    post: (path, body, signal) =>
      new Promise((resolve, reject) => {
        const payload = JSON.stringify(body);
        const req = request(
          new URL(path, id.server),
          {
            method: 'POST',
            agent,
            signal,
            headers: { 'content-type': 'application/json', 'user-agent': 'warmstart-e2e-seed' },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              text += c;
            });
            res.on('end', () => {
              const ra = Number(res.headers['retry-after']);
              resolve({
                status: res.statusCode ?? 0,
                body: text,
                retryAfterMs: Number.isFinite(ra) ? ra * 1000 : undefined,
              });
            });
          },
        );
        req.on('error', reject);
        req.end(payload);
      }),
    close: () => agent.destroy(),
  };
}

const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** Creates the namespaces and workloads of the shape; returns the final progress. */
export async function seed(options: SeedOptions): Promise<SeedProgress> {
  const concurrency = options.concurrency ?? 16;
  const s = sender(options.identity, concurrency);
  const started = Date.now();
  let created = 0;
  let existed = 0;
  let retries = 0;
  let done = 0;
  const items: { path: string; body: unknown }[] = [];
  for (let n = 0; n < options.namespaces; n++) {
    items.push({
      path: '/api/v1/namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${options.prefix ?? 'load'}-${n}` } },
    });
  }
  const namespaceCount = items.length;
  for (let i = 0; i < options.workloads; i++) {
    const ns = namespaceOf(i, options);
    items.push({ path: `/apis/apps/v1/namespaces/${ns}/deployments`, body: deployment(i, options) });
    if (options.configMapEvery && i % options.configMapEvery === 0) {
      items.push({ path: `/api/v1/namespaces/${ns}/configmaps`, body: configMap(i, options) });
    }
  }
  const progress = (): SeedProgress => {
    const elapsedMs = Date.now() - started;
    return {
      done,
      total: items.length,
      created,
      existed,
      retries,
      perSecond: Math.round((done / Math.max(1, elapsedMs)) * 1000),
      elapsedMs,
    };
  };
  const send = async (item: { path: string; body: unknown }): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      const res = await s.post(item.path, item.body, options.signal);
      if (res.status === 201) created++;
      else if (res.status === 409) existed++;
      else if ((res.status === 429 || res.status >= 500) && attempt < 20) {
        retries++;
        await delay(
          res.retryAfterMs ?? Math.min(5_000, 100 * 2 ** attempt * (0.5 + Math.random())),
          options.signal,
        );
        continue;
      } else throw new SeedError(item.path, res.status, res.body);
      done++;
      return;
    }
  };
  const timer = setInterval(() => options.onProgress?.(progress()), 1000);
  try {
    // Namespaces first, so no workload races its namespace.
    await runPool(items.slice(0, namespaceCount), concurrency, send);
    await runPool(items.slice(namespaceCount), concurrency, send);
  } finally {
    clearInterval(timer);
    s.close();
  }
  const final = progress();
  options.onProgress?.(final);
  return final;
}

async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** A one-line progress bar for terminals and CI logs. */
export function formatProgress(p: SeedProgress): string {
  const width = 30;
  const filled = Math.round((p.done / Math.max(1, p.total)) * width);
  const eta = p.perSecond > 0 ? Math.round((p.total - p.done) / p.perSecond) : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} objects, ${p.perSecond}/s, ${p.created} created, ${p.existed} existed, ${p.retries} retried, eta ${eta}s`;
}
