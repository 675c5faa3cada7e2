// The binding status controllers (Karmada's `bindingStatus`: rb_status_controller.go and crb_status_controller.go
// at f8fdd02): a binding's status.aggregatedStatus and FullyApplied condition from its Works, then, for a kind
// Karmada's default interpreter aggregates (template-status.ts: thirteen kinds), the template's status from the
// members'.
// Everything is read from the caches (Karmada fetches the template from the API server; we do not), and each of
// the two status writes happens only when its value differs from the cached one.
import { BindingConditionType, KarmadaResources } from '@warmstart/api';
import type { Reader } from '@warmstart/informer-cache';
import { Controller } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import { type EventSubject, eventSink } from '../events.js';
import { AggregateStatusError, assembleWorkStatus, bindingStatusUpdate } from './aggregate-status.js';
import {
  type AnyBinding,
  bindingKey,
  parseBindingKey,
  WORKS_BY_BINDING,
  worksByBinding,
} from './binding-keys.js';
import { cachedResource } from './cached-resource.js';
import { jsonEqual } from './json.js';
import { mergePatch, sameStatus } from './merge-patch.js';
import { statusMap } from './reflect-status.js';
import { awaitingScheduleOutcome } from './scheduling-trigger.js';
import { statusMergePatch, statusWriteName, writeStatus } from './status-patch.js';
import { aggregatesStatus, aggregateTemplateStatus } from './template-status.js';

export const BINDING_STATUS_CONTROLLER = 'resource-binding-status';
export const CLUSTER_BINDING_STATUS_CONTROLLER = 'cluster-resource-binding-status';
/** Karmada's reasons (pkg/events) for a status aggregated, or not, into a binding or a template. */
export const AGGREGATE_STATUS_SUCCEED = 'AggregateStatusSucceed';
export const AGGREGATE_STATUS_FAILED = 'AggregateStatusFailed';

// Karmada's predicates: a binding is looked at once scheduled (status.lastScheduledTime set), and again only when
// its template changed (spec.resource.resourceVersion); otherwise its Works' status changes drive it.
const scheduled = (b: Readonly<AnyBinding>): boolean => b.status?.lastScheduledTime !== undefined;

