// The floor of the informer benchmark: a paged LIST (limit, continue) read page by page with JSON.parse, keeping
// nothing. No informer can sync faster than it can receive and parse the same objects.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

interface Page {
  readonly items: readonly unknown[];
  readonly metadata: { readonly continue?: string };
}

function fileOrData(file: string | undefined, data: string | undefined): Buffer | undefined {
  if (file) return readFileSync(file);
  return data ? Buffer.from(data, 'base64') : undefined;
}

/** Lists `path` in pages of `limit` as the kubeconfig's user (client certificate); returns the number of items. */
export async function rawPagedList(kc: KubeConfig, path: string, limit: number): Promise<number> {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (cluster === null || user === null) throw new Error('kubeconfig has no current cluster or user');
  const agent = new Agent({
    keepAlive: true,
    ca: fileOrData(cluster.caFile, cluster.caData),
    cert: fileOrData(user.certFile, user.certData),
    key: fileOrData(user.keyFile, user.keyData),
  });
  let count = 0;
  let token = '';
  try {
    do {
      const query = `limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      const text = await get(agent, new URL(`${path}?${query}`, cluster.server));
      const page = JSON.parse(text) as Page;
      count += page.items.length;
      token = page.metadata.continue ?? '';
    } while (token !== '');
  } finally {
    agent.destroy();
  }
  return count;
}

function get(agent: Agent, url: URL): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200)
          reject(new Error(`GET ${url.pathname} failed: ${res.statusCode} ${text.slice(0, 300)}`));
        else resolve(text);
      });
    });
    req.on('error', reject);
    req.end();
  });
}
