// The manager deployed into a kind host cluster from deploy/, and what a test reads about it there: its pod
// (restart count, container id, address), its /readyz as the kubelet sees it, its /metrics, Service
// endpoints and probe Events. Calls go through kubectl inside the node container (the node holds an admin
// kubeconfig and reaches pod addresses) or the harness's admin client.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { adminRequest } from '../cluster/admin-client.js';
import { docker } from '../cluster/docker.js';
import type { KindCluster } from '../cluster/kind-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity, ensure } from '../karmada/join.js';
import { REPO_ROOT } from '../testing/container-env.js';

export const NAMESPACE = 'karmada-system';
export const APP = 'warmstart-controller-manager';
/** A Service in front of the manager's probe port, so /readyz can be seen gating its endpoints. */
export const PROBE_SERVICE = `${APP}-probes`;
/** Taint that keeps the synthetic load's pods off the node (only the scheduler's first pass pays for them). */
export const LOAD_TAINT = { key: 'warmstart.e2e/no-load', value: 'true', effect: 'NoSchedule' } as const;

/** kubectl as the node's administrator, inside the node container. */
export async function nodeKubectl(
  cluster: KindCluster,
  args: readonly string[],
  stdin?: string,
): Promise<string> {
  if (stdin === undefined) {
    return (
      await docker([
        'exec',
        cluster.nodeContainer,
        'kubectl',
        '--kubeconfig=/etc/kubernetes/admin.conf',
        ...args,
      ])
    ).stdout;
  }
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = execFile(
      'docker',
      ['exec', '-i', cluster.nodeContainer, 'kubectl', '--kubeconfig=/etc/kubernetes/admin.conf', ...args],
      { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    );
    child.stdin?.end(stdin);
  });
}

/** Taints every node of the cluster so load pods stay Pending, as on the local provider (no kubelet there). */
export async function taintAgainstLoad(cluster: KindCluster): Promise<void> {
  await nodeKubectl(cluster, [
    'taint',
    'nodes',
    '--all',
    '--overwrite',
    `${LOAD_TAINT.key}=${LOAD_TAINT.value}:${LOAD_TAINT.effect}`,
  ]);
}

/** Makes a local image available to the cluster's container runtime (no registry: kind copies it in). */
export async function loadImage(kindBin: string, cluster: KindCluster, image: string): Promise<void> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  await promisify(execFile)(kindBin, ['load', 'docker-image', image, '--name', cluster.kindName], {
    timeout: 300_000,
  });
}

export interface ProbeSettings {
  readonly path: string;
  readonly initialDelaySeconds?: number;
  readonly periodSeconds: number;
  readonly timeoutSeconds: number;
  readonly failureThreshold: number;
}

export interface DeployOptions {
  readonly image: string;
  readonly strategy: 'block-reads' | 'gate-start' | 'fallback';
  /** Replaces deploy/'s liveness probe (e.g. Karmada's own settings). */
  readonly livenessProbe?: ProbeSettings | undefined;
  /** Replaces deploy/'s readiness probe; `null` removes it (Karmada's manifest has none). */
  readonly readinessProbe?: ProbeSettings | null | undefined;
  /** Appended to deploy/'s arguments. */
  readonly extraArgs?: readonly string[] | undefined;
  /**
   * A Secret (key `karmada.config`) with the kubeconfig of a Karmada API server apart from the cluster the pod
   * runs in, mounted where Karmada's own manifests mount it and passed as --kubeconfig. deploy/'s RBAC then
   * belongs on that API server (applyManagerRbac), not in the cluster running the pod.
   */
  readonly controlPlaneKubeconfigSecret?: string | undefined;
}

const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);
/** Where Karmada's manifests mount the control plane's kubeconfig (karmada-controller-manager.yaml). */
const CONTROL_PLANE_CONFIG_DIR = '/etc/karmada/config';

type Manifest = {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: Record<string, unknown>;
} & Record<string, unknown>;

