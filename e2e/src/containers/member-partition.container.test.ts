// Member clusters as API server containers: one is cut off from the manager (docker network disconnect) and
// restored. The manager marks it not Ready and keeps serving the other member; what changed meanwhile reaches
// the cut-off member once it is back, and nothing is lost.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminRequest } from '../cluster/admin-client.js';
import { type ContainerClusterSet, ContainerProvider } from '../cluster/container-provider.js';
import { docker } from '../cluster/docker.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity } from '../karmada/join.js';
import { deployment, namespaceOf, workloadName } from '../load/workloads.js';
import { type LoadedSet, prepareLoad, waitPropagated } from '../restart/scenario.js';
import { containerTestsSkipped } from '../testing/container-env.js';
import { type StartedManager, startManagerContainer } from './manager-container.js';

const LABEL = 'member-partition';
const WORKLOADS = Number(process.env.WARMSTART_PARTITION_WORKLOADS ?? 200);

async function clusterReady(set: LoadedSet, name: string): Promise<string | undefined> {
  const res = await adminRequest(
    adminIdentity(set.host),
    'GET',
    `/apis/cluster.karmada.io/v1alpha1/clusters/${name}`,
  );
  const c = JSON.parse(res.body) as { status?: { conditions?: { type: string; status: string }[] } };
  return c.status?.conditions?.find((x) => x.type === 'Ready')?.status;
}

async function replicasIn(
  set: LoadedSet,
  member: string,
  ns: string,
  name: string,
): Promise<number | undefined> {
  const m = set.members.find((x) => x.name === member)!;
  const res = await adminRequest(
    adminIdentity(m),
    'GET',
    `/apis/apps/v1/namespaces/${ns}/deployments/${name}`,
  );
  return res.status === 200
    ? (JSON.parse(res.body) as { spec: { replicas: number } }).spec.replicas
    : undefined;
}

describe.skipIf(containerTestsSkipped())(`a member cut off and restored (${WORKLOADS} workloads)`, () => {
  let set: ContainerClusterSet;
  let loaded: LoadedSet;
  let manager: StartedManager;

  beforeAll(async () => {
    const env = inject('containerEnv');
    set = await new ContainerProvider({ image: env.apiserverImage, label: LABEL }).up({ clusters: 3 });
    const [host, m1, m2] = set.clusters;
    loaded = await prepareLoad(host!, [m1!, m2!], WORKLOADS);
    manager = await startManagerContainer(env.managerImage, set.frontNetwork, host!, LABEL, [
      '--cluster-status-update-frequency=2s',
      // Not Karmada's default 30 s each way: the test measures what happens after the flip, not the wait for it.
      '--cluster-failure-threshold=4s',
      '--cluster-success-threshold=4s',
    ]);
    await waitPropagated(loaded, 300_000);
  });

  afterAll(async () => {
    await manager?.container.stop({ timeout: 0 }).catch(() => undefined);
    await set?.down();
  });

  it('marks the member not Ready, keeps serving the other, then catches up with nothing lost', async () => {
    const host = loaded.host;
    expect(await clusterReady(loaded, 'member1')).toBe('True');
    await set.partition('member1');
    const t0 = Date.now();
    await waitFor(
      'member1 marked not Ready',
      async () => (await clusterReady(loaded, 'member1')) === 'False',
      {
        timeoutMs: 120_000,
        intervalMs: 500,
      },
    );
    const notReadyMs = Date.now() - t0;
    expect(await clusterReady(loaded, 'member2')).toBe('True');

    // Changes made while member1 is away: one workload scaled, one created.
    const changed = workloadName(0);
    const changedNs = namespaceOf(0, loaded);
    const replicas = 11;
    const patch = await adminRequest(
      adminIdentity(host),
      'PATCH',
      `/apis/apps/v1/namespaces/${changedNs}/deployments/${changed}`,
      { spec: { replicas } },
      undefined,
      'application/merge-patch+json',
    );
    expect(patch.status).toBe(200);
    const shape = { workloads: loaded.workloads + 1, namespaces: loaded.namespaces };
    const added = deployment(loaded.workloads, shape) as { metadata: { name: string; namespace: string } };
    const create = await adminRequest(
      adminIdentity(host),
      'POST',
      `/apis/apps/v1/namespaces/${added.metadata.namespace}/deployments`,
      added,
    );
    expect(create.status).toBe(201);

    // The reachable member gets both; the manager stays ready; the cut-off one has neither yet.
    await waitFor(
      'member2 to get both changes',
      async () =>
        (await replicasIn(loaded, 'member2', changedNs, changed)) === replicas &&
        (await replicasIn(loaded, 'member2', added.metadata.namespace, added.metadata.name)) !== undefined,
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    expect(await manager.readyz()).toBe(200);
    expect(await replicasIn(loaded, 'member1', changedNs, changed)).not.toBe(replicas);
    expect(
      await replicasIn(loaded, 'member1', added.metadata.namespace, added.metadata.name),
    ).toBeUndefined();

    await set.heal('member1');
    const t1 = Date.now();
    await waitFor('member1 Ready again', async () => (await clusterReady(loaded, 'member1')) === 'True', {
      timeoutMs: 120_000,
      intervalMs: 500,
    });
    const readyAgainMs = Date.now() - t1;
    await waitFor(
      'member1 to catch up with both changes',
      async () =>
        (await replicasIn(loaded, 'member1', changedNs, changed)) === replicas &&
        (await replicasIn(loaded, 'member1', added.metadata.namespace, added.metadata.name)) !== undefined,
      { timeoutMs: 600_000, intervalMs: 500 },
    );
    const caughtUpMs = Date.now() - t1;
    // Nothing lost: every workload (the added one too) has its binding and an Applied Work per member.
    await waitPropagated({ ...loaded, workloads: loaded.workloads + 1 }, 600_000);
    const { stdout } = await docker([
      'inspect',
      '-f',
      '{{.State.Running}} {{.RestartCount}}',
      manager.container.getId(),
    ]);
    expect(stdout.trim()).toBe('true 0');
    process.stderr.write(
      `[partition] member1 not Ready after ${notReadyMs} ms; Ready again ${readyAgainMs} ms after the heal; caught up in ${caughtUpMs} ms\n`,
    );
  });
});
