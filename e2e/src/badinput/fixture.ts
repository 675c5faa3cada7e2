// What every bad-input test needs around its one bad object: the shared set prepared (CRDs, members joined),
// a manager process whose /livez is watched the whole time, namespaces that exist on the host and every
// member and are removed afterwards, Events read back by reason, and the proof that the manager still works:
// a normal Deployment with a PropagationPolicy, created after the bad input, reaches both members.
import { adminRequest, type TlsIdentity } from '../cluster/admin-client.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity, installCrds, joinMember } from '../karmada/join.js';
import { type ManagerProcess, metricValue, startManager } from '../manager/manager-process.js';

export class KubeRequestError extends Error {
  constructor(method: string, path: string, status: number, body: string) {
    super(`${method} ${path} answered ${status}: ${body.slice(0, 500)}`);
    this.name = 'KubeRequestError';
  }
}

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly deletionTimestamp?: string;
}

export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
}

export interface KubeEvent extends KubeObject {
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly count?: number;
  readonly involvedObject: { readonly kind?: string; readonly name?: string; readonly namespace?: string };
}

/** JSON over the admin identity of one cluster: harness code, so it may read the API server directly. */
export class Kube {
  readonly cluster: ClusterInfo;
  readonly #id: TlsIdentity;

  constructor(cluster: ClusterInfo) {
    this.cluster = cluster;
    this.#id = adminIdentity(cluster);
  }

