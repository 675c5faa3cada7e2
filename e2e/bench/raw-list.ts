// The floor of the informer benchmark: a paged LIST (limit, continue) read page by page with JSON.parse, keeping
// nothing. No informer can sync faster than it can receive and parse the same objects.
import type { KubeConfig } from '@kubernetes/client-node';
import { RawGetError, rawClient } from './raw-client.js';

interface Page {
  readonly items: readonly unknown[];
  readonly metadata: { readonly continue?: string };
}

/**
 * The continue token of a 410 that expired ours: the server hands one back that goes on from the same place at a
 * newer resourceVersion. At 100k the host's ~70 lists at once outlast etcd's 5-minute compaction; starting over
 * would time two lists, not the floor.
 */
function inconsistentContinue(error: unknown): string | undefined {
  if (!(error instanceof RawGetError) || error.status !== 410) return undefined;
  try {
    const status = JSON.parse(error.body) as { metadata?: { continue?: unknown } };
    const token = status.metadata?.continue;
    return typeof token === 'string' && token !== '' ? token : undefined;
  } catch {
    return undefined;
  }
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
      try {
        await client.get(`${path}?${query}`, (c) => {
          chunks.push(c);
          return undefined;
        });
      } catch (error) {
        const next = inconsistentContinue(error);
        if (next === undefined) throw error;
        process.stderr.write(
          `[bench] ${path}: continue token expired, going on from the server's newer one\n`,
        );
        token = next;
        continue;
      }
      const page = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Page;
      count += page.items.length;
      token = page.metadata.continue ?? '';
    } while (token !== '');
  } finally {
    client.close();
  }
  return count;
}