export function bindingStatusControllers(ctx: ManagerContext): Controller[] {
  const writer = ctx.manager.writer(BINDING_STATUS_CONTROLLER);
  const emit = eventSink(writer, 'binding-status-controller', ctx.log);
  // Our own rule, a matter of timing only: nothing is written for a binding whose cached copy does not show the
  // scheduler's first outcome yet (scheduling-trigger.ts, awaitingScheduleOutcome). Its Works can only come from a
  // schedule whose spec patch is cached and whose status write is not, so the cached binding is older than the
  // stored one: a FullyApplied write from it would be refused (its precondition), and an aggregatedStatus-only
  // write (unconditional) would move the binding under the scheduler's conditional Scheduled write and have that
  // refused. Karmada writes and retries on conflict; we wait for the binding's update event that brings the
  // outcome, then write what Karmada would (same conditions, aggregatedStatus and events), from a binding that has
  // it. Only while our scheduler runs here: it always records an outcome for such a binding (after a 409, a failure
  // or a restart too: scheduler-controller.ts), so the wait ends; another scheduler might not.
  const awaitsScheduler = ctx.options.enabledControllers.has('scheduler')
    ? awaitingScheduleOutcome
    : () => false;

  const build = (
    name: string,
    concurrency: number,
    resource: typeof KarmadaResources.ResourceBinding | typeof KarmadaResources.ClusterResourceBinding,
    prefix: 'rb:' | 'crb:',
  ): Controller => {
    // Bindings skipped while awaiting the scheduler's outcome: the update event that brings it enqueues them.
    // A key goes in before the binding is read, so the event is not missed when it arrives between the read and the
    // return.
    const waiting = new Set<string>();
    const controller: Controller = new Controller(ctx.manager, {
      name,
      concurrency,
      source: BINDING_STATUS_CONTROLLER,
      reconcile: async (key, { signal }) => {
        const { gvr, namespace, name: bindingName } = parseBindingKey(key);
        waiting.add(key);
        const binding = await controller.reader.get(gvr, { namespace, name: bindingName }, { signal });
        if (binding && !binding.metadata.deletionTimestamp && awaitsScheduler(binding)) return;
        waiting.delete(key);
        if (!binding || binding.metadata.deletionTimestamp) return;
        const works = await controller.reader.byIndex(KarmadaResources.Work, WORKS_BY_BINDING, key, {
          signal,
        });
        const subject: EventSubject = { ...binding, apiVersion: 'work.karmada.io/v1alpha2', kind: gvr.kind };
        let items: ReturnType<typeof assembleWorkStatus>;
        try {
          items = assembleWorkStatus(works, binding.spec.resource);
        } catch (error) {
          if (error instanceof AggregateStatusError)
            emit(subject, 'Warning', AGGREGATE_STATUS_FAILED, error.message);
          throw error;
        }
        // FullyApplied goes in only when it changes, and then conditional on the cached version (status-patch.ts):
        // a list computed before the scheduler's Scheduled reached the cache must not erase it.
        const status = bindingStatusUpdate(binding, items, new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
        let conflict = false;
        if (status) {
          const outcome = await writeStatus(
            writer,
            gvr,
            { namespace, name: bindingName },
            statusMergePatch(binding, status),
            signal,
            {
              log: ctx.log,
              controller: name,
              write: statusWriteName(status, [BindingConditionType.FullyApplied]),
              baseConditions: (binding.status?.conditions ?? []).map((c) => c.type),
            },
          );
          conflict = outcome.kind === 'conflict';
          if (!conflict) {
            emit(
              subject,
              'Normal',
              AGGREGATE_STATUS_SUCCEED,
              gvr.kind === 'ResourceBinding'
                ? `Update ResourceBinding(${namespace}/${bindingName}) with AggregatedStatus successfully.`
                : `Update ClusterResourceBinding(${bindingName}) with AggregatedStatus successfully.`,
            );
          }
        }
        await updateTemplateStatus(controller.reader, binding, items, signal);
        // The binding moved under the conditions write: again, from a cache that has seen what moved it.
        return conflict ? { requeue: true } : undefined;
      },
    });
    return controller
      .for(resource, {
        map: bindingKey,
        predicates: {
          create: scheduled,
          update: (o, n) =>
            (scheduled(n) && o.spec.resource.resourceVersion !== n.spec.resource.resourceVersion) ||
            (waiting.has(bindingKey(n)) && awaitsScheduler(o) && !awaitsScheduler(n)),
          delete: () => false,
        },
      })
      .watches(KarmadaResources.Work, (w) => worksByBinding(w).filter((k) => k.startsWith(prefix)), {
        indexers: { [WORKS_BY_BINDING]: worksByBinding },
        predicates: {
          create: () => false,
          update: (o, n) => !jsonEqual(o.status, n.status),
          delete: () => true,
        },
      });
  };

  /** updateResourceStatus: the template's status from the aggregated items, written when it differs. */
  async function updateTemplateStatus(
    reader: Reader,
    binding: Readonly<AnyBinding>,
    items: ReturnType<typeof assembleWorkStatus>,
    signal: AbortSignal,
  ): Promise<void> {
    const ref = binding.spec.resource;
    if (!aggregatesStatus(ref.apiVersion, ref.kind)) return;
    const gvr = cachedResource(ctx.host, ref.apiVersion, ref.kind);
    if (!gvr) return; // no informer caches the kind: the detector does not propagate it
    const template = await reader.get(gvr, { namespace: ref.namespace, name: ref.name }, { signal });
    // Gone: the garbage collector removes the binding next.
    if (!template) return;
    let next: ReturnType<typeof aggregateTemplateStatus>;
    try {
      next = aggregateTemplateStatus(template, items);
    } catch (error) {
      if (error instanceof AggregateStatusError)
        emit(template, 'Warning', AGGREGATE_STATUS_FAILED, error.message);
      throw error;
    }
    if (next === undefined) return;
    // As Karmada: written only when the status differs as a whole; a merge patch that also removes what the new
    // status leaves out (Karmada replaces the status with an update), with no resourceVersion to conflict on.
    let old: ReturnType<typeof statusMap>;
    try {
      old = statusMap(template);
    } catch {
      old = undefined;
    }
    if (sameStatus(old ?? {}, next)) return;
    await writer.patchStatus(
      gvr,
      { namespace: ref.namespace, name: ref.name },
      { type: 'merge', patch: { status: old === undefined ? next : mergePatch(old, next) } },
      { signal },
    );
    emit(template, 'Normal', AGGREGATE_STATUS_SUCCEED, 'Update Resource with AggregatedStatus successfully.');
  }

  return [
    build(
      BINDING_STATUS_CONTROLLER,
      ctx.options.concurrentResourceBindingSyncs,
      KarmadaResources.ResourceBinding,
      'rb:',
    ),
    build(
      CLUSTER_BINDING_STATUS_CONTROLLER,
      ctx.options.concurrentClusterResourceBindingSyncs,
      KarmadaResources.ClusterResourceBinding,
      'crb:',
    ),
  ];
}