  async #call(
    method: string,
    path: string,
    ok: readonly number[],
    body?: unknown,
    contentType?: string,
  ): Promise<{ status: number; body: string }> {
    const res = await adminRequest(this.#id, method, path, body, undefined, contentType);
    if (!ok.includes(res.status)) throw new KubeRequestError(method, path, res.status, res.body);
    return res;
  }

  async create<T extends KubeObject>(collection: string, body: unknown): Promise<T> {
    return JSON.parse((await this.#call('POST', collection, [201], body)).body) as T;
  }

  /** Creates, or leaves in place what already exists (409). */
  async ensure(collection: string, body: unknown): Promise<void> {
    await this.#call('POST', collection, [201, 409], body);
  }

  async get<T extends KubeObject>(path: string): Promise<T | undefined> {
    const res = await this.#call('GET', path, [200, 404]);
    return res.status === 404 ? undefined : (JSON.parse(res.body) as T);
  }

  /** Every item of a collection, page by page. */
  async list<T extends KubeObject>(collection: string): Promise<T[]> {
    const out: T[] = [];
    let cont = '';
    do {
      const sep = collection.includes('?') ? '&' : '?';
      const res = await this.#call(
        'GET',
        `${collection}${sep}limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
        [200],
      );
      const page = JSON.parse(res.body) as { items: T[]; metadata: { continue?: string } };
      out.push(...page.items);
      cont = page.metadata.continue ?? '';
    } while (cont);
    return out;
  }

  /** Number of items, from one small page and the server's remainingItemCount. */
  async count(collection: string): Promise<number> {
    const sep = collection.includes('?') ? '&' : '?';
    const res = await this.#call('GET', `${collection}${sep}limit=1`, [200]);
    const page = JSON.parse(res.body) as { items: unknown[]; metadata: { remainingItemCount?: number } };
    return page.items.length + (page.metadata.remainingItemCount ?? 0);
  }

  async mergePatch<T extends KubeObject>(path: string, patch: unknown): Promise<T> {
    return JSON.parse(
      (await this.#call('PATCH', path, [200], patch, 'application/merge-patch+json')).body,
    ) as T;
  }

  async delete(path: string): Promise<void> {
    await this.#call('DELETE', path, [200, 202, 404]);
  }
}

export const PP_GROUP = '/apis/policy.karmada.io/v1alpha1';
export const RB_GROUP = '/apis/work.karmada.io/v1alpha2';
export const PERMANENT_ID = 'propagationpolicy.karmada.io/permanent-id';
export const POLICY_NAME = 'propagationpolicy.karmada.io/name';
export const POLICY_NAMESPACE = 'propagationpolicy.karmada.io/namespace';

export const policies = (ns: string): string => `${PP_GROUP}/namespaces/${ns}/propagationpolicies`;
export const bindings = (ns: string): string => `${RB_GROUP}/namespaces/${ns}/resourcebindings`;
export const deployments = (ns: string): string => `/apis/apps/v1/namespaces/${ns}/deployments`;
export const configMaps = (ns: string): string => `/api/v1/namespaces/${ns}/configmaps`;

export function deployment(
  ns: string,
  name: string,
  replicas: number,
  labels: Record<string, string> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { app: name, ...labels } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'registry.example.com/app:1' }] },
      },
    },
  };
}

export function propagationPolicy(
  ns: string,
  name: string,
  resourceSelectors: readonly Record<string, unknown>[],
  members: readonly string[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace: ns },
    spec: { resourceSelectors, placement: { clusterAffinity: { clusterNames: [...members] } }, ...extra },
  };
}

/** Polls /livez every 250 ms while the tests run and remembers every answer that was not 200. */
export class LivezWatch {
  readonly failures: string[] = [];
  samples = 0;
  readonly #timer: NodeJS.Timeout;
  #manager: ManagerProcess | undefined;

  constructor(manager: ManagerProcess) {
    this.#manager = manager;
    this.#timer = setInterval(() => void this.#probe(), 250);
  }

  /** Before a deliberate stop: the stopped process's refusals are not failures. */
  pause(): void {
    this.#manager = undefined;
  }

  /** Watches the process that replaced the stopped one. */
  follow(manager: ManagerProcess): void {
    this.#manager = manager;
  }

  async #probe(): Promise<void> {
    const m = this.#manager;
    if (!m) return;
    const res = await fetch(`${m.probesUrl}/livez`, { signal: AbortSignal.timeout(5_000) }).catch(
      (error: unknown) => error as Error,
    );
    if (m !== this.#manager) return;
    this.samples++;
    if (res instanceof Error) this.failures.push(`${new Date().toISOString()} ${res.message}`);
    else if (res.status !== 200) this.failures.push(`${new Date().toISOString()} HTTP ${res.status}`);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

/** The shared set of the integration project, prepared for the manager: CRDs, both members joined. */
export interface BadInputSet {
  readonly host: Kube;
  readonly members: readonly Kube[];
  readonly hostInfo: ClusterInfo;
  readonly memberNames: readonly string[];
}

export async function prepareSet(clusters: readonly ClusterInfo[]): Promise<BadInputSet> {
  const [host, m1, m2] = clusters;
  if (!host || !m1 || !m2) throw new Error('needs the shared set of 3 clusters (WARMSTART_TEST_CLUSTERS=3)');
  await installCrds(host);
  await joinMember(host, m1);
  await joinMember(host, m2);
  const h = new Kube(host);
  await h.ensure('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'karmada-system' },
  });
  return { host: h, members: [new Kube(m1), new Kube(m2)], hostInfo: host, memberNames: [m1.name, m2.name] };
}

/** Large inputs make ~10 writes per object; Karmada's default 40 qps would make the test about the limiter. */
export const QPS_FLAGS = [
  '--kube-api-qps=1000',
  '--kube-api-burst=2000',
  '--cluster-api-qps=1000',
  '--cluster-api-burst=2000',
];

/** Starts the built manager and waits until it is ready and sees both members Ready. */
export async function startReadyManager(
  set: BadInputSet,
  identity: string,
  extraArgs: readonly string[] = [],
): Promise<ManagerProcess> {
  const manager = await startManager({
    kubeconfig: set.hostInfo.managerKubeconfig,
    identity,
    args: ['--cluster-status-update-frequency=2s', ...QPS_FLAGS, ...extraArgs],
  });
  await manager.livezMs();
  await waitFor('the manager to be ready', async () => (await manager.readyz()).status === 200, {
    timeoutMs: 60_000,
    intervalMs: 200,
  });
  await waitFor(
    'both member Clusters Ready',
    async () => {
      const clusters = await set.host.list<
        KubeObject & { status?: { conditions?: { type: string; status: string }[] } }
      >('/apis/cluster.karmada.io/v1alpha1/clusters');
      return set.memberNames.every((n) =>
        clusters.some(
          (c) =>
            c.metadata.name === n &&
            c.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'),
        ),
      );
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  return manager;
}

/** Creates a fresh namespace on the host and every member (no namespace propagation here yet). */
export async function uniqueNamespace(set: BadInputSet, prefix: string, created: string[]): Promise<string> {
  const ns = `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  for (const k of [set.host, ...set.members])
    await k.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  created.push(ns);
  return ns;
}

/** Waits for an Event of this reason about the named object, and returns it. */
export async function waitForEvent(
  host: Kube,
  ns: string,
  match: { readonly kind: string; readonly name: string; readonly reason: string },
  timeoutMs = 60_000,
): Promise<KubeEvent> {
  return waitFor(
    `a ${match.reason} Event about ${match.kind} ${ns}/${match.name.slice(0, 40)}`,
    async () =>
      (await host.list<KubeEvent>(`/api/v1/namespaces/${ns}/events`)).find(
        (e) =>
          e.reason === match.reason &&
          e.involvedObject.kind === match.kind &&
          e.involvedObject.name === match.name,
      ),
    { timeoutMs, intervalMs: 250 },
  );
}

/** Every work queue of the manager empty, and it has reconciled something since it started. */
export async function waitQueuesDrained(manager: ManagerProcess, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    'the manager work queues to drain',
    async () => {
      const text = await manager.metrics();
      return (
        metricValue(text, 'workqueue_depth') === 0 &&
        metricValue(text, 'workqueue_work_duration_seconds_count') > 0
      );
    },
    { timeoutMs, intervalMs: 200 },
  );
}

async function memberReplicas(member: Kube, ns: string, name: string): Promise<number | undefined> {
  const d = await member.get<KubeObject & { spec?: { replicas?: number } }>(`${deployments(ns)}/${name}`);
  return d?.spec?.replicas;
}

/**
 * The outcome every bad-input case shares: the process is still running, /livez answered 200 at every sample
 * so far, and a normal Deployment with a PropagationPolicy, created now, reaches every member with no Warning
 * Event on the way.
 */
export async function assertStillServing(
  set: BadInputSet,
  manager: ManagerProcess,
  livez: LivezWatch,
  created: string[],
): Promise<void> {
  const alive = await Promise.race([
    manager.exited.then(() => false),
    new Promise<boolean>((resolve) => setImmediate(() => resolve(true))),
  ]);
  if (!alive) throw new Error(`the manager exited: ${manager.logs().slice(-5).join('\n')}`);
  const now = await fetch(`${manager.probesUrl}/livez`);
  if (now.status !== 200) throw new Error(`/livez answered ${now.status}`);
  if (livez.failures.length > 0)
    throw new Error(`/livez failed ${livez.failures.length} times: ${livez.failures.slice(0, 5).join('; ')}`);
  if (livez.samples === 0) throw new Error('/livez was never sampled');
  const ns = await uniqueNamespace(set, 'canary', created);
  const replicas = 2 + (Date.now() % 5);
  await set.host.create(deployments(ns), deployment(ns, 'canary', replicas));
  await set.host.create(
    policies(ns),
    propagationPolicy(
      ns,
      'canary',
      [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'canary' }],
      set.memberNames,
    ),
  );
  for (const m of set.members) {
    await waitFor(
      `the canary Deployment with ${replicas} replicas in ${m.cluster.name}`,
      async () => (await memberReplicas(m, ns, 'canary')) === replicas,
      { timeoutMs: 90_000, intervalMs: 250 },
    ).catch((error: unknown) => {
      // What the manager said about the canary and the member is what tells why: keep it in the failure.
      const said = manager
        .logs()
        .filter((l) => l.includes(ns) || (l.includes(m.cluster.name) && !l.includes('"level":30')))
        .slice(-15);
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${said.join('\n')}`, {
        cause: error,
      });
    });
  }
  // A normal object propagates without a single warning on the way.
  const warnings = (await set.host.list<KubeEvent>(`/api/v1/namespaces/${ns}/events`)).filter(
    (e) => e.type === 'Warning',
  );
  if (warnings.length > 0)
    throw new Error(
      `warnings about the canary: ${warnings.map((e) => `${e.reason}: ${e.message}`).join('; ')}`,
    );
}

/**
 * Deletes the namespaces a file created (host first, while the manager still runs, so bindings, Works and
 * policy finalizers are released), waits until the host has them gone, then removes the members' copies.
 * Leftovers would be reconciled, and retried, by every later test on the shared set.
 */
export async function removeNamespaces(set: BadInputSet, names: readonly string[], timeoutMs: number) {
  for (const ns of names) await set.host.delete(`/api/v1/namespaces/${ns}`);
  await waitFor(
    `${names.length} namespaces gone from the host`,
    async () => {
      for (const ns of names) if (await set.host.get(`/api/v1/namespaces/${ns}`)) return false;
      return true;
    },
    { timeoutMs, intervalMs: 500 },
  );
  for (const m of set.members) for (const ns of names) await m.delete(`/api/v1/namespaces/${ns}`);
}
