// The binding status controller against an in-process API server: a Job template's Complete condition is written
// once, even when a member's Work changes again before the template's informer has delivered that write. The
// manager's reader serves the controller's own write responses (MutationCache, read-your-writes) over the cache,
// so the second reconcile sees the finished Job, as Karmada does by reading the template from the API server.
import { Annotations, BuiltinResources, KarmadaResources } from '@warmstart/api';
import { FakeApiServer, type RecordedRequest, until } from '@warmstart/informer-cache/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { BINDING_STATUS_CONTROLLER, bindingStatusControllers } from './binding-status-controller.js';
import { appliedPlacementValue } from './scheduling-trigger.js';
import { idle } from './testing/controller-idle.js';
import { fakeServerContext } from './testing/fake-server-context.js';
import { AppliedPlacementAnnotation } from './well-known.js';

const Job = BuiltinResources.Job;
const { ResourceBinding, ClusterResourceBinding, Work } = KarmadaResources;

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const memberJob = (completionTime: string) => ({
  succeeded: 1,
  startTime: '2026-12-05T04:00:00Z',
  completionTime,
  conditions: [{ type: 'Complete', status: 'True', lastProbeTime: null, lastTransitionTime: null }],
});

const work = (jobStatus: Record<string, unknown> | undefined) => ({
  apiVersion: 'work.karmada.io/v1alpha1',
  kind: 'Work',
  metadata: {
    name: 'pi-job',
    namespace: 'karmada-es-member1',
    annotations: {
      [Annotations.ResourceBindingNamespace]: 'default',
      [Annotations.ResourceBindingName]: 'pi-job',
    },
  },
  spec: {
    workload: {
      manifests: [{ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', namespace: 'default' } }],
    },
  },
  status: {
    conditions: [
      {
        type: 'Applied',
        status: 'True',
        reason: 'AppliedSuccessful',
        lastTransitionTime: '2026-12-05T04:00:00Z',
      },
    ],
    ...(jobStatus
      ? {
          manifestStatuses: [
            {
              identifier: {
                ordinal: 0,
                group: 'batch',
                version: 'v1',
                kind: 'Job',
                namespace: 'default',
                name: 'pi',
              },
              status: jobStatus,
              health: 'Healthy',
            },
          ],
        }
      : {}),
  },
});

async function start() {
  const server = await FakeApiServer.start();
  cleanup.push(() => server.close());
  for (const gvr of [Job, ResourceBinding, ClusterResourceBinding, Work, BuiltinResources.Event])
    server.addResource(gvr);
  server.create(Job, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', namespace: 'default' } });
  server.create(ResourceBinding, {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'pi-job', namespace: 'default' },
    spec: {
      resource: { apiVersion: 'batch/v1', kind: 'Job', namespace: 'default', name: 'pi' },
      clusters: [{ name: 'member1' }],
    },
    status: { lastScheduledTime: '2026-12-05T04:00:00Z' },
  });
  server.create(Work, work(undefined));

  const { ctx, manager } = fakeServerContext(server);
  // The detector registers the template's informer in the manager; here the test does.
  manager.informers.forResource(Job);
  const [controller] = bindingStatusControllers(ctx);
  const stop = new AbortController();
  const running = manager.run(stop.signal);
  cleanup.push(async () => {
    stop.abort();
    await running;
  });
  await server.waitForWatch(Job);
  await server.waitForWatch(Work);
  return { server, controller: controller! };
}

const jobStatusPatch = (r: RecordedRequest) =>
  r.method === 'PATCH' && r.resource === 'batch/v1/jobs' && r.name === 'pi' && r.subresource === 'status';
const bindingStatusPatch = (r: RecordedRequest) =>
  r.method === 'PATCH' &&
  r.resource === 'work.karmada.io/v1alpha2/resourcebindings' &&
  r.subresource === 'status';

describe('binding status controller: a finished Job template', () => {
  it('writes the Complete condition once when the Work changes again before the Job informer has the write', async () => {
    const { server, controller } = await start();
    // The template's informer hears of nothing from here on: our write stays out of its store.
    server.stallWatches(Job);

    server.update(Work, work(memberJob('2026-12-05T04:01:00Z')));
    const first = await server.waitForRequest(jobStatusPatch);
    expect(JSON.parse(first.body)).toMatchObject({
      status: { conditions: [{ type: 'Complete', status: 'True', reason: 'Completed' }], succeeded: 1 },
    });

    // The member's status changes again (its completion time is re-recorded): the binding's aggregatedStatus is
    // written, then the template is looked at from a cache that still lacks the Complete condition.
    const bindingWrites = server.requestsWhere(bindingStatusPatch).length;
    server.update(Work, work(memberJob('2026-12-05T04:02:00Z')));
    await until(
      () => server.requestsWhere(bindingStatusPatch).length > bindingWrites,
      5_000,
      'the binding status written for the changed Work',
    );
    await idle(controller, 'the binding status controller');

    expect(server.requestsWhere(jobStatusPatch)).toHaveLength(1);
    expect(controller.status().lastError).toBeUndefined();
  });
});

describe('binding status controller: a Work applied before the binding cache has the scheduler’s status', () => {
  // The scheduler's spec patch (spec.clusters, the applied placement) is cached, its status write (Scheduled,
  // lastScheduledTime) is stored but not cached yet, and the member has applied the Work. A FullyApplied write
  // computed from the cached binding would be refused (409): its conditions list lacks Scheduled. Compared with
  // Karmada f8fdd02 (pkg/util/helper/workstatus.go writes, and retries on conflict): the same status and event.
  const placement = { clusterAffinity: { clusterNames: ['member1'] } };
  const bindingKey = 'default/pi-job';

  async function startAwaiting() {
    const server = await FakeApiServer.start();
    cleanup.push(() => server.close());
    for (const gvr of [Job, ResourceBinding, ClusterResourceBinding, Work, BuiltinResources.Event])
      server.addResource(gvr);
    server.create(Job, {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'pi', namespace: 'default' },
    });
    server.create(ResourceBinding, {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: {
        name: 'pi-job',
        namespace: 'default',
        annotations: { [AppliedPlacementAnnotation]: appliedPlacementValue(placement) },
      },
      spec: {
        resource: { apiVersion: 'batch/v1', kind: 'Job', namespace: 'default', name: 'pi' },
        placement,
        clusters: [{ name: 'member1' }],
      },
    });
    const { status: _applied, ...unapplied } = work(undefined);
    server.create(Work, unapplied);

    const { ctx, manager, lines } = fakeServerContext(server, { captureLog: true });
    manager.informers.forResource(Job);
    const [controller] = bindingStatusControllers(ctx);
    const stop = new AbortController();
    const running = manager.run(stop.signal);
    cleanup.push(async () => {
      stop.abort();
      await running;
    });
    for (const gvr of [Job, Work, ResourceBinding]) await server.waitForWatch(gvr);
    return { server, manager, controller: controller!, lines };
  }

  const refused = (lines: readonly Record<string, unknown>[]) =>
    lines.filter((l) => l.controller === BINDING_STATUS_CONTROLLER && String(l.msg).includes('409'));

  it('waits for the binding’s update event, then writes FullyApplied beside Scheduled without a 409', async () => {
    const { server, manager, controller, lines } = await startAwaiting();
    server.stallWatches(ResourceBinding);
    const cached = server.get(ResourceBinding, bindingKey)!;
    server.update(ResourceBinding, {
      ...cached,
      status: {
        schedulerObservedGeneration: cached.metadata.generation,
        lastScheduledTime: '2026-12-05T04:00:00Z',
        conditions: [
          {
            type: 'Scheduled',
            status: 'True',
            reason: 'Success',
            message: 'Binding has been scheduled successfully.',
            lastTransitionTime: '2026-12-05T04:00:00Z',
          },
        ],
      },
    });
    const applied = server.update(Work, work(undefined));
    await until(
      () =>
        manager.informers.informer(Work)?.store.get('karmada-es-member1/pi-job')?.metadata.resourceVersion ===
        applied.metadata.resourceVersion,
      5_000,
      'the applied Work in the cache',
    );
    // Reconciled from the stale binding: nothing written (a write would have been refused and requeued).
    await until(
      () => {
        const s = controller.status();
        return refused(lines).length > 0 || (s.inFlight === 0 && s.queueDepth === 0 && s.delayed === 0);
      },
      5_000,
      'the binding status controller idle',
    );
    expect(refused(lines)).toEqual([]);
    expect(server.requestsWhere(bindingStatusPatch)).toHaveLength(0);

    // The binding informer catches up: the update event that brings the scheduler's status enqueues the binding.
    server.closeWatches();
    await until(
      () => server.requestsWhere(bindingStatusPatch).length > 0,
      5_000,
      'the binding status written once the cache has the scheduler’s status',
    );
    await idle(controller, 'the binding status controller');
    const stored = server.get(ResourceBinding, bindingKey) as {
      status?: { conditions?: { type: string }[] };
    };
    expect(stored.status?.conditions?.map((c) => c.type)).toEqual(['Scheduled', 'FullyApplied']);
    expect(stored.status).toMatchObject({ aggregatedStatus: [{ clusterName: 'member1', applied: true }] });
    expect(server.requestsWhere(bindingStatusPatch)).toHaveLength(1);
    expect(refused(lines)).toEqual([]);
    expect(controller.status().lastError).toBeUndefined();
  });
});
