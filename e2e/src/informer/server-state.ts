// The truth an informer's store is compared with: a fresh, consistent LIST (no resourceVersion, paged) made by the
// harness's own admin client, not by the package under test, so a decoding bug cannot hide itself.
import { adminRequest } from '../cluster/admin-client.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { adminIdentity } from '../karmada/join.js';

/** `namespace/name` (or `name`) -> resourceVersion of every object the server holds. */
export type ServerState = ReadonlyMap<string, string>;

interface ListBody {
  readonly items: readonly {
    readonly metadata: {
      readonly name: string;
      readonly namespace?: string;
      readonly resourceVersion: string;
    };
  }[];
  readonly metadata: { readonly continue?: string };
}

/** Lists `collectionPath` (e.g. `/api/v1/namespaces/x/configmaps`) in pages of 1000 as the admin. */
export async function serverState(cluster: ClusterInfo, collectionPath: string): Promise<ServerState> {
  const id = adminIdentity(cluster);
  const out = new Map<string, string>();
  let token = '';
  do {
    const query = `limit=1000${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    const res = await adminRequest(id, 'GET', `${collectionPath}?${query}`);
    if (res.status !== 200) throw new Error(`admin LIST ${collectionPath} failed: ${res.status} ${res.body}`);
    const body = JSON.parse(res.body) as ListBody;
    for (const item of body.items) {
      const m = item.metadata;
      out.set(m.namespace ? `${m.namespace}/${m.name}` : m.name, m.resourceVersion);
    }
    token = body.metadata.continue ?? '';
  } while (token !== '');
  return out;
}

export interface StateDiff {
  /** On the server, not in the cache. */
  readonly missing: readonly string[];
  /** In the cache, gone from the server. */
  readonly extra: readonly string[];
  /** In both, with different resourceVersions: `key cache=<rv> server=<rv>`. */
  readonly stale: readonly string[];
}

/** Compares a cache's key -> resourceVersion view with the server's; all three lists empty means equal. */
export function diffState(cache: ReadonlyMap<string, string>, server: ServerState): StateDiff {
  const missing: string[] = [];
  const extra: string[] = [];
  const stale: string[] = [];
  for (const [key, rv] of server) {
    const cached = cache.get(key);
    if (cached === undefined) missing.push(key);
    else if (cached !== rv) stale.push(`${key} cache=${cached} server=${rv}`);
  }
  for (const key of cache.keys()) if (!server.has(key)) extra.push(key);
  return { missing, extra, stale };
}

/** Objects (a store's, a handler's) as key -> resourceVersion, for diffState. */
export function versionsOf(
  objects: Iterable<{
    readonly metadata: {
      readonly name: string;
      readonly namespace?: string;
      readonly resourceVersion?: string;
    };
  }>,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const o of objects) {
    const m = o.metadata;
    out.set(m.namespace ? `${m.namespace}/${m.name}` : m.name, m.resourceVersion ?? '');
  }
  return out;
}
