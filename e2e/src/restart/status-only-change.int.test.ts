// A template's status changed while the manager ran (status aggregation does this to every propagated Deployment;
// on a kind host's own API server its deployment controller did, which is why the kind suite runs a Karmada API
// server of its own, issue #18). The detector ignores a status-only update (Karmada's SpecificationChanged filter),
// so the binding still records the template's older resourceVersion. Karmada's next start would write every such
// binding again (a binding patch, the scheduler's status patch and an Event); ours leaves a binding that differs
// only in that recorded version alone (packages/detector/src/spec-changes.ts). Here one template's status is
// changed the way a deployment controller would change it.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminRequest } from '../cluster/admin-client.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity } from '../karmada/join.js';
import { namespaceOf, workloadName } from '../load/workloads.js';
import type { ManagerProcess } from '../manager/manager-process.js';
import {
  type LoadedSet,
  measureRestart,
  prepareLoad,
  propagateOnce,
  startSteadyManager,
  waitDrained,
} from './scenario.js';
import { staleDeploymentBindings } from './stale-bindings.js';

const WORKLOADS = 20;
const IMAGE_PATH = '/changed-while-down/app:2.0.0';

describe('a status-only change of a template while the manager runs', () => {
  let set: LoadedSet;
  let manager: ManagerProcess | undefined;
  // The shared clusters may hold these templates from another suite's larger load (same names), some already
  // stale from its status aggregation: only the one binding this test changes is looked at.
  const isStale = async (key: string): Promise<boolean> =>
    (await staleDeploymentBindings(set.host)).includes(key);

  beforeAll(async () => {
    const [host, ...members] = inject('clusters');
    if (!host || members.length < 1) throw new Error('needs the shared set with a member');
    set = await prepareLoad(host, members.slice(0, 1), WORKLOADS);
    ({ manager } = await propagateOnce(set, 'block-reads', 300_000));
  });

  afterAll(async () => {
    await manager?.stop('SIGTERM');
  });

  it('leaves the binding stale while it runs, and a restart writes nothing for it', async () => {
    const ns = namespaceOf(0, set);
    const name = workloadName(0);
    const binding = `${ns}/${name}-deployment`;
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
    expect(await isStale(binding)).toBe(true);

    const { row, manager: next } = await measureRestart(set, manager!, 'block-reads');
    manager = next;
    process.stderr.write(`[status-only change] writes after the restart: ${JSON.stringify(row.detail)}\n`);
    expect(row.directReads, JSON.stringify(row.detail)).toBe(0);
    expect(row.writesAfterRestart, JSON.stringify(row.detail)).toBe(0);
    expect(await isStale(binding)).toBe(true);
  });

  // What keeps that safe: a specification change made while no manager ran is not seen as an update event, and
  // the binding differs only in the recorded version, yet the binding controller rebuilds the Work on start.
  it('still brings a specification change made while it was down to the member', async () => {
    await manager?.stop('SIGKILL');
    manager = undefined;
    const ns = namespaceOf(1, set);
    const name = workloadName(1);
    const image = `registry.example.com${IMAGE_PATH}`;
    const res = await adminRequest(
      adminIdentity(set.host),
      'PATCH',
      `/apis/apps/v1/namespaces/${ns}/deployments/${name}`,
      [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }],
      undefined,
      'application/json-patch+json',
    );
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    manager = await startSteadyManager(set, 'block-reads', 300_000);
    const member = set.members[0]!;
    await waitFor(
      'the member Deployment to run the image changed while the manager was down',
      async () => {
        const got = await adminRequest(
          adminIdentity(member),
          'GET',
          `/apis/apps/v1/namespaces/${ns}/deployments/${name}`,
        );
        const d = JSON.parse(got.body) as {
          spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
        };
        const seen = d.spec?.template?.spec?.containers?.[0]?.image;
        // The load's OverridePolicy moves every image to another registry on the member: compare the path.
        if (seen?.endsWith(IMAGE_PATH)) return true;
        throw new Error(`member runs ${seen} (HTTP ${got.status})`);
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
  });
});
