// Bindings whose template moved on without them: the resourceVersion a ResourceBinding records for its template
// (spec.resource.resourceVersion) is not the template's own. While it runs, the detector leaves a status-only
// change of a template alone (Karmada's SpecificationChanged filter). Karmada's next start records the template's
// current resourceVersion in every stale binding; ours leaves them (packages/detector/src/spec-changes.ts), so the
// count, reported before a restart, says how many writes Karmada would have made there.
import { adminRequest } from '../cluster/admin-client.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { adminIdentity } from '../karmada/join.js';

interface Page<T> {
  readonly items: readonly T[];
  readonly metadata: { readonly continue?: string };
}

async function listAll<T>(cluster: ClusterInfo, path: string): Promise<T[]> {
  const out: T[] = [];
  let cont = '';
  do {
    const res = await adminRequest(
      adminIdentity(cluster),
      'GET',
      `${path}?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
    );
    if (res.status !== 200)
      throw new Error(`listing ${path} on ${cluster.name}: ${res.status} ${res.body.slice(0, 200)}`);
    const page = JSON.parse(res.body) as Page<T>;
    out.push(...page.items);
    cont = page.metadata.continue ?? '';
  } while (cont);
  return out;
}

/** Deployment bindings on `controlPlane` whose recorded template resourceVersion is not the template's. */
export async function staleDeploymentBindings(controlPlane: ClusterInfo): Promise<string[]> {
  const templates = new Map<string, string>();
  for (const d of await listAll<{ metadata: { namespace: string; name: string; resourceVersion: string } }>(
    controlPlane,
    '/apis/apps/v1/deployments',
  ))
    templates.set(`${d.metadata.namespace}/${d.metadata.name}`, d.metadata.resourceVersion);
  const stale: string[] = [];
  for (const b of await listAll<{
    metadata: { namespace: string; name: string };
    spec: { resource: { kind: string; namespace?: string; name: string; resourceVersion?: string } };
  }>(controlPlane, '/apis/work.karmada.io/v1alpha2/resourcebindings')) {
    const r = b.spec.resource;
    if (r.kind !== 'Deployment') continue;
    const current = templates.get(`${r.namespace ?? b.metadata.namespace}/${r.name}`);
    if (current !== undefined && current !== r.resourceVersion)
      stale.push(`${b.metadata.namespace}/${b.metadata.name}`);
  }
  return stale;
}
