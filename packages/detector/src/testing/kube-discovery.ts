// A discovery function over non-resource GETs (/api, /api/v1, /apis, /apis/<group>/<version>), as the manager
// implements ResourceDetectorOptions.discover. Test support: the preferred version of each group comes first.
import type { ApiTransport } from '@warmstart/informer-cache';
import type { DiscoveredResource } from '../discovery.js';

interface ResourceList {
  readonly resources?: readonly {
    readonly name: string;
    readonly kind: string;
    readonly namespaced: boolean;
    readonly verbs?: readonly string[];
  }[];
}

interface GroupList {
  readonly groups: readonly {
    readonly name: string;
    readonly versions: readonly { readonly version: string }[];
    readonly preferredVersion?: { readonly version: string };
  }[];
}

export function discoveryOver(
  transport: ApiTransport,
  source = 'resource-detector-discovery',
): (signal: AbortSignal) => Promise<DiscoveredResource[]> {
  return async (signal) => {
    const get = async <T>(path: string): Promise<T> =>
      (
        await transport.request<T>({
          method: 'GET',
          verb: 'get',
          path,
          source,
          resource: 'discovery',
          signal,
        })
      ).body;
    const out: DiscoveredResource[] = [];
    const add = (group: string, version: string, list: ResourceList): void => {
      for (const r of list.resources ?? []) {
        out.push({
          group,
          version,
          resource: r.name,
          kind: r.kind,
          namespaced: r.namespaced,
          verbs: r.verbs ?? [],
        });
      }
    };
    const core = await get<{ versions: readonly string[] }>('/api');
    for (const version of core.versions) add('', version, await get<ResourceList>(`/api/${version}`));
    const groups = await get<GroupList>('/apis');
    for (const group of groups.groups) {
      const versions = new Set([
        ...(group.preferredVersion ? [group.preferredVersion.version] : []),
        ...group.versions.map((v) => v.version),
      ]);
      for (const version of versions) {
        add(group.name, version, await get<ResourceList>(`/apis/${group.name}/${version}`));
      }
    }
    return out;
  };
}
