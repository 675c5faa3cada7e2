// The scheduler against an in-process API server: a schedule whose status write is refused with 409 is finished on
// the next pass. The spec patch that went before it already landed, so the binding's spec looks up to date (for a
// Divided binding nothing else asks for a schedule); the Scheduled condition must still be written. And a spec change
// that needs no schedule is recorded as observed with one write of the generation alone.
import {
  BindingConditionType,
  type ClusterResourceBinding as ClusterResourceBindingObject,
  KarmadaResources,
  type Placement,
  type ResourceBinding,
  type ResourceBindingStatus,
} from '@warmstart/api';
import { FakeApiServer, type RecordedRequest, until } from '@warmstart/informer-cache/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHEDULER, schedulerController } from './scheduler-controller.js';
import { appliedPlacementValue } from './scheduling-trigger.js';
import { idle } from './testing/controller-idle.js';
import { fakeServerContext } from './testing/fake-server-context.js';
import { type BindingOptions, cluster, clusterResourceBinding, resourceBinding } from './testing/fixtures.js';
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
    // Created as generation 1; the spec patch made it 2, and that is what the schedule observed.
    expect(stored.metadata.generation).toBe(2);
    expect(stored.status?.schedulerObservedGeneration).toBe(2);
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

describe('scheduler: a spec change that needs no schedule', () => {
  // Compared with Karmada f8fdd02df3760fd9521624f284877fa84e7be6ef, pkg/scheduler/scheduler.go: doScheduleBinding and
  // doScheduleClusterBinding, finding nothing to schedule, merge-patch the status with schedulerObservedGeneration
  // alone when it differs from metadata.generation, and write nothing when it does not.
  const settled = {
    annotations: { [AppliedPlacementAnnotation]: appliedPlacementValue(divided) },
    placement: divided,
    replicas: 2,
    clusters: [{ name: 'member1', replicas: 2 }],
    status: {
      schedulerObservedGeneration: 1,
      lastScheduledTime: '2026-12-01T00:00:00Z',
      conditions: [
        {
          type: BindingConditionType.Scheduled,
          status: 'True',
          reason: 'Success',
          message: 'Binding has been scheduled successfully.',
          lastTransitionTime: '2026-12-01T00:00:00Z',
        },
      ],
    } satisfies ResourceBindingStatus,
  };
  const rbKey = `default/${resourceBinding().metadata.name}`;
  const crbKey = clusterResourceBinding().metadata.name;
  const bindingWrite = (r: RecordedRequest) => r.method !== 'GET' && r.resource.endsWith('resourcebindings');
  const written = (requests: readonly RecordedRequest[]) =>
    requests.map((r) => ({
      method: r.method,
      name: r.name,
      subresource: r.subresource,
      body: JSON.parse(r.body),
    }));

  async function serve(...bindings: (ResourceBinding | ClusterResourceBindingObject)[]) {
    const server = await FakeApiServer.start();
    cleanup.push(() => server.close());
    for (const gvr of [RB, ClusterResourceBinding, Cluster]) server.addResource(gvr);
    server.create(Cluster, cluster('member1'));
    for (const b of bindings) {
      const { generation: _g, ...settable } = b.metadata;
      server.create(b.kind === 'ResourceBinding' ? RB : ClusterResourceBinding, { ...b, metadata: settable });
    }
    return server;
  }

  /** A scheduler over `server`, returned once it has reconciled every binding of its first lists. */
  async function runScheduler(server: FakeApiServer) {
    const { ctx, manager } = fakeServerContext(server);
    const controller = schedulerController(ctx);
    // Added after the scheduler's handlers: by the time this one has heard of the first lists, so have they.
    const firstLists = [RB, ClusterResourceBinding].map((gvr) =>
      manager.informers.forResource(gvr).addEventHandler({ name: 'test-first-list' }),
    );
    const stop = new AbortController();
    const running = manager.run(stop.signal);
    const halt = async () => {
      stop.abort();
      await running;
    };
    cleanup.push(halt);
    await until(
      () => controller.status().started && firstLists.every((r) => r.hasSynced),
      5_000,
      'the scheduler started with its first lists delivered',
    );
    await idle(controller, 'the scheduler');
    return { manager, controller, halt };
  }

  /** What the detector writes for a template edit: a new spec.resource.resourceVersion, the placement as it was. */
  function templateEdited(
    server: FakeApiServer,
    gvr: typeof RB | typeof ClusterResourceBinding,
    key: string,
  ) {
    const stored = server.get(gvr, key) as ResourceBinding;
    return server.update(gvr, {
      ...stored,
      spec: { ...stored.spec, resource: { ...stored.spec.resource, resourceVersion: '101' } },
    });
  }

  it('writes schedulerObservedGeneration alone, once, and nothing more after a restart', async () => {
    const server = await serve(resourceBinding(settled));
    const first = await runScheduler(server);
    expect(server.requestsWhere(bindingWrite)).toEqual([]);

    expect(templateEdited(server, RB, rbKey).metadata.generation).toBe(2);
    const cached = () =>
      first.manager.informers.informer(RB)?.store.get(rbKey) as ResourceBinding | undefined;
    // The scheduler's write is back in its own cache, and the update event it caused has been reconciled too.
    await until(
      () => cached()?.status?.schedulerObservedGeneration === 2,
      5_000,
      'the observed generation cached',
    );
    await idle(first.controller, 'the scheduler');

    expect(written(server.requestsWhere(bindingWrite))).toEqual([
      {
        method: 'PATCH',
        name: 'nginx-deployment',
        subresource: 'status',
        body: { status: { schedulerObservedGeneration: 2 } },
      },
    ]);
    const stored = server.get(RB, rbKey) as ResourceBinding;
    expect(stored.metadata.generation).toBe(2);
    expect(stored.status).toEqual({ ...settled.status, schedulerObservedGeneration: 2 });
    expect(stored.spec.clusters).toEqual(settled.clusters);
    expect(first.controller.status().lastError).toBeUndefined();

    await first.halt();
    const second = await runScheduler(server);
    expect(server.requestsWhere(bindingWrite)).toHaveLength(1);
    expect(second.controller.status().lastError).toBeUndefined();
  });

  it('writes nothing for a caught-up binding, nor for an update that leaves the generation alone', async () => {
    const server = await serve(resourceBinding(settled));
    const run = await runScheduler(server);
    const stored = server.get(RB, rbKey) as ResourceBinding;
    const relabelled = server.update(RB, {
      ...stored,
      metadata: { ...stored.metadata, labels: { ...stored.metadata.labels, team: 'a' } },
    });
    expect(relabelled.metadata.generation).toBe(1);
    await until(
      () => run.manager.informers.informer(RB)?.store.get(rbKey)?.metadata.labels?.team === 'a',
      5_000,
      'the label update cached',
    );
    await idle(run.controller, 'the scheduler');
    expect(server.requestsWhere(bindingWrite)).toEqual([]);
  });

  it('writes nothing for a binding whose scheduling is suspended', async () => {
    const server = await serve(resourceBinding({ ...settled, spec: { suspension: { scheduling: true } } }));
    const run = await runScheduler(server);
    expect(templateEdited(server, RB, rbKey).metadata.generation).toBe(2);
    await until(
      () => run.manager.informers.informer(RB)?.store.get(rbKey)?.metadata.generation === 2,
      5_000,
      'the edit cached',
    );
    await idle(run.controller, 'the scheduler');
    expect(server.requestsWhere(bindingWrite)).toEqual([]);
  });

  it('does the same for a ClusterResourceBinding', async () => {
    const server = await serve(clusterResourceBinding(settled));
    const run = await runScheduler(server);
    expect(server.requestsWhere(bindingWrite)).toEqual([]);

    expect(templateEdited(server, ClusterResourceBinding, crbKey).metadata.generation).toBe(2);
    const cached = () =>
      run.manager.informers.informer(ClusterResourceBinding)?.store.get(crbKey) as
        | ClusterResourceBindingObject
        | undefined;
    await until(
      () => cached()?.status?.schedulerObservedGeneration === 2,
      5_000,
      'the observed generation cached',
    );
    await idle(run.controller, 'the scheduler');

    expect(written(server.requestsWhere(bindingWrite))).toEqual([
      {
        method: 'PATCH',
        name: crbKey,
        subresource: 'status',
        body: { status: { schedulerObservedGeneration: 2 } },
      },
    ]);
    expect((server.get(ClusterResourceBinding, crbKey) as ClusterResourceBindingObject).status).toEqual({
      ...settled.status,
      schedulerObservedGeneration: 2,
    });
    expect(run.controller.status().lastError).toBeUndefined();
  });
});
