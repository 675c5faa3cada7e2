// Issue 6 acceptance: the manager, run as its own process against a real host and two real members,
// propagates a Deployment with a PropagationPolicy to both members, follows a replica change, removes it
// from both on delete, and splits 9 replicas 3/6 under Divided with static weights 1:2 (Karmada's Webster
// division gives the same). Issue 15: an OverridePolicy changes the image on one member only.
import type { V1Deployment } from '@kubernetes/client-node';
import { workName } from '@warmstart/api';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../cluster/wait.js';
import { installCrds, joinMember } from '../karmada/join.js';
import { type ManagerProcess, startManager } from './manager-process.js';
import { client, notFound } from './test-clients.js';

describe('controller-manager propagates workloads to member clusters', () => {
  let manager: ManagerProcess;
  const clusters = inject('clusters');
  const [host, m1, m2] = clusters;

  beforeAll(async () => {
    if (!host || !m1 || !m2)
      throw new Error('needs the shared set of 3 clusters (WARMSTART_TEST_CLUSTERS=3)');
    await installCrds(host);
    await joinMember(host, m1, { region: 'east' });
    await joinMember(host, m2, { region: 'west' });
    await client(host.adminKubeconfig)
      .core.createNamespace({ body: { metadata: { name: 'karmada-system' } } })
      .catch(() => undefined);
    manager = await startManager({
      kubeconfig: host.managerKubeconfig,
      args: ['--cluster-status-update-frequency=2s'],
    });
    await manager.livezMs();
    await waitFor('the manager to be ready', async () => (await manager.readyz()).status === 200, {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    // Both members Ready, as the cluster controller reports them.
    await waitFor(
      'both Clusters Ready',
      async () => {
        const list = (await client(host.adminKubeconfig).custom.listClusterCustomObject({
          group: 'cluster.karmada.io',
          version: 'v1alpha1',
          plural: 'clusters',
        })) as {
          items: { status?: { conditions?: { type: string; status: string }[] } }[];
        };
        return (
          list.items.length >= 2 &&
          list.items.every((c) =>
            c.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'),
          )
        );
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  }, 180_000);

  afterAll(async () => {
    await manager?.stop('SIGTERM');
  });

  const deployment = (ns: string, name: string, replicas: number): V1Deployment => ({
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'registry.example.com/app:1' }] },
      },
    },
  });

  const policy = (ns: string, name: string, target: string, placement: Record<string, unknown>) => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace: ns },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: target }], placement },
  });

  const memberReplicas = async (
    kubeconfig: string,
    ns: string,
    name: string,
  ): Promise<number | undefined> => {
    try {
      return (await client(kubeconfig).apps.readNamespacedDeployment({ namespace: ns, name })).spec?.replicas;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  };

  it('a Deployment with a PropagationPolicy appears in both members, follows a replica change and is removed on delete', async () => {
    const ns = `prop-${Date.now().toString(36)}`;
    const h = client(host!.adminKubeconfig);
    await h.core.createNamespace({ body: { metadata: { name: ns } } });
    // Members need the namespace too (Karmada propagates namespaces with its namespace controller; not here yet).
    for (const m of [m1!, m2!])
      await client(m.adminKubeconfig).core.createNamespace({ body: { metadata: { name: ns } } });
    await h.apps.createNamespacedDeployment({ namespace: ns, body: deployment(ns, 'web', 2) });
    await h.custom.createNamespacedCustomObject({
      group: 'policy.karmada.io',
      version: 'v1alpha1',
      namespace: ns,
      plural: 'propagationpolicies',
      body: policy(ns, 'web', 'web', { clusterAffinity: { clusterNames: [m1!.name, m2!.name] } }),
    });
    for (const m of [m1!, m2!]) {
      await waitFor(
        `web in ${m.name}`,
        async () => (await memberReplicas(m.adminKubeconfig, ns, 'web')) === 2,
        { timeoutMs: 60_000, intervalMs: 250 },
      );
    }
    await h.apps.patchNamespacedDeployment({
      namespace: ns,
      name: 'web',
      body: [{ op: 'replace', path: '/spec/replicas', value: 5 }],
    });
    for (const m of [m1!, m2!]) {
      await waitFor(
        `5 replicas in ${m.name}`,
        async () => (await memberReplicas(m.adminKubeconfig, ns, 'web')) === 5,
        { timeoutMs: 60_000, intervalMs: 250 },
      );
    }
    await h.apps.deleteNamespacedDeployment({ namespace: ns, name: 'web' });
    for (const m of [m1!, m2!]) {
      await waitFor(
        `web gone from ${m.name}`,
        async () => (await memberReplicas(m.adminKubeconfig, ns, 'web')) === undefined,
        { timeoutMs: 90_000, intervalMs: 250 },
      );
    }
  });

  it('Divided with static weights 1:2 splits 9 replicas 3/6', async () => {
    const ns = `divided-${Date.now().toString(36)}`;
    const h = client(host!.adminKubeconfig);
    await h.core.createNamespace({ body: { metadata: { name: ns } } });
    for (const m of [m1!, m2!])
      await client(m.adminKubeconfig).core.createNamespace({ body: { metadata: { name: ns } } });
    await h.custom.createNamespacedCustomObject({
      group: 'policy.karmada.io',
      version: 'v1alpha1',
      namespace: ns,
      plural: 'propagationpolicies',
      body: policy(ns, 'split', 'api', {
        clusterAffinity: { clusterNames: [m1!.name, m2!.name] },
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: {
            staticWeightList: [
              { targetCluster: { clusterNames: [m1!.name] }, weight: 1 },
              { targetCluster: { clusterNames: [m2!.name] }, weight: 2 },
            ],
          },
        },
      }),
    });
    await h.apps.createNamespacedDeployment({ namespace: ns, body: deployment(ns, 'api', 9) });
    await waitFor(
      '3 replicas in member1',
      async () => (await memberReplicas(m1!.adminKubeconfig, ns, 'api')) === 3,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    await waitFor(
      '6 replicas in member2',
      async () => (await memberReplicas(m2!.adminKubeconfig, ns, 'api')) === 6,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  });

  it('an OverridePolicy changes the image for one member only, and the Work records it', async () => {
    const ns = `override-${Date.now().toString(36)}`;
    const h = client(host!.adminKubeconfig);
    await h.core.createNamespace({ body: { metadata: { name: ns } } });
    for (const m of [m1!, m2!])
      await client(m.adminKubeconfig).core.createNamespace({ body: { metadata: { name: ns } } });
    await h.apps.createNamespacedDeployment({ namespace: ns, body: deployment(ns, 'shop', 1) });
    await h.custom.createNamespacedCustomObject({
      group: 'policy.karmada.io',
      version: 'v1alpha1',
      namespace: ns,
      plural: 'propagationpolicies',
      body: policy(ns, 'shop', 'shop', { clusterAffinity: { clusterNames: [m1!.name, m2!.name] } }),
    });
    const memberImage = async (kubeconfig: string): Promise<string | undefined> => {
      try {
        const d = await client(kubeconfig).apps.readNamespacedDeployment({ namespace: ns, name: 'shop' });
        return d.spec?.template.spec?.containers[0]?.image;
      } catch (error) {
        if (notFound(error)) return undefined;
        throw error;
      }
    };
    for (const m of [m1!, m2!]) {
      await waitFor(`shop in ${m.name}`, async () => (await memberImage(m.adminKubeconfig)) !== undefined, {
        timeoutMs: 60_000,
        intervalMs: 250,
      });
    }
    // Created after the Works exist: the policy's watch must requeue the binding.
    await h.custom.createNamespacedCustomObject({
      group: 'policy.karmada.io',
      version: 'v1alpha1',
      namespace: ns,
      plural: 'overridepolicies',
      body: {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'OverridePolicy',
        metadata: { name: 'mirror', namespace: ns },
        spec: {
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'shop' }],
          overrideRules: [
            {
              targetCluster: { clusterNames: [m1!.name] },
              overriders: {
                imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'mirror.example.org' }],
              },
            },
          ],
        },
      },
    });
    await waitFor(
      `the mirrored image in ${m1!.name}`,
      async () => (await memberImage(m1!.adminKubeconfig)) === 'mirror.example.org/app:1',
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(await memberImage(m2!.adminKubeconfig)).toBe('registry.example.com/app:1');
    const work = (await h.custom.getNamespacedCustomObject({
      group: 'work.karmada.io',
      version: 'v1alpha1',
      namespace: `karmada-es-${m1!.name}`,
      plural: 'works',
      name: workName('Deployment', 'shop', ns),
    })) as { metadata: { annotations?: Record<string, string> } };
    expect(work.metadata.annotations?.['policy.karmada.io/applied-overrides']).toBe(
      '[{"policyName":"mirror","overriders":{"imageOverrider":[{"component":"Registry","operator":"replace","value":"mirror.example.org"}]}}]',
    );
  });
});
