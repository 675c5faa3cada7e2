// A restart of the manager running in the host kind cluster, measured from outside: the pod deleted (the
// kubelet stops it with SIGTERM, the Deployment starts another) or its container killed (SIGKILL through the
// node's containerd; the kubelet restarts it in place). Counts come from the Karmada API server's audit log
// (karmada-apiserver.ts), by the same rules as the local restart scenario (e2e/src/restart/scenario.ts): a
// direct read is a `get` or a `list` without resourceVersion; a write is any write except the Lease and the one
// workload changed on purpose.
import { readAuditLog } from '../audit/audit-log.js';
import { adminRequest } from '../cluster/admin-client.js';
import { docker } from '../cluster/docker.js';
import type { KindCluster } from '../cluster/kind-provider.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity } from '../karmada/join.js';
import { metricValue } from '../manager/manager-process.js';
import { changeReplicas, waitInEveryMember } from '../restart/replica-change.js';
import { auditBarrier, type LoadedSet } from '../restart/scenario.js';
import { staleDeploymentBindings } from '../restart/stale-bindings.js';
import {
  managerPods,
  NAMESPACE,
  type PodView,
  podHttpStatus,
  podMetrics,
  probeEvents,
  serviceEndpoints,
} from './in-cluster.js';

/**
 * The load on the Karmada API server (`host`: templates, policies, bindings, Works) and the host kind cluster
 * whose kubelet runs the manager's pod (`hostCluster`).
 */
export type InClusterSet = LoadedSet & { readonly hostCluster: KindCluster };

export type InClusterRestart = 'delete-pod' | 'kill-container';

export interface InClusterRestartRow {
  readonly restart: InClusterRestart;
  readonly workloads: number;
  readonly directReads: number;
  readonly writesAfterRestart: number;
  /** From the restart until the new container's Ready condition. */
  readonly readyMs: number;
  readonly changePropagatedMs: number;
  /** Restart count of the container serving after the restart, and what it was expected to be. */
  readonly restartCount: number;
  readonly expectedRestartCount: number;
  readonly livenessFailures: number;
  /** Liveness probes refused before the new process answered on its probe port, not in livenessFailures. */
  readonly livenessRefusedBeforeListening: number;
  readonly killedForLiveness: number;
  readonly readinessFailures: number;
  /** The probe Events behind the three counts above, for a failure's message. */
  readonly probeEvents: readonly string[];
  /** Samples of (/readyz from the node, the pod's Service endpoint) taken while the new container started. */
  readonly samples: number;
  /** Samples where /readyz answered 503 (caches not synced) — the endpoint must have been not ready in each. */
  readonly notSyncedSamples: number;
  /** Samples where the Service listed the pod as ready while its /readyz did not answer 200. */
  readonly readyEndpointWhileNotSynced: number;
  readonly detail: Readonly<Record<string, number>>;
  /** Bindings naming an older template resourceVersion than the template's, just before the restart. */
  readonly staleBindingsBefore: number;
}

/** Leader election renews its Lease; the workload changed on purpose is propagated (its binding, Works, Events). */
function expectedWrite(resource: string | undefined, name: string, changed: string): boolean {
  if (resource === 'leases') return true;
  return name === changed || name.startsWith(`${changed}-`) || name.startsWith(`${changed}.`);
}

