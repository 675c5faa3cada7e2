// API discovery for the detector: which resources exist, with their kinds and verbs. These are non-resource
// GETs (/api, /apis, /apis/<group>/<version>): they read no object, so they are not direct reads.
import type { ApiTransport } from '@warmstart/informer-cache';

export interface DiscoveredResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

interface APIResourceList {
  readonly groupVersion: string;
  readonly resources: readonly {
    name: string;
    kind: string;
    namespaced: boolean;
    verbs: readonly string[];
  }[];
}

interface APIGroupList {
  readonly groups: readonly { name: string; preferredVersion?: { groupVersion: string; version: string } }[];
}

export function discoverer(
  transport: ApiTransport,
): (signal: AbortSignal) => Promise<readonly DiscoveredResource[]> {
  const get = async <T>(path: string, signal: AbortSignal): Promise<T | undefined> => {
    const res = await transport.request<T>({
      method: 'GET',
      verb: 'get',
      path,
      source: 'discovery',
      resource: path,
      signal,
      timeoutMs: 10_000,
    });
    return res.code === 200 ? res.body : undefined;
  };
  return async (signal) => {
    const lists: { group: string; version: string; list: APIResourceList }[] = [];
    const core = await get<APIResourceList>('/api/v1', signal);
    if (core) lists.push({ group: '', version: 'v1', list: core });
    const groups = (await get<APIGroupList>('/apis', signal))?.groups ?? [];
    const results = await Promise.all(
      groups
        .filter((g) => g.preferredVersion)
        .map(async (g) => {
          const v = g.preferredVersion!.version;
          const list = await get<APIResourceList>(`/apis/${g.name}/${v}`, signal).catch(() => undefined);
          return list ? { group: g.name, version: v, list } : undefined;
        }),
    );
    for (const r of results) if (r) lists.push(r);
    return lists.flatMap(({ group, version, list }) =>
      list.resources
        .filter((r) => !r.name.includes('/'))
        .map((r) => ({
          group,
          version,
          resource: r.name,
          kind: r.kind,
          namespaced: r.namespaced,
          verbs: r.verbs,
        })),
    );
  };
}
