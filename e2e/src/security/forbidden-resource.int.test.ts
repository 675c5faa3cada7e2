// Issue 9, RBAC forbids one resource the detector watches: the manager's user may do everything except touch
// ConfigMaps. The ConfigMap informer must say so (failed: 403 in /readyz?verbose, warmstart_informer_synced 0)
// and keep retrying with backoff, while every other informer syncs and the controllers keep propagating.
// Nothing may wait on the forbidden cache without a deadline: a detector read of it fails at once with the
// informer's error, the process stays live, and Deployments keep propagating in well under --cache-sync-timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditLog } from '../audit/audit-log.js';
import { type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { type ClientIdentity, mintIdentity } from '../ha/identity.js';
import { exitOf, waitLeading } from '../ha/leadership.js';
import { parseLogLines } from '../ha/log-lines.js';
import {
  adminCall,
  createPropagatedDeployment,
  ensureNamespace,
  policyBody,
  prepareHost,
  waitReplicas,
} from '../ha/workload.js';
import { type ManagerProcess, metricValue, startManager } from '../manager/manager-process.js';
import { applyRbac, clusterRoleBinding, clusterRoleWithoutCore } from './rbac.js';

const CONFIGMAPS = 'core/v1/configmaps';

describe('RBAC forbids listing ConfigMaps', () => {
  let set: LocalClusterSet;
  let host: ClusterInfo;
  let member: ClusterInfo;
  let limited: ClientIdentity;
  let manager: ManagerProcess | undefined;

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 2, managerAccess: 'none' });
    host = set.cluster('host');
    member = set.cluster('member1');
    await prepareHost(host, [member]);
    limited = await mintIdentity(set, host, 'warmstart-manager-no-configmaps', { groups: [] });
    await applyRbac(host, [
      await clusterRoleWithoutCore(host, 'warmstart-no-configmaps', 'configmaps'),
      clusterRoleBinding('warmstart-no-configmaps', 'warmstart-no-configmaps', limited.user),
    ]);
  }, 120_000);

  afterAll(async () => {
    await manager?.stop('SIGKILL');
    await set?.down();
  });

  it('shows the ConfigMap informer as forbidden, syncs the rest, stays live and keeps propagating', async () => {
    const since = Date.now();
    manager = await startManager({ kubeconfig: limited.kubeconfig, identity: 'no-configmaps' });
    await waitLeading(manager, 60_000, 'the manager');

    // Every other informer syncs; the ConfigMap informer alone fails, and says why.
    const verbose = await waitFor(
      'every informer but ConfigMaps synced, ConfigMaps failed',
      async () => {
        const r = await manager!.readyz(true);
        const failing = r.body.split('\n').filter((l) => l.startsWith('[-]'));
        const others = failing.filter(
          (l) => !l.startsWith(`[-]informer:host/${CONFIGMAPS} `) && !l.startsWith('[-]all-caches '),
        );
        return r.status === 503 && failing.length === 2 && others.length === 0 ? r.body : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    const line = verbose.split('\n').find((l) => l.startsWith(`[-]informer:host/${CONFIGMAPS} `))!;
    process.stderr.write(`[forbidden] ${line}\n`);
    expect(line).toMatch(/ failed: .*403 Forbidden/);
    expect(verbose).toMatch(new RegExp(`^\\[-\\]all-caches failed: .*${CONFIGMAPS}`, 'm'));
    const metrics = await manager.metrics();
    expect(metricValue(metrics, 'warmstart_informer_synced', { resource: CONFIGMAPS })).toBe(0);
    expect(metricValue(metrics, 'warmstart_informer_synced', { resource: 'apps/v1/deployments' })).toBe(1);

    // A policy selecting a ConfigMap (it claims nothing: the detector cannot see ConfigMaps), then a Deployment
    // with its own policy, handled by the same single policy worker.
    const ns = `forbidden-${Date.now().toString(36)}`;
    for (const c of [host, member]) await ensureNamespace(c, ns);
    await adminCall(host, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: ns },
      data: { mode: 'blue' },
    });
    await adminCall(
      host,
      'POST',
      `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies`,
      policyBody(ns, 'settings', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' }], [member.name]),
    );
    await createPropagatedDeployment(host, [member], { namespace: ns, name: 'web', replicas: 3 });
    const propagatedMs = await waitReplicas([member], ns, 'web', 3, 30_000);

    // Deleting the ConfigMap policy makes the detector list ConfigMaps from the cache (to unclaim what the policy
    // claimed). That read must fail at once with the informer's error, not wait, so the single policy worker is
    // free for the next policy, whose Deployment propagates well inside --cache-sync-timeout (2 m).
    await adminCall(
      host,
      'DELETE',
      `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies/settings`,
    );
    const refused = await waitFor(
      'the detector to report the forbidden ConfigMap read',
      () =>
        parseLogLines(manager!.logs()).find(
          (r) =>
            typeof r.error === 'string' &&
            r.error.includes(`cannot cache ${CONFIGMAPS}`) &&
            r.msg !== 'list failed; retrying',
        ),
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    process.stderr.write(
      `[forbidden] the detector's read failed fast: ${refused.msg}: ${String(refused.error).slice(0, 120)}\n`,
    );
    await createPropagatedDeployment(host, [member], { namespace: ns, name: 'api', replicas: 2 });
    const afterDeleteMs = await waitReplicas([member], ns, 'api', 2, 30_000);

    // Still live, still running, still not ready, still saying why.
    expect((await fetch(`${manager.probesUrl}/livez`)).status).toBe(200);
    expect(exitOf(manager)).toBeUndefined();
    const after = await manager.readyz(true);
    expect(after.status).toBe(503);
    expect(after.body).toMatch(new RegExp(`^\\[-\\]informer:host/${CONFIGMAPS} failed: `, 'm'));

    // The informer keeps trying, with client-go's backoff: 800 ms doubling, each delay stretched by up to
    // 100% jitter. Four lists (three gaps) show both that it retries and that it does not spin.
    const lists = await waitFor(
      'four ConfigMap lists in the audit log',
      async () => {
        const events = (await readAuditLog(host.auditLogPath!, { user: limited.user, since })).filter(
          (e) => e.objectRef?.resource === 'configmaps' && e.verb === 'list',
        );
        return events.length >= 4 ? events : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const at = lists.map((e) => Date.parse(e.requestReceivedTimestamp));
    const gaps = at.slice(1, 4).map((t, i) => t - at[i]!);
    process.stderr.write(
      `[forbidden] Deployments propagated in ${propagatedMs} ms and ${afterDeleteMs} ms; ConfigMap lists ${gaps.join(' ms, ')} ms apart\n`,
    );
    expect(lists.filter((e) => e.responseStatus?.code !== 403)).toEqual([]);
    gaps.forEach((gap, i) => {
      const base = 800 * 2 ** i;
      expect(gap, `gap ${i + 1}`).toBeGreaterThanOrEqual(base - 50);
      expect(gap, `gap ${i + 1}`).toBeLessThan(2 * base + 1_000);
    });
    expect((await fetch(`${manager.probesUrl}/livez`)).status).toBe(200);
  });
});