/** Replaces the running manager as `how` says and measures the new one; `previous` is the pod serving now. */
export async function restartInCluster(
  set: InClusterSet,
  previous: PodView,
  how: InClusterRestart,
): Promise<{ row: InClusterRestartRow; pod: PodView }> {
  const host = set.hostCluster;
  const karmada = set.host;
  const timeoutMs = Math.max(300_000, set.workloads * 60);
  const staleBindingsBefore = (await staleDeploymentBindings(karmada)).length;
  const since = Date.now();
  if (how === 'delete-pod') {
    const res = await adminRequest(
      adminIdentity(host),
      'DELETE',
      `/api/v1/namespaces/${NAMESPACE}/pods/${previous.name}`,
    );
    if (res.status !== 200)
      throw new Error(`deleting ${previous.name}: ${res.status} ${res.body.slice(0, 200)}`);
  } else {
    if (!previous.containerId) throw new Error(`${previous.name} has no running container to kill`);
    await docker([
      'exec',
      host.nodeContainer,
      'ctr',
      '-n',
      'k8s.io',
      'task',
      'kill',
      '-s',
      'SIGKILL',
      previous.containerId,
    ]);
  }
  const isNew = (p: PodView): boolean =>
    how === 'delete-pod'
      ? p.uid !== previous.uid && !p.deleting
      : p.uid === previous.uid && p.containerId !== undefined && p.containerId !== previous.containerId;

  // Until the new container is Ready: sample its /readyz (from the node) and its Service endpoint together.
  let samples = 0;
  let listeningAt: number | undefined;
  let notSyncedSamples = 0;
  let readyEndpointWhileNotSynced = 0;
  const pod = await waitFor(
    `the manager to come back after ${how}`,
    async () => {
      const current = (await managerPods(host)).find(isNew);
      if (!current?.ip || current.containerId === undefined) return undefined;
      const endpoints = await serviceEndpoints(host);
      const readyz = await podHttpStatus(host, current.ip, '/readyz');
      if (readyz !== 0) {
        listeningAt ??= Date.now();
        samples++;
        if (readyz !== 200) {
          notSyncedSamples++;
          // The endpoint read before the probe answered 503 must not be ready: the kubelet cannot have seen a
          // 200 that this 503 came after (readiness only goes 503 -> 200 during start-up).
          if (endpoints.get(current.name) === true) readyEndpointWhileNotSynced++;
        }
      }
      return current.ready ? current : undefined;
    },
    { timeoutMs, intervalMs: 200 },
  );
  const readyMs = Date.now() - since;

  // A change right after the restart, as in the local scenario: it must reach every member.
  const change = await changeReplicas(set, set.workloads - 1);
  const changed = change.name;
  const changePropagatedMs = await waitInEveryMember(set, change, change.at, timeoutMs);
  await waitFor(
    'the work queues to drain',
    async () => metricValue(await podMetrics(host, pod.name), 'workqueue_depth') === 0,
    { timeoutMs, intervalMs: 1000 },
  );
  await auditBarrier(karmada);
  const events = await readAuditLog(karmada.auditLogPath!, { user: karmada.managerUser, since });
  const detail: Record<string, number> = {};
  let directReads = 0;
  let writes = 0;
  for (const e of events) {
    const direct = e.class === 'direct-get' || e.class === 'direct-list';
    const write =
      e.class === 'write' && !expectedWrite(e.objectRef?.resource, e.objectRef?.name ?? '', changed);
    if (direct) directReads++;
    if (write) writes++;
    if (direct || write)
      detail[`${e.verb} ${e.resourceKey}`] = (detail[`${e.verb} ${e.resourceKey}`] ?? 0) + 1;
  }
  const now = (await managerPods(host)).find((p) => p.uid === pod.uid) ?? pod;
  // From the pod's creation for a new pod; for a killed container from the new container's start (the kubelet may
  // probe the killed one once before it notices the exit, even in the second the new one starts). Refusals before
  // the new process was first seen answering are reported apart. The earlier life's failures were counted by the
  // case before it, which asserted none.
  const probes = await probeEvents(host, pod.name, {
    since: how === 'kill-container' ? (now.containerStartedAt ?? pod.containerStartedAt) : undefined,
    listeningAt,
  });
  return {
    pod: now,
    row: {
      restart: how,
      workloads: set.workloads,
      directReads,
      writesAfterRestart: writes,
      readyMs,
      changePropagatedMs,
      restartCount: now.restartCount,
      expectedRestartCount: how === 'delete-pod' ? 0 : previous.restartCount + 1,
      livenessFailures: probes.livenessFailures,
      livenessRefusedBeforeListening: probes.livenessRefusedBeforeListening,
      killedForLiveness: probes.killedForLiveness,
      readinessFailures: probes.readinessFailures,
      probeEvents: probes.seen,
      samples,
      notSyncedSamples,
      readyEndpointWhileNotSynced,
      detail,
      staleBindingsBefore,
    },
  };
}
