// Issue 15 item 4 acceptance: a Deployment propagated with `propagateDeps: true` brings the ConfigMap and Secret
// its pod template references to both members, through attached ResourceBindings named, labelled and listing
// requiredBy as Karmada's dependencies distributor does; a ConfigMap the Deployment stops referencing is released
// from its attached binding and leaves the members; a changed ConfigMap follows; and a SIGKILL restart of the
// manager once everything has settled sends no direct read and no write (counted from the host's audit log).
import type { V1Deployment } from '@kubernetes/client-node';
import { bindingReferenceKey } from '@warmstart/api';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readAuditLog } from '../audit/audit-log.js';
import { waitFor } from '../cluster/wait.js';
import { installCrds, joinMember } from '../karmada/join.js';
import { auditBarrier, waitDrained } from '../restart/scenario.js';
import { type ManagerProcess, startManager } from './manager-process.js';
import { client, notFound } from './test-clients.js';

interface Binding {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
  spec: {
    resource: { kind: string; name: string };
    requiredBy?: { namespace?: string; name: string; clusters?: { name: string }[] }[];
    conflictResolution?: string;
  };
}

describe('controller-manager propagates a Deployment’s dependencies (propagateDeps)', () => {
  let manager: ManagerProcess;
  const [host, m1, m2] = inject('clusters');
  const ns = `deps-${Date.now().toString(36)}`;
  const startArgs = ['--cluster-status-update-frequency=2s'];

  const ready = async (m: ManagerProcess): Promise<void> => {
    await m.livezMs();
    await waitFor('the manager to be ready', async () => (await m.readyz()).status === 200, {
      timeoutMs: 60_000,
      intervalMs: 200,
    });
  };

  beforeAll(async () => {
    if (!host || !m1 || !m2)
      throw new Error('needs the shared set of 3 clusters (WARMSTART_TEST_CLUSTERS=3)');
    await installCrds(host);
    await joinMember(host, m1, { region: 'east' });
    await joinMember(host, m2, { region: 'west' });
    await client(host.adminKubeconfig)
      .core.createNamespace({ body: { metadata: { name: 'karmada-system' } } })
      .catch(() => undefined);
    manager = await startManager({ kubeconfig: host.managerKubeconfig, args: startArgs });
    await ready(manager);
  }, 180_000);

  afterAll(async () => {
    await manager?.stop('SIGTERM');
  });

  const h = () => client(host!.adminKubeconfig);

  const binding = async (name: string): Promise<Binding | undefined> => {
    try {
      return (await h().custom.getNamespacedCustomObject({
        group: 'work.karmada.io',
        version: 'v1alpha2',
        namespace: ns,
        plural: 'resourcebindings',
        name,
      })) as Binding;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  };

  const memberConfigMap = async (
    kubeconfig: string,
    name: string,
  ): Promise<Record<string, string> | undefined> => {
    try {
      return (await client(kubeconfig).core.readNamespacedConfigMap({ namespace: ns, name })).data ?? {};
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  };
  const memberHasSecret = async (kubeconfig: string, name: string): Promise<boolean> => {
    try {
      await client(kubeconfig).core.readNamespacedSecret({ namespace: ns, name });
      return true;
    } catch (error) {
      if (notFound(error)) return false;
      throw error;
    }
  };

  const deployment = (configMaps: string[]): V1Deployment => ({
    metadata: { name: 'web', namespace: ns, labels: { app: 'web' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'registry.example.com/app:1',
              env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'web-secret', key: 'token' } } }],
              envFrom: configMaps.slice(1).map((name) => ({ configMapRef: { name } })),
            },
          ],
          volumes: [{ name: 'config', configMap: { name: configMaps[0] ?? 'web-config' } }],
        },
      },
    },
  });

  it('brings the ConfigMap and Secret to both members through attached bindings named and labelled as Karmada does', {
    timeout: 180_000,
  }, async () => {
    await h().core.createNamespace({ body: { metadata: { name: ns } } });
    for (const m of [m1!, m2!])
      await client(m.adminKubeconfig).core.createNamespace({ body: { metadata: { name: ns } } });
    await h().core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'web-config' }, data: { mode: 'blue' } },
    });
    await h().core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'old-config' }, data: { legacy: 'yes' } },
    });
    await h().core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: 'web-secret' }, stringData: { token: 's3cret' } },
    });
    await h().apps.createNamespacedDeployment({
      namespace: ns,
      body: deployment(['web-config', 'old-config']),
    });
    await h().custom.createNamespacedCustomObject({
      group: 'policy.karmada.io',
      version: 'v1alpha1',
      namespace: ns,
      plural: 'propagationpolicies',
      body: {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'PropagationPolicy',
        metadata: { name: 'web', namespace: ns },
        spec: {
          propagateDeps: true,
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
          placement: { clusterAffinity: { clusterNames: [m1!.name, m2!.name] } },
        },
      },
    });

    for (const m of [m1!, m2!]) {
      await waitFor(
        `web-config in ${m.name}`,
        async () => (await memberConfigMap(m.adminKubeconfig, 'web-config'))?.mode === 'blue',
        {
          timeoutMs: 90_000,
          intervalMs: 250,
        },
      );
      await waitFor(
        `old-config in ${m.name}`,
        async () => (await memberConfigMap(m.adminKubeconfig, 'old-config')) !== undefined,
        {
          timeoutMs: 30_000,
          intervalMs: 250,
        },
      );
      await waitFor(`web-secret in ${m.name}`, () => memberHasSecret(m.adminKubeconfig, 'web-secret'), {
        timeoutMs: 30_000,
        intervalMs: 250,
      });
    }

    const independent = await binding('web-deployment');
    expect(independent?.metadata.finalizers).toContain('karmada.io/binding-dependencies-distributor');
    expect(
      JSON.parse(independent?.metadata.annotations?.['resourcebinding.karmada.io/dependencies'] ?? '[]'),
    ).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name: 'old-config' },
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, name: 'web-config' },
      { apiVersion: 'v1', kind: 'Secret', namespace: ns, name: 'web-secret' },
    ]);
    const label = `resourcebinding.karmada.io/depended-by-${bindingReferenceKey(ns, 'web-deployment')}`;
    for (const [name, kind] of [
      ['web-config-configmap', 'ConfigMap'],
      ['web-secret-secret', 'Secret'],
    ] as const) {
      const attached = await binding(name);
      expect(attached, name).toBeDefined();
      expect(Object.keys(attached!.metadata.labels ?? {})).toContain(label);
      expect(attached!.metadata.finalizers).toEqual(['karmada.io/binding-controller']);
      expect(attached!.metadata.ownerReferences?.[0]).toMatchObject({ kind, controller: true });
      expect(attached!.spec.conflictResolution).toBe('Abort');
      expect(attached!.spec.requiredBy).toEqual([
        {
          namespace: ns,
          name: 'web-deployment',
          // A Deployment's target clusters carry its replicas; the snapshot copies them.
          clusters: expect.arrayContaining([
            { name: m1!.name, replicas: 1 },
            { name: m2!.name, replicas: 1 },
          ]),
        },
      ]);
    }
  });

  it('follows a change of a dependency’s content', { timeout: 120_000 }, async () => {
    await h().core.patchNamespacedConfigMap({
      namespace: ns,
      name: 'web-config',
      body: [{ op: 'replace', path: '/data/mode', value: 'green' }],
    });
    for (const m of [m1!, m2!]) {
      await waitFor(
        `web-config green in ${m.name}`,
        async () => (await memberConfigMap(m.adminKubeconfig, 'web-config'))?.mode === 'green',
        {
          timeoutMs: 60_000,
          intervalMs: 250,
        },
      );
    }
  });

  it('releases a ConfigMap no longer referenced from its attached binding, and it leaves the members', {
    timeout: 120_000,
  }, async () => {
    await h().apps.replaceNamespacedDeployment({
      namespace: ns,
      name: 'web',
      body: deployment(['web-config']),
    });
    await waitFor(
      'old-config-configmap released',
      async () => {
        const b = await binding('old-config-configmap');
        return b !== undefined && (b.spec.requiredBy ?? []).length === 0;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const released = await binding('old-config-configmap');
    expect(Object.keys(released?.metadata.labels ?? {}).filter((k) => k.includes('depended-by-'))).toEqual(
      [],
    );
    // Cleared by the release; what is left is the CRD's default, as after Karmada's update.
    expect(released?.spec.conflictResolution).toBe('Abort');
    expect(released?.spec).not.toHaveProperty('preserveResourcesOnDeletion');
    for (const m of [m1!, m2!]) {
      await waitFor(
        `old-config gone from ${m.name}`,
        async () => (await memberConfigMap(m.adminKubeconfig, 'old-config')) === undefined,
        {
          timeoutMs: 60_000,
          intervalMs: 250,
        },
      );
    }
    // Still referenced: still there.
    expect((await memberConfigMap(m1!.adminKubeconfig, 'web-config'))?.mode).toBe('green');
    expect((await binding('web-config-configmap'))?.spec.requiredBy?.length).toBe(1);
  });

  it('a SIGKILL restart after it settles sends no direct read and no write', {
    timeout: 240_000,
  }, async () => {
    await waitDrained(manager, 120_000);
    await manager.stop('SIGKILL');
    const since = Date.now();
    manager = await startManager({ kubeconfig: host!.managerKubeconfig, args: startArgs });
    await ready(manager);
    await waitDrained(manager, 120_000);
    await auditBarrier(host!);
    const events = await readAuditLog(host!.auditLogPath!, { user: host!.managerUser, since });
    const counted = (e: (typeof events)[number]) => e.objectRef?.resource !== 'leases';
    const writes = events.filter((e) => e.class === 'write' && counted(e));
    const direct = events.filter((e) => e.class === 'direct-get' || e.class === 'direct-list');
    const show = (list: typeof events) => JSON.stringify(list.map((e) => `${e.verb} ${e.requestURI}`));
    // The log does hold the restarted manager's requests (its binding informer's WatchList, or list then watch):
    // the zeros below count something.
    expect(
      events.some(
        (e) =>
          e.class !== 'other' && e.class !== 'write' && e.resourceKey === 'work.karmada.io/resourcebindings',
      ),
    ).toBe(true);
    expect(direct.length, show(direct)).toBe(0);
    expect(writes.length, show(writes)).toBe(0);
    // Not a vacuous zero: the restarted distributor did reconcile the binding again, and found nothing to change.
    const reconciles = [
      ...(await manager.metrics()).matchAll(
        /^controller_runtime_reconcile_total\{[^}]*controller="dependencies-distributor"[^}]*\} (\d+)/gm,
      ),
    ].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(reconciles).toBeGreaterThan(0);
  });
});
