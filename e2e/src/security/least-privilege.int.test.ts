// Issue 9, least privilege: the manager runs as a user bound only to deploy/20-rbac.yaml (its subjects pointed
// at that user) through a propagation, a replica change, a cluster-scoped propagation, a delete and a SIGKILL
// restart. The host's audit log must show every request allowed, and the verbs it used are compared with the
// verbs the RBAC grants: a grant the run never used must be in a known list that says why it stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditLog } from '../audit/audit-log.js';
import { adminRequest } from '../cluster/admin-client.js';
import { type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { waitLeading } from '../ha/leadership.js';
import {
  adminCall,
  createPropagatedDeployment,
  prepareHost,
  replicasIn,
  setReplicas,
  waitReplicas,
} from '../ha/workload.js';
import { adminIdentity } from '../karmada/join.js';
import { type ManagerProcess, startManager } from '../manager/manager-process.js';
import { auditBarrier } from '../restart/scenario.js';
import { applyRbac, bindTo, loadDeployRbac } from './rbac.js';
import { grantsOf, verbUsage } from './rbac-verbs.js';

const ROLE = 'ClusterRole warmstart-controller-manager';
const LEASE_ROLE = 'Role karmada-system/warmstart-controller-manager';
const PAGED_LIST =
  "an informer's paged LIST, its initial sync when the server refuses or breaks off a WatchList; with WatchList served, informers only watch";

/**
 * Grants of deploy/20-rbac.yaml this scenario may leave unused, and why each stays. Every grant it leaves
 * unused must be here: one that is not is either a path the scenario missed or a verb the manager never needs.
 */
const MAY_BE_UNUSED: Readonly<Record<string, string>> = {
  [`${ROLE}: list */*`]: PAGED_LIST,
  [`${ROLE}: list work.karmada.io/resourcebindings`]: PAGED_LIST,
  [`${ROLE}: list work.karmada.io/clusterresourcebindings`]: PAGED_LIST,
  [`${ROLE}: list work.karmada.io/works`]: PAGED_LIST,
  [`${ROLE}: list policy.karmada.io/propagationpolicies`]: PAGED_LIST,
  [`${ROLE}: list policy.karmada.io/clusterpropagationpolicies`]: PAGED_LIST,
  [`${ROLE}: list policy.karmada.io/overridepolicies`]: PAGED_LIST,
  [`${ROLE}: list policy.karmada.io/clusteroverridepolicies`]: PAGED_LIST,
  [`${ROLE}: list cluster.karmada.io/clusters`]: PAGED_LIST,
  [`${ROLE}: list core/namespaces`]: PAGED_LIST,
  [`${LEASE_ROLE}: list coordination.k8s.io/leases`]: PAGED_LIST,
  [`${ROLE}: patch core/events`]:
    'an identical Event repeated is counted on the first by patch; this scenario has no failure that repeats',
  [`${ROLE}: delete core/namespaces`]:
    "a removed Cluster's execution namespace karmada-es-<cluster>; this scenario removes no Cluster",
  [`${ROLE}: get /api`]:
    'the legacy discovery root; our discovery reads /api/v1 directly, but any client-go style discovery starts here',
};

describe('the manager under the least-privilege RBAC of deploy/', () => {
  let set: LocalClusterSet;
  let host: ClusterInfo;
  let member: ClusterInfo;
  let manager: ManagerProcess | undefined;

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 2, managerAccess: 'none' });
    host = set.cluster('host');
    member = set.cluster('member1');
    await prepareHost(host, [member]);
    await applyRbac(host, bindTo(loadDeployRbac(), host.managerUser));
  }, 120_000);

  afterAll(async () => {
    await manager?.stop('SIGKILL');
    await set?.down();
  });

  it('is never refused, and uses every granted verb but a documented few', async () => {
    const since = Date.now();
    const start = () => startManager({ kubeconfig: host.managerKubeconfig, identity: 'least-privilege' });
    manager = await start();
    await waitLeading(manager, 60_000, 'the manager');

    // Namespaced: propagate, change, delete.
    const ns = `lp-${Date.now().toString(36)}`;
    await createPropagatedDeployment(host, [member], { namespace: ns, name: 'web', replicas: 2 });
    await waitReplicas([member], ns, 'web', 2, 60_000);
    await setReplicas(host, ns, 'web', 3);
    await waitReplicas([member], ns, 'web', 3, 60_000);

    // Cluster-scoped: a ClusterRole through a ClusterPropagationPolicy (a ClusterResourceBinding).
    const roleName = `${ns}-reader`;
    await adminCall(host, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: roleName },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
    });
    await adminCall(host, 'POST', '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies', {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'ClusterPropagationPolicy',
      metadata: { name: roleName },
      spec: {
        resourceSelectors: [
          { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: roleName },
        ],
        placement: { clusterAffinity: { clusterNames: [member.name] } },
      },
    });
    const rolePath = `/apis/rbac.authorization.k8s.io/v1/clusterroles/${roleName}`;
    await waitFor(
      `ClusterRole ${roleName} in ${member.name}`,
      async () => (await adminRequest(adminIdentity(member), 'GET', rolePath)).status === 200,
      { timeoutMs: 60_000, intervalMs: 250 },
    );

    // A change to the cluster-scoped template updates its ClusterResourceBinding.
    await adminCall(
      host,
      'PATCH',
      rolePath,
      { rules: [{ apiGroups: [''], resources: ['pods', 'services'], verbs: ['list'] }] },
      [200],
      'application/merge-patch+json',
    );
    await waitFor(
      `ClusterRole ${roleName} in ${member.name} to list services too`,
      async () => (await adminRequest(adminIdentity(member), 'GET', rolePath)).body.includes('services'),
      { timeoutMs: 60_000, intervalMs: 250 },
    );

    await adminCall(host, 'DELETE', `/apis/apps/v1/namespaces/${ns}/deployments/web`);
    await waitFor(
      `web gone from ${member.name}`,
      async () => (await replicasIn(member, ns, 'web')) === undefined,
      {
        timeoutMs: 60_000,
        intervalMs: 250,
      },
    );

    // Restart: SIGKILL, the same identity takes its Lease back at once, and a new workload propagates.
    await manager.stop('SIGKILL');
    manager = await start();
    await waitLeading(manager, 60_000, 'the restarted manager');
    await createPropagatedDeployment(host, [member], { namespace: ns, name: 'api', replicas: 1 });
    await waitReplicas([member], ns, 'api', 1, 60_000);

    await auditBarrier(host);
    const events = (await readAuditLog(host.auditLogPath!, { user: host.managerUser, since })).filter(
      (e) => !e.requestURI.startsWith('/version?audit-barrier-'),
    );
    const refused = events.filter(
      (e) => (e.responseStatus?.code ?? 0) === 401 || e.responseStatus?.code === 403,
    );
    const usage = verbUsage(grantsOf(loadDeployRbac()), events);
    const used = Object.entries(usage.used)
      .sort()
      .map(([k, n]) => `  ${k} x${n}`);
    const unused = usage.unused.map((u) => `  ${u} -- ${MAY_BE_UNUSED[u] ?? 'NOT DOCUMENTED'}`);
    process.stderr.write(
      `[least-privilege] ${events.length} requests; used:\n${used.join('\n')}\n` +
        `[least-privilege] granted but never used:\n${unused.join('\n')}\n`,
    );
    expect(refused.map((e) => `${e.verb} ${e.requestURI} -> ${e.responseStatus?.code}`)).toEqual([]);
    expect(usage.uncovered).toEqual([]);
    expect(usage.unused.filter((u) => MAY_BE_UNUSED[u] === undefined)).toEqual([]);
  });
});
