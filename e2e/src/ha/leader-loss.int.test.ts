// Issue 9, the leader cut off from the API server: replica A reaches the host only through a TCP proxy the test
// cuts, replica B reaches it directly. A must stop writing within the renew deadline (10 s), before its Lease
// can expire for B (15 s), and must not write again when the network comes back; B takes over and carries on.
// Each replica has its own user, so the audit log shows which replica wrote what and that the two never wrote
// at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditLog } from '../audit/audit-log.js';
import { type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { PausableProxy } from '../informer/pausable-proxy.js';
import { type ManagerProcess, startManager } from '../manager/manager-process.js';
import { auditBarrier } from '../restart/scenario.js';
import { describeWrites, isLeaseWrite, writesBy } from './audit-writes.js';
import { type ClientIdentity, mintIdentity } from './identity.js';
import { exitOf, waitLeading, waitReady } from './leadership.js';
import { waitForLog } from './log-lines.js';
import { createPropagatedDeployment, prepareHost, setReplicas, waitReplicas } from './workload.js';

const LEASE_DURATION_MS = 15_000;
const RENEW_DEADLINE_MS = 10_000;
/** Event-loop and scheduling slack on a loaded 2-core machine. */
const SLACK_MS = 1_500;
const MEMBER_SA_USER = 'system:serviceaccount:karmada-cluster:warmstart-member';

describe('a leader cut off from the API server', () => {
  let set: LocalClusterSet;
  let host: ClusterInfo;
  let member: ClusterInfo;
  let proxy: PausableProxy;
  let a: ClientIdentity;
  let b: ClientIdentity;
  const running: ManagerProcess[] = [];

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 2 });
    host = set.cluster('host');
    member = set.cluster('member1');
    await prepareHost(host, [member]);
    proxy = await PausableProxy.start(host.server);
    a = await mintIdentity(set, host, 'warmstart-manager-a', { server: proxy.url });
    b = await mintIdentity(set, host, 'warmstart-manager-b');
  }, 120_000);

  afterAll(async () => {
    for (const m of running) await m.stop('SIGKILL');
    await proxy?.close();
    await set?.down();
  });

  it('steps down within the renew deadline, never writes again, and B takes over with no two writers at once', async () => {
    const since = Date.now();
    const replicaA = await startManager({ kubeconfig: a.kubeconfig, identity: 'replica-a' });
    running.push(replicaA);
    const exitedAt = replicaA.exited.then(() => Date.now());
    await waitLeading(replicaA, 60_000, 'replica A');
    const replicaB = await startManager({ kubeconfig: b.kubeconfig, identity: 'replica-b' });
    running.push(replicaB);
    await waitReady(replicaB, 60_000, 'replica B');

    const ns = `leader-loss-${Date.now().toString(36)}`;
    await createPropagatedDeployment(host, [member], { namespace: ns, name: 'web', replicas: 2 });
    await waitReplicas([member], ns, 'web', 2, 60_000);

    const cutAt = Date.now();
    proxy.cut();
    const stepDown = await waitForLog(replicaA, 'stepping down', RENEW_DEADLINE_MS + 10_000, 'replica A');
    // Give A its network back at once: a leader that had not really stopped would write (or renew) now.
    proxy.restore();
    const restoredAt = Date.now();

    await waitLeading(replicaB, 30_000, 'replica B');
    const changedAt = Date.now();
    await setReplicas(host, ns, 'web', 4);
    await waitReplicas([member], ns, 'web', 4, 60_000);
    // A leaves: losing the Lease ends the process (LeadershipLostError), so it restarts as a standby.
    await waitFor('replica A to exit', () => exitOf(replicaA), { timeoutMs: 40_000, intervalMs: 100 });
    expect(exitOf(replicaA)).toBe('code 1');

    await auditBarrier(host);
    const writesA = await writesBy(host.auditLogPath!, a.user, since);
    const writesB = await writesBy(host.auditLogPath!, b.user, since);
    // The create that acquired the Lease counts: the cut may come before the first renewal.
    const lastRenew = writesA.filter((w) => isLeaseWrite(w) && (w.code === 200 || w.code === 201)).at(-1);
    const acquired = writesB[0];
    expect(lastRenew, describeWrites(writesA)).toBeDefined();
    expect(acquired, describeWrites(writesB)).toMatchObject({
      verb: 'update',
      resource: 'coordination.k8s.io/leases',
      code: 200,
    });
    const steppedDownAt = stepDown.time;
    const exitMs = (await exitedAt) - steppedDownAt;
    process.stderr.write(
      `[leader-loss] A renewed last ${cutAt - lastRenew!.at} ms before the cut, stepped down ` +
        `${steppedDownAt - cutAt} ms after the cut (${steppedDownAt - lastRenew!.at} ms after its last renewal); ` +
        `B wrote the Lease ${acquired!.at - steppedDownAt} ms after A stepped down; network back ${restoredAt - cutAt} ms after the cut; A exited ${exitMs} ms after stepping down\n`,
    );

    // A stepped down within the renew deadline of its last renewal, so well before its Lease could expire.
    expect(steppedDownAt - lastRenew!.at).toBeLessThanOrEqual(RENEW_DEADLINE_MS + SLACK_MS);
    expect(steppedDownAt).toBeLessThan(lastRenew!.at + LEASE_DURATION_MS);
    // A wrote nothing after it stepped down. The network was back from that moment, so a replica that kept
    // leading would have renewed or written; this one exited, and was gone before B took over.
    expect(
      writesA.filter((w) => w.at >= steppedDownAt),
      describeWrites(writesA),
    ).toEqual([]);
    expect(await exitedAt).toBeLessThan(acquired!.at);
    // B wrote nothing until it held the Lease, which it took only after A had stepped down...
    expect(acquired!.at).toBeGreaterThan(steppedDownAt);
    // ...so there were never two writers: A's last write precedes B's first.
    expect(writesA.at(-1)!.at).toBeLessThan(acquired!.at);
    expect(writesB.filter((w) => w.at >= changedAt && !isLeaseWrite(w)).length).toBeGreaterThan(0);

    // A still reached the member directly while cut off from the host; it wrote nothing there either between
    // stepping down and B's take-over (both replicas use the member's one ServiceAccount, so only a write in
    // that window would be A's).
    const memberWrites = (
      await readAuditLog(member.auditLogPath!, {
        user: MEMBER_SA_USER,
        since: steppedDownAt,
        until: acquired!.at,
      })
    ).filter((e) => e.class === 'write');
    expect(memberWrites.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  });
});
