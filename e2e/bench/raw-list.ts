// The floor of the informer benchmark: a paged LIST (limit, continue) read page by page with JSON.parse, keeping
// nothing. No informer can sync faster than it can receive and parse the same objects.
import type { KubeConfig } from '@kubernetes/client-node';
import { rawClient } from './raw-client.js';

interface Page {
  readonly items: readonly unknown[];
  readonly metadata: { readonly continue?: string };
}

/** Lists `path` in pages of `limit`; returns the number of items. */
export async function rawPagedList(kc: KubeConfig, path: string, limit: number): Promise<number> {
  const client = rawClient(kc);
  let count = 0;
  let token = '';
  try {
    do {
      const chunks: Buffer[] = [];
      const query = `limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      await client.get(`${path}?${query}`, (c) => {
        chunks.push(c);
        return undefined;
      });
      const page = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Page;
      count += page.items.length;
      token = page.metadata.continue ?? '';
    } while (token !== '');
  } finally {
    client.close();
  }
  return count;
}
