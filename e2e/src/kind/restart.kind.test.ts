// The manager as users deploy it (deploy/, the image scripts/build-manager-image.sh builds) in the host kind
// cluster, talking to a Karmada API server that runs there too (karmada-apiserver.ts, Karmada's own layout), in
// front of a synthetic load propagated to two member kind clusters, with probes run by a real kubelet. Restarted
// by deleting its pod and by killing its container: no direct reads and no writes after either (the Karmada API
// server's audit log), never restarted for a failed liveness probe while its caches fill, and kept out of its
// Service's endpoints until /readyz says synced. Then gate-start under Karmada's own probe settings.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { containerMemoryBytes } from '../cluster/docker.js';
import { waitFor } from '../cluster/wait.js';
import { installCrds } from '../karmada/join.js';
import { prepareLoad, waitPropagated } from '../restart/scenario.js';
import { containerTestsSkipped } from '../testing/container-env.js';
import {
  applyManager,
  applyManagerRbac,
  loadImage,
  managerPods,
  type PodView,
  probeEvents,
  taintAgainstLoad,
  waitManagerReady,
} from './in-cluster.js';
import { installKarmadaApiserver, KARMADA_CONFIG_SECRET } from './karmada-apiserver.js';
import { type InClusterRestartRow, type InClusterSet, restartInCluster } from './restart-in-cluster.js';

const WORKLOADS = Number(process.env.WARMSTART_KIND_WORKLOADS ?? 2000);
/** Karmada's karmada-controller-manager Deployment (artifacts/deploy): liveness on /healthz, no readiness. */
const KARMADA_LIVENESS = {
  path: '/healthz',
  initialDelaySeconds: 15,
  periodSeconds: 15,
  timeoutSeconds: 5,
  failureThreshold: 3,
} as const;

/** As the local restart scenario: a first propagation costs about ten writes per workload; 40 qps is slow. */
const QPS_ARGS = [
  '--kube-api-qps=1000',
  '--kube-api-burst=2000',
  '--cluster-api-qps=1000',
  '--cluster-api-burst=2000',
];

describe.skipIf(containerTestsSkipped())(
  `the manager image in a kind host cluster, ${WORKLOADS} workloads`,
  () => {
    let set: InClusterSet;
    let pod: PodView;
    const rows: InClusterRestartRow[] = [];

    beforeAll(async () => {
      const [host, ...members] = inject('kindClusters');
      const env = inject('containerEnv');
      if (!host || members.length < 2) throw new Error('needs the kind set of 3 clusters');
      // Members store what is propagated and run no ReplicaSet controller; the taint keeps it so if they did.
      for (const m of members) await taintAgainstLoad(m);
      const t0 = Date.now();
      const karmada = await installKarmadaApiserver(host);
      process.stderr.write(`[kind] karmada-apiserver ready in ${Date.now() - t0} ms at ${karmada.server}\n`);
      await installCrds(karmada);
      await applyManagerRbac(karmada, karmada.managerUser);
      await loadImage(env.kindBin, host, env.managerImage);
      await applyManager(host, {
        image: env.managerImage,
        strategy: 'block-reads',
        extraArgs: QPS_ARGS,
        controlPlaneKubeconfigSecret: KARMADA_CONFIG_SECRET,
      });
      pod = await waitManagerReady(host, 300_000);
      const loaded = await prepareLoad(karmada, members.slice(0, 2), WORKLOADS);
      set = { ...loaded, hostCluster: host };
      await waitPropagated(set, Math.max(600_000, WORKLOADS * 300));
      const memory = await Promise.all(
        [host, ...members].map(
          async (c) => `${c.name} ${Math.round((await containerMemoryBytes(c.nodeContainer)) / 2 ** 20)} MiB`,
        ),
      );
      process.stderr.write(
        `[kind] propagated ${WORKLOADS} workloads in ${Date.now() - t0} ms; node memory: ${memory.join(', ')}\n`,
      );
    });

    afterAll(() => {
      if (rows.length > 0) process.stderr.write(`[kind restart] ${JSON.stringify(rows, null, 2)}\n`);
    });

    for (const how of ['delete-pod', 'kill-container'] as const) {
      it(`${how}: no direct reads, no writes, no liveness kill, out of endpoints until synced`, async () => {
        const { row, pod: next } = await restartInCluster(set, pod, how);
        pod = next;
        rows.push(row);
        // staleBindingsBefore is reported, not asserted: our own status aggregation moves every template's
        // resourceVersion, and a restart leaves a binding that differs only in that alone (status-only-change test).
        expect(row.directReads, JSON.stringify(row.detail)).toBe(0);
        expect(row.writesAfterRestart, JSON.stringify(row.detail)).toBe(0);
        expect(row.restartCount).toBe(row.expectedRestartCount);
        expect(row.livenessFailures, row.probeEvents.join('\n')).toBe(0);
        expect(row.killedForLiveness, row.probeEvents.join('\n')).toBe(0);
        expect(row.samples).toBeGreaterThan(0);
        expect(row.readyEndpointWhileNotSynced).toBe(0);
        expect(row.changePropagatedMs).toBeGreaterThan(0);
      });
    }

    it("gate-start under Karmada's probe settings (liveness /healthz 15 s/15 s/5 s x3, no readiness)", async () => {
      const host = set.hostCluster;
      const before = new Set((await managerPods(host)).map((p) => p.uid));
      const env = inject('containerEnv');
      const t0 = Date.now();
      await applyManager(host, {
        image: env.managerImage,
        strategy: 'gate-start',
        livenessProbe: KARMADA_LIVENESS,
        readinessProbe: null,
        controlPlaneKubeconfigSecret: KARMADA_CONFIG_SECRET,
      });
      const fresh = await waitManagerReady(host, 300_000, (p) => !before.has(p.uid));
      // The kubelet needs initialDelay + failureThreshold x period to kill a container that never answers: wait
      // until this pod has lived that long, so a kill would have happened.
      const killWindowMs =
        (KARMADA_LIVENESS.initialDelaySeconds +
          KARMADA_LIVENESS.failureThreshold * KARMADA_LIVENESS.periodSeconds +
          5) *
        1000;
      const seen = await waitFor(
        'the gate-start pod to outlive the liveness kill window',
        async () => {
          const p = (await managerPods(host)).find((x) => x.uid === fresh.uid);
          if (!p) throw new Error(`pod ${fresh.name} disappeared`);
          if (p.restartCount > 0) return p;
          return p.containerStartedAt !== undefined && Date.now() - p.containerStartedAt > killWindowMs
            ? p
            : undefined;
        },
        { timeoutMs: killWindowMs + 300_000, intervalMs: 1000 },
      );
      const probes = await probeEvents(host, fresh.name);
      process.stderr.write(
        `[kind gate-start] Karmada probes, ${WORKLOADS} workloads: ready after ${Date.now() - t0} ms (rollout), restartCount ${seen.restartCount}, liveness failures ${probes.livenessFailures}, killed ${probes.killedForLiveness}\n`,
      );
      expect(seen.restartCount).toBe(0);
      expect(probes.killedForLiveness, probes.seen.join('\n')).toBe(0);
    });
  },
);