function probe(p: ProbeSettings): Record<string, unknown> {
  return {
    httpGet: { path: p.path, port: 'probes' },
    ...(p.initialDelaySeconds === undefined ? {} : { initialDelaySeconds: p.initialDelaySeconds }),
    periodSeconds: p.periodSeconds,
    timeoutSeconds: p.timeoutSeconds,
    failureThreshold: p.failureThreshold,
  };
}

/**
 * deploy/*.yaml as a user applies them, with what this machine needs: the locally built image (never pulled),
 * one replica (a restart is then a restart, not a fail-over), the load taint tolerated, and the chosen
 * strategy and probes. Plus a Service on the probe port.
 */
function readDeploy(files: readonly string[]): Manifest[] {
  return files.flatMap((f) =>
    parseAllDocuments(readFileSync(join(REPO_ROOT, 'deploy', f), 'utf8')).map((d) => d.toJSON() as Manifest),
  );
}

export function deployManifests(options: DeployOptions): Manifest[] {
  const separate = options.controlPlaneKubeconfigSecret !== undefined;
  const docs = readDeploy([
    '00-namespace.yaml',
    '10-serviceaccount.yaml',
    '20-rbac.yaml',
    '30-deployment.yaml',
  ]).filter((d) => !(separate && RBAC_KINDS.has(d.kind)));
  for (const d of docs) {
    if (d.kind !== 'Deployment') continue;
    const spec = d.spec as {
      replicas: number;
      template: {
        spec: {
          tolerations?: unknown[];
          volumes?: unknown[];
          containers: {
            image: string;
            imagePullPolicy?: string;
            args: string[];
            livenessProbe?: unknown;
            readinessProbe?: unknown;
            volumeMounts?: unknown[];
          }[];
        };
      };
    };
    spec.replicas = 1;
    spec.template.spec.tolerations = [{ ...LOAD_TAINT, operator: 'Equal' }];
    const c = spec.template.spec.containers[0]!;
    c.image = options.image;
    c.imagePullPolicy = 'Never';
    c.args = [
      ...c.args.filter((a) => !a.startsWith('--cache-sync-strategy=')),
      `--cache-sync-strategy=${options.strategy}`,
      ...(options.extraArgs ?? []),
    ];
    if (separate) {
      c.args.push(`--kubeconfig=${CONTROL_PLANE_CONFIG_DIR}/karmada.config`);
      c.volumeMounts = [
        ...(c.volumeMounts ?? []),
        { name: 'karmada-config', mountPath: CONTROL_PLANE_CONFIG_DIR, readOnly: true },
      ];
      spec.template.spec.volumes = [
        ...(spec.template.spec.volumes ?? []),
        { name: 'karmada-config', secret: { secretName: options.controlPlaneKubeconfigSecret } },
      ];
    }
    if (options.livenessProbe) c.livenessProbe = probe(options.livenessProbe);
    if (options.readinessProbe === null) delete c.readinessProbe;
    else if (options.readinessProbe) c.readinessProbe = probe(options.readinessProbe);
  }
  docs.push({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: PROBE_SERVICE, namespace: NAMESPACE },
    spec: {
      selector: { 'app.kubernetes.io/name': APP },
      ports: [{ name: 'probes', port: 10357, targetPort: 'probes' }],
    },
  });
  return docs;
}

/**
 * deploy/'s RBAC for a manager that authenticates to the control plane as `user` (a client certificate) rather
 * than as its ServiceAccount: the same rules, bound to that user.
 */
export function managerRbac(user: string): Manifest[] {
  return readDeploy(['20-rbac.yaml'])
    .filter((d) => RBAC_KINDS.has(d.kind))
    .map((d) =>
      'subjects' in d
        ? { ...d, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }] }
        : d,
    );
}

/** Creates deploy/'s Namespace and RBAC, bound to `user`, on a control plane apart from the pod's cluster. */
export async function applyManagerRbac(controlPlane: ClusterInfo, user: string): Promise<void> {
  await ensure(controlPlane, '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: NAMESPACE },
  });
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  for (const d of managerRbac(user)) {
    const plural = `${d.kind.toLowerCase()}s`;
    const ns = d.metadata.namespace;
    await ensure(controlPlane, ns ? `${rbac}/namespaces/${ns}/${plural}` : `${rbac}/${plural}`, d);
  }
}

