// The scheduler against an in-process API server: a schedule whose status write is refused with 409 is finished on
// the next pass. The spec patch that went before it already landed, so the binding's spec looks up to date (for a
// Divided binding nothing else asks for a schedule); the Scheduled condition must still be written.
import { BindingConditionType, KarmadaResources, type Placement, type ResourceBinding } from '@warmstart/api';
import { FakeApiServer, type RecordedRequest, until } from '@warmstart/informer-cache/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHEDULER, schedulerController } from './scheduler-controller.js';
import { appliedPlacementValue } from './scheduling-trigger.js';
import { fakeServerContext } from './testing/fake-server-context.js';
import { type BindingOptions, cluster, resourceBinding } from './testing/fixtures.js';
import { AppliedPlacementAnnotation } from './well-known.js';

const { ResourceBinding: RB, ClusterResourceBinding, Cluster } = KarmadaResources;

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const bindingStatusPatch = (r: RecordedRequest) =>
  r.method === 'PATCH' &&
  r.resource === 'work.karmada.io/v1alpha2/resourcebindings' &&
  r.subresource === 'status';

const divided: Placement = {
  clusterAffinity: { clusterNames: ['member1'] },
  replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
};
const refuseOneStatusWrite = (s: FakeApiServer) =>
  s.fault({ verb: 'patch', match: bindingStatusPatch }, { code: 409, reason: 'Conflict', times: 1 });

async function start(prepare: (server: FakeApiServer) => void, binding: BindingOptions = {}) {
  const server = await FakeApiServer.start();
  cleanup.push(() => server.close());
  for (const gvr of [RB, ClusterResourceBinding, Cluster]) server.addResource(gvr);
  server.create(Cluster, cluster('member1'));
  const { metadata, ...rest } = resourceBinding({ placement: divided, replicas: 2, ...binding });
  const { generation: _g, ...settable } = metadata;
  server.create(RB, { ...rest, metadata: settable });
  prepare(server);

  const { ctx, manager, lines } = fakeServerContext(server, { captureLog: true });
  const controller = schedulerController(ctx);
  const stop = new AbortController();
  const running = manager.run(stop.signal);
  cleanup.push(async () => {
    stop.abort();
    await running;
  });
  return { server, controller, lines };
}

describe('scheduler: a status write refused with 409', () => {
  it('is written on the next pass although the spec patch already made the spec look scheduled', async () => {
    const { server, controller, lines } = await start(refuseOneStatusWrite);
    const key = `default/${resourceBinding().metadata.name}`;
    await until(
      () => (server.get(RB, key) as ResourceBinding | undefined)?.status?.lastScheduledTime !== undefined,
      5_000,
      'the schedule recorded in the binding status after the refused write',
    );
    const stored = server.get(RB, key) as ResourceBinding;
    expect(stored.spec.clusters).toEqual([{ name: 'member1', replicas: 2 }]);
    expect(stored.status?.conditions?.find((c) => c.type === BindingConditionType.Scheduled)).toMatchObject({
      status: 'True',
      reason: 'Success',
    });
    // (The fake API server's generation does not follow the API server's rules; that the write carries one is enough.)
    expect(stored.status?.schedulerObservedGeneration).toBeTypeOf('number');
    expect(server.requestsWhere(bindingStatusPatch)).toHaveLength(2);
    expect(controller.status().lastError).toBeUndefined();
    // The refused write left one line saying whose it was.
    const refused = lines.filter((l) => l.controller === SCHEDULER && String(l.msg).includes('409'));
    expect(refused).toEqual([
      expect.objectContaining({
        level: 30,
        resource: 'resourcebindings',
        object: key,
        write: 'conditions[Scheduled]+schedulerObservedGeneration+lastScheduledTime',
        baseConditions: [],
      }),
    ]);
  });

  it('on a reschedule, is written on the next pass: Scheduled does not stay False once clusters fit again', async () => {
    // Scheduled before with no cluster fitting (spec.clusters empty, the placement recorded); member1 fits now.
    const { server, controller } = await start(refuseOneStatusWrite, {
      annotations: { [AppliedPlacementAnnotation]: appliedPlacementValue(divided) },
      status: {
        schedulerObservedGeneration: 1,
        lastScheduledTime: '2026-12-01T00:00:00Z',
        conditions: [
          {
            type: BindingConditionType.Scheduled,
            status: 'False',
            reason: 'NoClusterFit',
            message: '0/1 clusters are available',
            lastTransitionTime: '2026-12-01T00:00:00Z',
          },
        ],
      },
    });
    const key = `default/${resourceBinding().metadata.name}`;
    const scheduled = () =>
      (server.get(RB, key) as ResourceBinding | undefined)?.status?.conditions?.find(
        (c) => c.type === BindingConditionType.Scheduled,
      );
    await until(() => scheduled()?.status === 'True', 5_000, 'Scheduled=True after the refused write');
    expect((server.get(RB, key) as ResourceBinding).spec.clusters).toEqual([
      { name: 'member1', replicas: 2 },
    ]);
    expect(scheduled()).toMatchObject({ reason: 'Success' });
    expect(server.requestsWhere(bindingStatusPatch)).toHaveLength(2);
    expect(controller.status().lastError).toBeUndefined();
  });
});
