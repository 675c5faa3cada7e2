// Maps (group, version, kind) to a resource for applying Work manifests on a member cluster: the well-known
// built-ins first, then the member's discovery document for its group/version (a non-resource GET, cached).
import { BuiltinResources } from '@warmstart/api';
import type { ApiTransport, GroupVersionResource } from '@warmstart/informer-cache';

export class UnknownKindError extends Error {
  constructor(cluster: string, apiVersion: string, kind: string) {
    super(
      `cluster ${cluster} serves no ${kind} in ${apiVersion}: install its CRD on the member, or fix the template's apiVersion/kind`,
    );
    this.name = 'UnknownKindError';
  }
}

const builtins = new Map<string, GroupVersionResource>(
  Object.values(BuiltinResources).map((g) => [
    `${g.group}/${g.version}/${g.kind}`,
    g as GroupVersionResource,
  ]),
);

export class RestMapper {
  readonly #discovered = new Map<string, Promise<Map<string, GroupVersionResource>>>();

  constructor(
    private readonly cluster: string,
    private readonly transport: ApiTransport,
  ) {}

  async resourceFor(
    group: string,
    version: string,
    kind: string,
    signal?: AbortSignal,
  ): Promise<GroupVersionResource> {
    const known = builtins.get(`${group}/${version}/${kind}`);
    if (known) return known;
    const gv = group ? `${group}/${version}` : version;
    let kinds = this.#discovered.get(gv);
    if (!kinds) {
      kinds = this.#discover(group, version, signal);
      this.#discovered.set(gv, kinds);
      kinds.catch(() => this.#discovered.delete(gv));
    }
    const found = (await kinds).get(kind);
    if (!found) {
      this.#discovered.delete(gv); // the CRD may be installed later
      throw new UnknownKindError(this.cluster, gv, kind);
    }
    return found;
  }

  async #discover(
    group: string,
    version: string,
    signal?: AbortSignal,
  ): Promise<Map<string, GroupVersionResource>> {
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const res = await this.transport.request<{
      resources?: { name: string; kind: string; namespaced: boolean }[];
    }>({
      method: 'GET',
      verb: 'get',
      path,
      source: 'discovery',
      resource: path,
      signal,
    });
    const out = new Map<string, GroupVersionResource>();
    if (res.code !== 200) return out;
    for (const r of res.body.resources ?? []) {
      if (!r.name.includes('/'))
        out.set(r.kind, { group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced });
    }
    return out;
  }
}