export async function applyManager(host: KindCluster, options: DeployOptions): Promise<void> {
  const yaml = deployManifests(options)
    .map((d) => stringify(d))
    .join('---\n');
  await nodeKubectl(host, ['apply', '--server-side', '--force-conflicts', '-f', '-'], yaml);
}

export interface PodView {
  readonly name: string;
  readonly uid: string;
  readonly phase: string;
  readonly ip: string | undefined;
  readonly deleting: boolean;
  readonly ready: boolean;
  readonly restartCount: number;
  readonly containerId: string | undefined;
  readonly containerStartedAt: number | undefined;
  readonly image: string | undefined;
}

interface PodJson {
  metadata: { name: string; uid: string; deletionTimestamp?: string };
  status: {
    phase: string;
    podIP?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: {
      restartCount: number;
      containerID?: string;
      image?: string;
      state?: { running?: { startedAt: string } };
    }[];
  };
}

export async function managerPods(host: KindCluster): Promise<PodView[]> {
  const res = await adminRequest(
    adminIdentity(host),
    'GET',
    `/api/v1/namespaces/${NAMESPACE}/pods?labelSelector=${encodeURIComponent(`app.kubernetes.io/name=${APP}`)}`,
  );
  if (res.status !== 200) throw new Error(`listing manager pods: ${res.status} ${res.body.slice(0, 200)}`);
  return (JSON.parse(res.body) as { items: PodJson[] }).items.map((p) => {
    const cs = p.status.containerStatuses?.[0];
    const started = cs?.state?.running?.startedAt;
    return {
      name: p.metadata.name,
      uid: p.metadata.uid,
      phase: p.status.phase,
      ip: p.status.podIP,
      deleting: p.metadata.deletionTimestamp !== undefined,
      ready: p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
      restartCount: cs?.restartCount ?? 0,
      containerId: cs?.containerID?.replace(/^containerd:\/\//, ''),
      containerStartedAt: started ? Date.parse(started) : undefined,
      image: cs?.image,
    };
  });
}

/** The one manager pod that is not being deleted, once it is Ready. */
export async function waitManagerReady(
  host: KindCluster,
  timeoutMs: number,
  accept: (p: PodView) => boolean = () => true,
): Promise<PodView> {
  return waitFor(
    'a Ready manager pod',
    async () => (await managerPods(host)).find((p) => !p.deleting && p.ready && accept(p)),
    { timeoutMs, intervalMs: 250 },
  );
}

/** GET path on the pod's probe port, from inside the node (pod addresses are reachable only there). */
export async function podHttpStatus(host: KindCluster, podIp: string, path: string): Promise<number> {
  const script = `exec 3<>/dev/tcp/${podIp}/10357 && printf 'GET ${path} HTTP/1.0\\r\\n\\r\\n' >&3 && timeout 3 head -1 <&3`;
  try {
    const { stdout } = await docker(['exec', host.nodeContainer, 'bash', '-c', script], {
      timeoutMs: 10_000,
    });
    return Number(/HTTP\/1\.[01] (\d{3})/.exec(stdout)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The manager's /metrics, read inside its pod (they listen on the pod's loopback, as deploy/ configures). */
export async function podMetrics(host: KindCluster, pod: string): Promise<string> {
  return nodeKubectl(host, [
    '-n',
    NAMESPACE,
    'exec',
    pod,
    '--',
    'node',
    '-e',
    'fetch("http://127.0.0.1:8080/metrics").then(r=>r.text()).then(t=>process.stdout.write(t),e=>{console.error(String(e));process.exit(1)})',
  ]);
}

/** Readiness of each endpoint of the probe Service, by pod name. */
export async function serviceEndpoints(host: KindCluster): Promise<Map<string, boolean>> {
  const res = await adminRequest(
    adminIdentity(host),
    'GET',
    `/apis/discovery.k8s.io/v1/namespaces/${NAMESPACE}/endpointslices?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${PROBE_SERVICE}`)}`,
  );
  const out = new Map<string, boolean>();
  if (res.status !== 200) return out;
  const slices = JSON.parse(res.body) as {
    items: { endpoints?: { targetRef?: { name?: string }; conditions?: { ready?: boolean } }[] }[];
  };
  for (const s of slices.items)
    for (const e of s.endpoints ?? [])
      if (e.targetRef?.name) out.set(e.targetRef.name, e.conditions?.ready === true);
  return out;
}

export interface ProbeEvents {
  readonly livenessFailures: number;
  /**
   * Liveness probes refused before the process listened (`listeningAt`), not included in livenessFailures: the
   * kubelet probes a container as soon as it starts, and may probe a killed one before it notices the exit.
   * Neither is a failure of the process being measured; a refusal after it answered is.
   */
  readonly livenessRefusedBeforeListening: number;
  readonly readinessFailures: number;
  /** The kubelet killed the container because its liveness probe failed. */
  readonly killedForLiveness: number;
  /** Every probe failure and kill counted above, as "<last seen> x<count> <message>", for the failure message. */
  readonly seen: readonly string[];
}

export interface ProbeEventsOptions {
  /** Only Events last seen at or after this time (ms). */
  readonly since?: number | undefined;
  /** When the process measured was first seen answering on its probe port (ms): see livenessRefusedBeforeListening. */
  readonly listeningAt?: number | undefined;
}

/**
 * Probe Events the kubelet recorded about one pod. A container killed on purpose may fail one liveness probe in
 * the second before the kubelet sees it gone: counted from the new container's start (`since`), that failure is
 * not the new container's.
 */
export async function probeEvents(
  host: KindCluster,
  pod: string,
  options: ProbeEventsOptions = {},
): Promise<ProbeEvents> {
  const res = await adminRequest(
    adminIdentity(host),
    'GET',
    `/api/v1/namespaces/${NAMESPACE}/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${pod}`)}`,
  );
  type Event = {
    reason: string;
    message: string;
    count?: number;
    lastTimestamp?: string;
    eventTime?: string;
  };
  const seenAt = (e: Event): number => Date.parse(e.lastTimestamp ?? e.eventTime ?? '');
  const { since, listeningAt } = options;
  const events = (JSON.parse(res.body) as { items: Event[] }).items.filter(
    // Event times have whole seconds: compare against the start's second.
    (e) => since === undefined || !(seenAt(e) < Math.floor(since / 1000) * 1000),
  );
  const liveness = (e: Event) => e.reason === 'Unhealthy' && e.message.startsWith('Liveness probe failed');
  // Up to the second it was first seen answering (Event times are whole seconds). An Event seen again is one
  // object with a count and its last time: a refusal repeated later is counted whole.
  const refusedBeforeListening = (e: Event) =>
    liveness(e) &&
    listeningAt !== undefined &&
    e.message.includes('connection refused') &&
    seenAt(e) <= Math.floor(listeningAt / 1000) * 1000;
  const sum = (f: (e: Event) => boolean) => events.filter(f).reduce((n, e) => n + (e.count ?? 1), 0);
  const killed = (e: Event) => e.reason === 'Killing' && e.message.includes('liveness');
  const readiness = (e: Event) => e.reason === 'Unhealthy' && e.message.startsWith('Readiness probe failed');
  return {
    livenessFailures: sum((e) => liveness(e) && !refusedBeforeListening(e)),
    livenessRefusedBeforeListening: sum(refusedBeforeListening),
    readinessFailures: sum(readiness),
    killedForLiveness: sum(killed),
    seen: events
      .filter((e) => liveness(e) || readiness(e) || killed(e))
      .map((e) => `${e.lastTimestamp ?? e.eventTime ?? '?'} x${e.count ?? 1} ${e.message}`),
  };
}
