// Issue 9, least privilege: the manager runs as a user bound only to deploy/20-rbac.yaml (its subjects pointed
// at that user) through a propagation, a replica change, a cluster-scoped propagation, a delete and a SIGKILL
// restart. The host's audit log must show every request allowed, and the verbs it used are compared with the
// verbs the RBAC grants: the grants never used are a known list, each with the reason it stays.
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

/** Grants of deploy/20-rbac.yaml this scenario does not use, and why each stays. */
const EXPECTED_UNUSED: Readonly<Record<string, string>> = {};

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

    // Cluster-scoped: a ClusterRole through a ClusterPropagationPolicy (ClusterResourceBinding).
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
    process.stderr.write(
      `[least-privilege] ${events.length} requests; used:\n${Object.entries(usage.used)
        .sort()
        .map(([k, n]) => `  ${k} x${n}`)
        .join(
          '\n',
        )}\n[least-privilege] granted but never used:\n${usage.unused.map((u) => `  ${u}`).join('\n')}\n`,
    );
    expect(refused.map((e) => `${e.verb} ${e.requestURI} -> ${e.responseStatus?.code}`)).toEqual([]);
    expect(usage.uncovered).toEqual([]);
    expect(usage.unused).toEqual(Object.keys(EXPECTED_UNUSED));
  });
});
