// What Karmada (or warmstart) left on the control plane for one copy of the migration load, as plain JSON with
// what the API server makes up (uid, resourceVersion, timestamps, managedFields) taken out, and a field-by-field
// difference of two such snapshots.
import { workName } from '@warmstart/api';
import { adminRequest } from '../cluster/admin-client.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { adminIdentity } from '../karmada/join.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Snapshot = ReadonlyMap<string, Json>;

interface Listed<T> {
  items: T[];
  metadata: { continue?: string };
}

/** Every item of a collection, page by page; `T` is the shape the caller reads of each item. */
export async function listAll<T = { [k: string]: Json }>(cluster: ClusterInfo, path: string): Promise<T[]> {
  const out: T[] = [];
  let cont = '';
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await adminRequest(
      adminIdentity(cluster),
      'GET',
      `${path}${sep}limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
    );
    if (res.status !== 200)
      throw new Error(`GET ${path} on ${cluster.name}: ${res.status} ${res.body.slice(0, 300)}`);
    const body = JSON.parse(res.body) as Listed<T>;
    out.push(...body.items);
    cont = body.metadata.continue ?? '';
  } while (cont);
  return out;
}

const SERVER_METADATA = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'managedFields',
  'generation',
  'selfLink',
];
const TIME_FIELDS = new Set([
  'lastTransitionTime',
  'lastUpdateTime',
  'lastHeartbeatTime',
  'lastProbeTime',
  'lastScheduledTime',
]);

function clean(value: Json, dropStatus: boolean): Json {
  if (Array.isArray(value)) return value.map((v) => clean(v, false));
  if (value === null || typeof value !== 'object') return value;
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(value)) {
    if (TIME_FIELDS.has(k)) continue;
    if (dropStatus && k === 'status') continue;
    out[k] = clean(v, false);
  }
  const meta = out.metadata;
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta)) {
    for (const k of SERVER_METADATA) delete meta[k];
    const refs = meta.ownerReferences;
    if (Array.isArray(refs))
      meta.ownerReferences = refs.map((r) => {
        if (r === null || typeof r !== 'object' || Array.isArray(r)) return r;
        const { uid: _uid, ...rest } = r;
        return rest;
      });
    const annotations = meta.annotations;
    // kube-controller-manager's, on the Deployments it rolls out.
    if (annotations !== null && typeof annotations === 'object' && !Array.isArray(annotations))
      delete annotations['deployment.kubernetes.io/revision'];
  }
  return out;
}

const name = (o: { [k: string]: Json }): string => {
  const m = o.metadata as { name: string; namespace?: string };
  return m.namespace ? `${m.namespace}/${m.name}` : m.name;
};

/**
 * Templates, policies, bindings, Works and member Deployments of the copy of the load in `<prefix>-*`, keyed
 * `<kind>/<cluster or namespace>/<name>`. Deployments are compared without status (kube-controller-manager's).
 */
export async function snapshotLoad(
  host: ClusterInfo,
  members: readonly ClusterInfo[],
  prefix: string,
  namespaces: number,
): Promise<Map<string, Json>> {
  const out = new Map<string, Json>();
  for (let n = 0; n < namespaces; n++) {
    const ns = `${prefix}-${n}`;
    for (const d of await listAll(host, `/apis/apps/v1/namespaces/${ns}/deployments`))
      out.set(`template/${name(d)}`, clean(d, true));
    for (const p of await listAll(
      host,
      `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies`,
    ))
      out.set(`policy/${name(p)}`, clean(p, false));
    for (const b of await listAll(host, `/apis/work.karmada.io/v1alpha2/namespaces/${ns}/resourcebindings`))
      out.set(`binding/${name(b)}`, clean(b, false));
    for (const m of members)
      for (const d of await listAll(m, `/apis/apps/v1/namespaces/${ns}/deployments`))
        out.set(`member/${m.name}/${name(d)}`, clean(d, true));
  }
  for (const w of await listAll(host, '/apis/work.karmada.io/v1alpha1/works')) {
    const annotations = (w.metadata as { annotations?: Record<string, string> }).annotations ?? {};
    if (annotations['resourcebinding.karmada.io/namespace']?.startsWith(`${prefix}-`))
      out.set(`work/${name(w)}`, clean(w, false));
  }
  return out;
}

/** Every Cluster, cleaned: what the cluster controllers wrote. */
export async function snapshotClusters(host: ClusterInfo): Promise<Map<string, Json>> {
  const out = new Map<string, Json>();
  for (const c of await listAll(host, '/apis/cluster.karmada.io/v1alpha1/clusters'))
    out.set(`cluster/${name(c)}`, clean(c, false));
  return out;
}

export interface Difference {
  /** `<kind>` plus the JSON path, e.g. `binding .metadata.finalizers`. */
  readonly where: string;
  readonly before: string;
  readonly after: string;
}

function diffValue(
  kind: string,
  path: string,
  a: Json | undefined,
  b: Json | undefined,
  out: Difference[],
): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  // The template's resourceVersion a binding was built from: another object, another number.
  if (path === '.spec.resource.resourceVersion') return;
  const isObject = (v: Json | undefined): v is { [k: string]: Json } =>
    v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      diffValue(kind, `${path}.${k}`, a[k], b[k], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (const [i, x] of a.entries()) diffValue(kind, `${path}[${i}]`, x, b[i], out);
    return;
  }
  out.push({
    where: `${kind} ${path}`,
    before: JSON.stringify(a) ?? '(absent)',
    after: JSON.stringify(b) ?? '(absent)',
  });
}

/**
 * Differences between two snapshots, object by object (`after` keys mapped through `mapKey`, values through
 * `mapValue`), each kind of difference once with how many objects show it.
 */
export function diffSnapshots(
  before: Snapshot,
  after: Snapshot,
  mapKey: (k: string) => string = (k) => k,
  mapValue: (v: Json) => Json = (v) => v,
): Map<string, { count: number; example: Difference; objects: string[] }> {
  const mapped = new Map<string, Json>();
  for (const [k, v] of after) mapped.set(mapKey(k), mapValue(v));
  const found = new Map<string, { count: number; example: Difference; objects: string[] }>();
  const add = (key: string, d: Difference) => {
    const id = `${d.where}: ${d.before} -> ${d.after}`;
    const seen = found.get(id);
    if (seen) {
      seen.count++;
      if (seen.objects.length < 3) seen.objects.push(key);
    } else found.set(id, { count: 1, example: d, objects: [key] });
  };
  for (const k of new Set([...before.keys(), ...mapped.keys()])) {
    const kind = k.slice(0, k.indexOf('/'));
    const a = before.get(k);
    const b = mapped.get(k);
    if (a === undefined || b === undefined) {
      add(k, {
        where: `${kind} (object)`,
        before: a === undefined ? '(absent)' : 'present',
        after: b === undefined ? '(absent)' : 'present',
      });
      continue;
    }
    const diffs: Difference[] = [];
    diffValue(kind, '', a, b, diffs);
    for (const d of diffs) add(k, d);
  }
  return found;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * Makes the warmstart copy of the load comparable with Karmada's: its namespace prefix becomes Karmada's, a Work
 * name becomes the name the same workload's Work has in Karmada's copy (computed with our `workName`, which the
 * test checks against the names Karmada wrote), and every UUID (permanent ids, uids) becomes `<uuid>`.
 */
export function canonicalizer(
  fromPrefix: string,
  toPrefix: string,
  workloads: readonly { name: string; namespaceIndex: number }[],
): { key: (k: string) => string; value: (v: Json) => Json } {
  const renames: [string, string][] = [];
  for (const w of workloads)
    renames.push([
      workName('Deployment', w.name, `${fromPrefix}-${w.namespaceIndex}`),
      workName('Deployment', w.name, `${toPrefix}-${w.namespaceIndex}`),
    ]);
  const byName = new Map(renames);
  const str = (s: string): string => {
    let t = s.split(`${fromPrefix}-`).join(`${toPrefix}-`);
    const renamed = byName.get(t);
    if (renamed !== undefined) t = renamed;
    return t.replace(UUID, '<uuid>');
  };
  const value = (v: Json): Json => {
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return v.map(value);
    if (v === null || typeof v !== 'object') return v;
    const out: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(v)) out[str(k)] = value(x);
    return out;
  };
  const key = (k: string): string => k.split('/').map(str).join('/');
  return { key, value };
}

/** The same UUID normalization for Karmada's own copy (its ids are random too). */
export function withoutUuids(v: Json): Json {
  if (typeof v === 'string') return v.replace(UUID, '<uuid>');
  if (Array.isArray(v)) return v.map(withoutUuids);
  if (v === null || typeof v !== 'object') return v;
  const out: { [k: string]: Json } = {};
  for (const [k, x] of Object.entries(v)) out[k] = withoutUuids(x);
  return out;
}
