// Issue 6, two replicas on one host: the standby fills its caches without writing, the leader alone writes,
// and after the leader is SIGKILLed the standby takes the Lease within the lease duration (counted from its
// own last sight of a renewal, client-go's rule) and carries on from warm caches. Each replica has a user of
// its own, so the API server's audit log says exactly which replica wrote what, and when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditLog } from '../audit/audit-log.js';
import { type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { type ManagerProcess, startManager } from '../manager/manager-process.js';
import { auditBarrier } from '../restart/scenario.js';
import { describeWrites, isLeaseWrite, writesBy } from './audit-writes.js';
import { type ClientIdentity, mintIdentity } from './identity.js';
import { leaderGauge, waitLeading, waitReady } from './leadership.js';
import {
  createPropagatedDeployment,
  leaseHolder,
  prepareHost,
  setReplicas,
  waitReplicas,
} from './workload.js';

const LEASE_DURATION_MS = 15_000;
const RETRY_PERIOD_MS = 2_000;
const JITTER = 1.2;

describe('fail-over between two manager replicas', () => {
  let set: LocalClusterSet;
  let host: ClusterInfo;
  let member: ClusterInfo;
  let a: ClientIdentity;
  let b: ClientIdentity;
  const running: ManagerProcess[] = [];

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 2 });
    host = set.cluster('host');
    member = set.cluster('member1');
    await prepareHost(host, [member]);
    a = await mintIdentity(set, host, 'warmstart-manager-a');
    b = await mintIdentity(set, host, 'warmstart-manager-b');
  }, 120_000);

  afterAll(async () => {
    for (const m of running) await m.stop('SIGKILL');
    await set?.down();
  });

  it('only the leader writes; a SIGKILLed leader is replaced within the lease duration by a standby whose caches were already synced', async () => {
    const since = Date.now();
    const replicaA = await startManager({ kubeconfig: a.kubeconfig, identity: 'replica-a' });
    running.push(replicaA);
    await waitLeading(replicaA, 60_000, 'replica A');

    const replicaB = await startManager({ kubeconfig: b.kubeconfig, identity: 'replica-b' });
    running.push(replicaB);
    await waitReady(replicaB, 60_000, 'replica B');

    // The leader propagates a Deployment while B stands by.
    const ns = `failover-${Date.now().toString(36)}`;
    await createPropagatedDeployment(host, [member], { namespace: ns, name: 'web', replicas: 2 });
    await waitReplicas([member], ns, 'web', 2, 60_000);
    expect(await leaseHolder(host)).toBe('replica-a');

    // Right before the kill: B is a standby (not leading) whose every cache has synced.
    expect(await leaderGauge(replicaB)).toBe(0);
    const standbyReadyz = await replicaB.readyz(true);
    expect(standbyReadyz.status, standbyReadyz.body).toBe(200);
    expect(standbyReadyz.body).toMatch(/^\[\+\]all-caches ok$/m);
    expect(standbyReadyz.body).toMatch(/^\[\+\]informer:host\/apps\/v1\/deployments ok$/m);

    const killedAt = Date.now();
    await replicaA.stop('SIGKILL');
    const ledAt = await waitLeading(replicaB, 40_000, 'replica B');
    const takeoverMs = ledAt - killedAt;

    // A change made after the kill reaches the member through B.
    const changedAt = Date.now();
    await setReplicas(host, ns, 'web', 5);
    const propagatedMs = await waitReplicas([member], ns, 'web', 5, 60_000);
    expect(await leaseHolder(host)).toBe('replica-b');

    await auditBarrier(host);
    const writesA = await writesBy(host.auditLogPath!, a.user, since);
    const writesB = await writesBy(host.auditLogPath!, b.user, since);
    const acquired = writesB.find(isLeaseWrite);
    process.stderr.write(
      `[failover] takeover ${takeoverMs} ms after SIGKILL (Lease written ${acquired ? acquired.at - killedAt : '?'} ms after it); ` +
        `change propagated by B in ${propagatedMs} ms; writes: A ${writesA.length}, B ${writesB.length}\n`,
    );

    // A wrote (the Lease and the propagation), and nothing after it was killed.
    expect(writesA.filter((w) => !isLeaseWrite(w)).length).toBeGreaterThan(0);
    expect(
      writesA.filter((w) => w.at >= killedAt),
      describeWrites(writesA),
    ).toEqual([]);
    // B's first write is the Lease it acquires: nothing at all while it stood by.
    expect(writesB.length).toBeGreaterThan(1);
    expect(writesB[0], describeWrites(writesB)).toMatchObject({
      verb: 'update',
      resource: 'coordination.k8s.io/leases',
      code: 200,
    });
    expect(writesB[0]!.at).toBeGreaterThan(killedAt);
    // No two writers at once: A's last write precedes B's first.
    expect(writesA.at(-1)!.at).toBeLessThan(writesB[0]!.at);
    // B propagated the change made after the kill.
    expect(writesB.filter((w) => w.at >= changedAt && !isLeaseWrite(w)).length).toBeGreaterThan(0);

    // The Lease was respected: B waited for it to expire (A renewed every retry period until the kill), and
    // took it within the lease duration plus B's late sight of A's last renewal and one jittered retry period
    // (slack for a loaded machine on top).
    const acquiredAfterKill = writesB[0]!.at - killedAt;
    expect(acquiredAfterKill).toBeGreaterThan(LEASE_DURATION_MS - 2 * RETRY_PERIOD_MS * JITTER);
    expect(acquiredAfterKill).toBeLessThan(LEASE_DURATION_MS + 2 * RETRY_PERIOD_MS * JITTER + 2_000);
    expect(takeoverMs).toBeLessThan(LEASE_DURATION_MS + 2 * RETRY_PERIOD_MS * JITTER + 3_000);

    // Warm caches: taking over cost B no list on the host (its informers had listed while it stood by).
    const listsAfterKill = (await readAuditLog(host.auditLogPath!, { user: b.user, since: killedAt })).filter(
      (e) => e.class === 'informer-list' || e.class === 'direct-list' || e.class === 'direct-get',
    );
    expect(listsAfterKill.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  });
});
