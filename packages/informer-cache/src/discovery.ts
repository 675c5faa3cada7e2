// API discovery over non-resource GETs (/api/v1, /apis, /apis/<group>/<version>): which resources a server
// serves, and a RESTMapper from (group, version, kind) to resource. These requests read no object, so they
// are not direct reads. The one discovery client of warmstart (detector, manager and members use it).
import type { ApiTransport } from './transport.js';
import type { GroupVersionResource } from './types.js';

/** One resource of a discovery document. */
export interface DiscoveredResource {
  readonly group: string;
  readonly version: string;
  /** Plural name; subresources (`deployments/status`) are left out. */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

interface ResourceList {
  readonly resources?: readonly {
    readonly name: string;
    readonly kind: string;
    readonly namespaced: boolean;
    readonly verbs?: readonly string[];
  }[];
}

interface GroupList {
  readonly groups?: readonly {
    readonly name: string;
    readonly preferredVersion?: { readonly version: string };
  }[];
}

export interface DiscoveryOptions {
  /** Who the requests are accounted to. Default `discovery`. */
  readonly source?: string | undefined;
  /** Deadline of each request. Default 10 s. */
  readonly timeoutMs?: number | undefined;
}

/** The resources of one group/version document, or none when the server does not serve it. */
async function groupVersion(
  transport: ApiTransport,
  group: string,
  version: string,
  signal: AbortSignal | undefined,
  options: DiscoveryOptions,
): Promise<DiscoveredResource[]> {
  const list = await get<ResourceList>(
    transport,
    group ? `/apis/${group}/${version}` : `/api/${version}`,
    signal,
    options,
  );
  return (list?.resources ?? [])
    .filter((r) => !r.name.includes('/'))
    .map((r) => ({
      group,
      version,
      resource: r.name,
      kind: r.kind,
      namespaced: r.namespaced,
      verbs: r.verbs ?? [],
    }));
}

async function get<T>(
  transport: ApiTransport,
  path: string,
  signal: AbortSignal | undefined,
  options: DiscoveryOptions,
): Promise<T | undefined> {
  const res = await transport.request<T>({
    method: 'GET',
    verb: 'get',
    path,
    source: options.source ?? 'discovery',
    resource: path,
    signal,
    timeoutMs: options.timeoutMs ?? 10_000,
  });
  return res.code === 200 ? res.body : undefined;
}

/**
 * One discovery pass: the core group's v1, then each group's preferred version (client-go's
 * ServerPreferredResources order). A group whose document fails is left out; the others are returned.
 */
export function discoverer(
  transport: ApiTransport,
  options: DiscoveryOptions = {},
): (signal: AbortSignal) => Promise<DiscoveredResource[]> {
  return async (signal) => {
    const core = await groupVersion(transport, '', 'v1', signal, options);
    const groups = (await get<GroupList>(transport, '/apis', signal, options))?.groups ?? [];
    const rest = await Promise.all(
      groups.map((g) =>
        g.preferredVersion
          ? groupVersion(transport, g.name, g.preferredVersion.version, signal, options).catch(() => [])
          : [],
      ),
    );
    return [...core, ...rest.flat()];
  };
}

function resourceOf(r: DiscoveredResource): GroupVersionResource {
  return { group: r.group, version: r.version, resource: r.resource, kind: r.kind, namespaced: r.namespaced };
}

/** A kind the cluster's discovery does not list. */
export class UnknownKindError extends Error {
  constructor(cluster: string, apiVersion: string, kind: string) {
    super(
      `cluster ${cluster} serves no ${kind} in ${apiVersion}: install its CRD on the cluster, or fix the object's apiVersion/kind`,
    );
    this.name = 'UnknownKindError';
  }
}

/**
 * Maps (group, version, kind) to a resource: the `known` resources first (built-ins, say), then the server's
 * discovery document of that group/version, fetched once and remembered; an unknown kind is looked up again
 * next time (its CRD may be installed later).
 */
export class RestMapper {
  readonly #known = new Map<string, GroupVersionResource>();
  readonly #discovered = new Map<string, Promise<Map<string, GroupVersionResource>>>();

  constructor(
    private readonly cluster: string,
    private readonly transport: ApiTransport,
    known: Iterable<GroupVersionResource> = [],
    private readonly options: DiscoveryOptions = {},
  ) {
    for (const g of known) this.#known.set(`${g.group}/${g.version}/${g.kind}`, g);
  }

  async resourceFor(
    group: string,
    version: string,
    kind: string,
    signal?: AbortSignal,
  ): Promise<GroupVersionResource> {
    const known = this.#known.get(`${group}/${version}/${kind}`);
    if (known) return known;
    const gv = group ? `${group}/${version}` : version;
    let kinds = this.#discovered.get(gv);
    if (!kinds) {
      kinds = groupVersion(this.transport, group, version, signal, this.options).then(
        (resources) => new Map(resources.map((r) => [r.kind, resourceOf(r)] as const)),
      );
      this.#discovered.set(gv, kinds);
      kinds.catch(() => this.#discovered.delete(gv));
    }
    const found = (await kinds).get(kind);
    if (!found) {
      this.#discovered.delete(gv);
      throw new UnknownKindError(this.cluster, gv, kind);
    }
    return found;
  }
}
