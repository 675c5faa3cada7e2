// The README's main job: a local control plane (a host and two member clusters), the Karmada CRDs, the
// members joined, sample Deployments with PropagationPolicies, and warmstart-controller-manager running
// with its dashboard. Stays up until Ctrl-C, then stops everything it started.
import { adminRequest } from './cluster/admin-client.js';
import { LocalProvider } from './cluster/local-provider.js';
import { waitFor } from './cluster/wait.js';
import { adminIdentity, installCrds, joinMember } from './karmada/join.js';
import { startManager } from './manager/manager-process.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
const dashboardPort = Number(process.env.WARMSTART_DEMO_DASHBOARD_PORT ?? 8090);

const set = await new LocalProvider().up({ clusters: 3 });
const [host, member1, member2] = set.clusters as [
  (typeof set.clusters)[0],
  (typeof set.clusters)[0],
  (typeof set.clusters)[0],
];
say('installing the Karmada CRDs and joining member1 and member2 ...');
await installCrds(host);
await joinMember(host, member1, { region: 'east' });
await joinMember(host, member2, { region: 'west' });
const id = adminIdentity(host);
const post = async (path: string, body: unknown): Promise<void> => {
  const res = await adminRequest(id, 'POST', path, body);
  if (res.status !== 201 && res.status !== 409)
    throw new Error(`POST ${path}: ${res.status} ${res.body.slice(0, 300)}`);
};
await post('/api/v1/namespaces', {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'karmada-system' },
});
for (const c of [host, member1, member2]) {
  const r = await adminRequest(adminIdentity(c), 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'demo' },
  });
  if (r.status !== 201 && r.status !== 409) throw new Error(`namespace demo on ${c.name}: ${r.status}`);
}
const deployment = (name: string, replicas: number, tier: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'demo', labels: { app: name, tier } },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name, tier } },
      spec: { containers: [{ name: 'app', image: `registry.example.com/${name}:1` }] },
    },
  },
});
for (const [name, replicas, tier] of [
  ['web', 2, 'frontend'],
  ['api', 9, 'backend'],
  ['worker', 3, 'backend'],
] as const) {
  await post('/apis/apps/v1/namespaces/demo/deployments', deployment(name, replicas, tier));
}
await post('/apis/policy.karmada.io/v1alpha1/namespaces/demo/propagationpolicies', {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'frontend-everywhere', namespace: 'demo' },
  spec: {
    resourceSelectors: [
      { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { tier: 'frontend' } } },
    ],
    placement: { clusterAffinity: { clusterNames: ['member1', 'member2'] } },
  },
});
await post('/apis/policy.karmada.io/v1alpha1/namespaces/demo/propagationpolicies', {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'backend-split', namespace: 'demo' },
  spec: {
    resourceSelectors: [
      { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { tier: 'backend' } } },
    ],
    placement: {
      clusterAffinity: { clusterNames: ['member1', 'member2'] },
      replicaScheduling: {
        replicaSchedulingType: 'Divided',
        replicaDivisionPreference: 'Weighted',
        weightPreference: {
          staticWeightList: [
            { targetCluster: { clusterNames: ['member1'] }, weight: 1 },
            { targetCluster: { clusterNames: ['member2'] }, weight: 2 },
          ],
        },
      },
    },
  },
});

say('starting warmstart-controller-manager ...');
const manager = await startManager({
  kubeconfig: host.managerKubeconfig,
  dashboardBindAddress: `127.0.0.1:${dashboardPort}`,
  logPath: `${set.workDir}/manager.log`,
});
const livez = await manager.livezMs();
await waitFor('the manager to be ready', async () => (await manager.readyz()).status === 200, {
  timeoutMs: 120_000,
  intervalMs: 200,
});
say(`
warmstart demo is running (manager live after ${livez} ms). Press Ctrl-C to stop everything.

  dashboard        http://127.0.0.1:${dashboardPort}/
  readiness        curl '${manager.probesUrl}/readyz?verbose'
  metrics          curl ${manager.metricsUrl}/metrics | grep -E 'warmstart_|workqueue_depth'
  manager log      ${set.workDir}/manager.log

  host     export KUBECONFIG=${host.adminKubeconfig}
  member1  export KUBECONFIG=${member1.adminKubeconfig}
  member2  export KUBECONFIG=${member2.adminKubeconfig}

Three Deployments in namespace "demo" on the host: "web" goes to both members (2 replicas each); "api" (9)
and "worker" (3) are split 1:2 between member1 and member2. With any Kubernetes client and the kubeconfigs
above, look at resourcebindings.work.karmada.io on the host, works.work.karmada.io in karmada-es-member1,
and deployments in "demo" on each member. Change a replica count on the host and watch it reach the members.
`);
const stop = async (): Promise<void> => {
  await manager.stop('SIGTERM');
  await set.down();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
setInterval(() => undefined, 1 << 30);
