// Why a restart may rightly write although no user changed anything: a template's status changed while the
// manager ran. The detector ignores a status-only update (Karmada's SpecificationChanged filter), but a binding
// records its template's resourceVersion, so the next manager to start derives the binding again and records the
// new one (a binding patch, then the scheduler's status patch and Event). On a kind host's own API server the
// deployment controller makes such changes all the time, which is why the kind suite runs a Karmada API server of
// its own (issue #18). Here one template's status is changed the way a deployment controller would change it.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminRequest } from '../cluster/admin-client.js';
import { adminIdentity } from '../karmada/join.js';
import { namespaceOf, workloadName } from '../load/workloads.js';
import type { ManagerProcess } from '../manager/manager-process.js';
import { type LoadedSet, measureRestart, prepareLoad, propagateOnce, waitDrained } from './scenario.js';
import { staleDeploymentBindings } from './stale-bindings.js';

const WORKLOADS = 20;

describe('a status-only change of a template while the manager runs', () => {
  let set: LoadedSet;
  let manager: ManagerProcess | undefined;

  beforeAll(async () => {
    const [host, ...members] = inject('clusters');
    if (!host || members.length < 1) throw new Error('needs the shared set with a member');
    set = await prepareLoad(host, members.slice(0, 1), WORKLOADS);
    ({ manager } = await propagateOnce(set, 'block-reads', 300_000));
  });

  afterAll(async () => {
    await manager?.stop('SIGTERM');
  });

  it('leaves the binding stale while it runs; the next start records the new resourceVersion', async () => {
    expect(await staleDeploymentBindings(set.host)).toEqual([]);
    const ns = namespaceOf(0, set);
    const name = workloadName(0);
    const res = await adminRequest(
      adminIdentity(set.host),
      'PATCH',
      `/apis/apps/v1/namespaces/${ns}/deployments/${name}/status`,
      {
        status: {
          observedGeneration: 1,
          conditions: [
            {
              type: 'Progressing',
              status: 'False',
              reason: 'ProgressDeadlineExceeded',
              message: `ReplicaSet "${name}-1" has timed out progressing.`,
            },
          ],
        },
      },
      undefined,
      'application/merge-patch+json',
    );
    expect(res.status).toBe(200);
    await waitDrained(manager!, 60_000);
    expect(await staleDeploymentBindings(set.host)).toEqual([`${ns}/${name}-deployment`]);

    const { row, manager: next } = await measureRestart(set, manager!, 'block-reads');
    manager = next;
    process.stderr.write(`[status-only change] writes after the restart: ${JSON.stringify(row.detail)}\n`);
    expect(row.directReads, JSON.stringify(row.detail)).toBe(0);
    // Exactly the stale binding is written again, and the scheduler follows its new generation.
    expect(row.detail['patch work.karmada.io/resourcebindings']).toBe(1);
    expect(await staleDeploymentBindings(set.host)).toEqual([]);
  });
});
