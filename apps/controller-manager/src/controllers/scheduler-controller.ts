// The scheduler: static placement of ResourceBindings and ClusterResourceBindings onto member clusters,
// written as spec.clusters (with the applied-placement annotation) and the Scheduled condition, a write that cannot
// drop the binding status controller's FullyApplied (status-patch.ts); a binding whose spec moved without needing a
// schedule gets status.schedulerObservedGeneration alone. It reads bindings and Clusters from the cache and writes
// only when the result differs from what is stored.
import { BindingConditionType, KarmadaResources } from '@warmstart/api';
import { Controller } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import { eventSink } from '../events.js';
import type { Binding } from './binding.js';
import { type AnyBinding, bindingKey, parseBindingKey } from './binding-keys.js';
import { clusterChangeCanMovePlacements } from './cluster-change.js';
import { targetsTerminatingCluster } from './cluster-removal.js';
import { placementProblems } from './placement-problems.js';
import {
  afterSchedulePatch,
  observedGenerationUpdate,
  schedulePatch,
  scheduleStatusUpdate,
} from './schedule-writes.js';
import { scheduleBinding } from './scheduler.js';
import { schedulingDecision } from './scheduling-trigger.js';
import { statusMergePatch, statusWriteName, writeStatus } from './status-patch.js';
import { AppliedPlacementAnnotation } from './well-known.js';

export const SCHEDULER = 'scheduler';

export function schedulerController(ctx: ManagerContext): Controller {
  const writer = ctx.manager.writer(SCHEDULER);
  const emit = eventSink(writer, 'karmada-scheduler', ctx.log);
  // Bindings whose last schedule's status was not written (a 409, a failure, or a spec patch whose answer was lost).
  // Their next pass schedules again even when the spec now looks up to date, which our own spec patch made it:
  // otherwise a reschedule's Scheduled (and observed generation, last scheduled time) would stay as before.
  // In memory only: after a restart, a first schedule left unrecorded is found by its missing outcome instead
  // (scheduling-trigger.ts, ScheduleUnrecorded).
  const unfinished = new Set<string>();
  const controller: Controller = new Controller(ctx.manager, {
    name: SCHEDULER,
    concurrency: ctx.options.concurrentResourceBindingSyncs,
    reconcile: async (key, { signal }) => {
      const { gvr, namespace, name } = parseBindingKey(key);
      const binding = await reader.get(gvr, { namespace, name }, { signal });
      if (!binding || binding.metadata.deletionTimestamp) {
        unfinished.delete(key);
        return;
      }
      const clusters = await reader.list(KarmadaResources.Cluster, { signal });
      const decision = schedulingDecision(binding);
      if (!unfinished.has(key) && !decision.schedule && !targetsTerminatingCluster(binding, clusters)) {
        // Nothing to schedule, but a spec change that does not move the placement still counts as observed. Only
        // for a binding that is up to date: Karmada writes nothing for a deleting one, and never reaches this for
        // a suspended one (its event filter drops them) or one without a placement (an error there).
        const observed =
          decision.reason === 'UpToDate' && decision.observedGenerationStale
            ? observedGenerationUpdate(binding)
            : undefined;
        if (observed) {
          // No conditions in it, so no precondition and no 409 (status-patch.ts); the recording writer holds the
          // answer until the update event arrives, so the passes that event and others trigger write nothing.
          await writeStatus(writer, gvr, { namespace, name }, statusMergePatch(binding, observed), signal, {
            log: ctx.log,
            controller: SCHEDULER,
            write: statusWriteName(observed, []),
          });
        }
        return;
      }
      const result = scheduleBinding(binding, clusters);
      const patch = schedulePatch(binding, result);
      let scheduled: Readonly<Binding> = binding;
      if (patch) {
        unfinished.add(key);
        const patched = await writer.patch<AnyBinding>(
          gvr,
          { namespace, name },
          {
            type: 'merge',
            patch: {
              metadata: { annotations: { [AppliedPlacementAnnotation]: patch.appliedPlacement } },
              spec: { clusters: patch.clusters },
            },
          },
          { signal },
        );
        scheduled = afterSchedulePatch(binding, patched, patch);
      }
      const status = scheduleStatusUpdate(
        scheduled,
        result,
        new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      );
      // Conditional on the version the status was computed from when it replaces the conditions (status-patch.ts):
      // a 409 means something else wrote the binding after our spec patch; the next pass keeps what it wrote and
      // finishes this schedule (`unfinished`). On a first schedule the binding status controller cannot be that
      // writer: it writes nothing, not even its unconditional aggregatedStatus, until the binding shows this
      // write's outcome (binding-status-controller.ts). What is left is the detector changing the spec meanwhile,
      // or a writer outside this process.
      const outcome = status
        ? await writeStatus(writer, gvr, { namespace, name }, statusMergePatch(scheduled, status), signal, {
            log: ctx.log,
            controller: SCHEDULER,
            write: statusWriteName(status, [BindingConditionType.Scheduled]),
            baseConditions: (scheduled.status?.conditions ?? []).map((c) => c.type),
          })
        : undefined;
      if (outcome?.kind === 'conflict') {
        unfinished.add(key);
        return { requeue: true };
      }
      unfinished.delete(key);
      if (result.kind === 'Unschedulable') {
        ctx.log.info(
          { binding: key, reason: result.reason, message: result.message },
          'binding not scheduled',
        );
        // Karmada's ScheduleBindingFailed, on the binding and its template, once per change of the outcome; with
        // what in the placement can never match, when something can't.
        const problems = placementProblems(binding.spec.placement);
        if (outcome !== undefined && problems.length > 0) {
          const message = `${result.message} ${problems.join('; ')}`;
          const r = binding.spec.resource;
          emit(
            { ...binding, apiVersion: 'work.karmada.io/v1alpha2', kind: gvr.kind },
            'Warning',
            'ScheduleBindingFailed',
            message,
          );
          emit(
            {
              apiVersion: r.apiVersion,
              kind: r.kind,
              metadata: { name: r.name, namespace: r.namespace, uid: r.uid },
            },
            'Warning',
            'ScheduleBindingFailed',
            message,
          );
        }
      }
    },
  });
  const { reader } = controller;
  // Bindings of both kinds share the queue; their keys say which kind (rb:/crb:).
  controller
    .for(KarmadaResources.ResourceBinding, { map: bindingKey })
    .watches(KarmadaResources.ClusterResourceBinding, bindingKey)
    // A Cluster that joins, leaves or changes readiness can change every placement. Every binding is requeued at
    // low priority, so a binding changed meanwhile is not held behind all the others.
    .watches(KarmadaResources.Cluster, () => allBindingKeys(), {
      lowPriority: true,
      predicates: {
        create: (_o, initial) => !initial,
        update: (o, n) => clusterChangeCanMovePlacements(o, n),
      },
    });
  function* allBindingKeys(): Generator<string> {
    for (const gvr of [KarmadaResources.ResourceBinding, KarmadaResources.ClusterResourceBinding]) {
      for (const b of ctx.host.informer(gvr)?.lister.list() ?? []) yield bindingKey(b);
    }
  }
  return controller;
}
