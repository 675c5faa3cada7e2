// The binding controller: orphan Works deleted first, then one Work per target cluster in karmada-es-<cluster>,
// built from the binding and its resource template (both from the cache); on binding deletion its Works go
// first, then the binding's finalizer. A Work that is already as desired is not written. A Work that cannot be
// built or written (an override that does not apply, a name over 253 characters, an object over etcd's request
// limit) is reported as Karmada does: a Warning Event SyncWorkFailed on the binding and on its template, besides
// the log line and the retry. A cluster whose overrides do not apply is skipped and the others still get their
// Works, as in Karmada's ensureWork; its existing Work, if any, is left as it is. So is a cluster whose Work
// write fails.
import { randomUUID } from 'node:crypto';
import { KarmadaResources, type Work } from '@warmstart/api';
import type { GroupVersionResource, KubeObject, Reader } from '@warmstart/informer-cache';
import { Controller } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import { type EventSubject, eventSink } from '../events.js';
import { bindingFinalizer } from './binding.js';
import {
  type AnyBinding,
  bindingKey,
  parseBindingKey,
  WORKS_BY_BINDING,
  worksByBinding,
} from './binding-keys.js';
import { cachedResource } from './cached-resource.js';
import { readOverrides, watchOverridePolicies } from './override-policy-cache.js';
import { isReportedFailure } from './reported-failure.js';
import {
  APPLY_OVERRIDE_POLICY_FAILED,
  aggregateMessage,
  applyOverridePolicyFailedMessage,
  WorkSyncFailedError,
} from './sync-work-failure.js';
import { desiredWorks, orphanWorks, type WorkOverrides, workNeedsUpdate } from './work-builder.js';
import { workMergePatch } from './work-patch.js';

export const BINDING_CONTROLLER = 'binding';
/** The ClusterResourceBinding half of `binding`: its own queue and workers, as in Karmada. */
export const CLUSTER_BINDING_CONTROLLER = 'cluster-resource-binding';
/** Karmada's reason (pkg/events) for a binding whose Works could not be built or written. */
export const SYNC_WORK_FAILED = 'SyncWorkFailed';
/** Karmada's reason (pkg/events) for a binding whose orphan Works could not be deleted. */
export const CLEANUP_WORK_FAILED = 'CleanupWorkFailed';

export class TemplateNotCachedError extends Error {
  constructor(apiVersion: string, kind: string) {
    super(
      `no informer caches ${apiVersion} ${kind}: the detector registers one per propagatable resource; is the resource served and not skipped?`,
    );
    this.name = 'TemplateNotCachedError';
  }
}

/**
 * The `binding` controller as two queues with one reconcile: ResourceBindings with
 * --concurrent-resourcebinding-syncs workers, ClusterResourceBindings with
 * --concurrent-clusterresourcebinding-syncs, so a burst of one kind cannot starve the other.
 */
export function bindingControllers(ctx: ManagerContext): Controller[] {
  const writer = ctx.manager.writer(BINDING_CONTROLLER);
  const emit = eventSink(writer, 'binding-controller', ctx.log);
  const build = (
    name: string,
    concurrency: number,
    resource: GroupVersionResource,
    prefix: 'rb:' | 'crb:',
  ): Controller => {
    const controller: Controller = new Controller(ctx.manager, {
      name,
      concurrency,
      source: BINDING_CONTROLLER,
      reconcile: (key, { signal }) => reconcile(controller.reader, key, signal),
    });
    watchOverridePolicies(controller, ctx.host, (k) => k.startsWith(prefix));
    // A Work changed or deleted behind our back is put right by reconciling its binding.
    return controller
      .for(resource, { map: bindingKey })
      .watches(KarmadaResources.Work, (w) => worksByBinding(w).filter((k) => k.startsWith(prefix)), {
        indexers: { [WORKS_BY_BINDING]: worksByBinding },
      });
  };

  async function reconcile(reader: Reader, key: string, signal: AbortSignal): Promise<void> {
    const { gvr, namespace, name } = parseBindingKey(key);
    const binding = await reader.get(gvr, { namespace, name }, { signal });
    const existing = await reader.byIndex(KarmadaResources.Work, WORKS_BY_BINDING, key, {
      signal,
    });
    if (!binding || binding.metadata.deletionTimestamp) {
      for (const w of existing) await deleteWork(w, signal);
      if (binding?.metadata.deletionTimestamp) await removeFinalizer(gvr, binding, signal);
      return;
    }
    const subject: EventSubject = { ...binding, apiVersion: 'work.karmada.io/v1alpha2', kind: gvr.kind };
    // Karmada's syncBinding runs removeOrphanWorks before anything else: orphans go whether or not the
    // template is there and whether or not every Work can be built.
    await removeOrphanWorks(subject, orphanWorks(existing, binding), signal);
    const templateGvr = templateResource(binding.spec.resource.apiVersion, binding.spec.resource.kind);
    const template = await reader.get(
      templateGvr,
      { namespace: binding.spec.resource.namespace, name: binding.spec.resource.name },
      { signal },
    );
    if (!template) return; // the template is gone; the garbage collector removes the binding
    try {
      const overrides = await readOverrides(reader, binding.spec.resource.namespace, signal);
      await syncWorks(key, binding, template, existing, overrides, signal);
    } catch (error) {
      // A conflict or a cache still syncing is retried and says nothing about the binding: only real failures are
      // reported.
      if (isReportedFailure(error, signal)) {
        const message = error instanceof Error ? error.message : String(error);
        emit(subject, 'Warning', SYNC_WORK_FAILED, message);
        emit(template, 'Warning', SYNC_WORK_FAILED, message);
      }
      throw error;
    }
  }

  async function syncWorks(
    key: string,
    binding: Readonly<AnyBinding>,
    template: Readonly<KubeObject>,
    existing: readonly Readonly<Work & KubeObject>[],
    overrides: WorkOverrides,
    signal: AbortSignal,
  ): Promise<void> {
    const desired = desiredWorks({
      binding,
      template: template as never,
      existingWorks: existing,
      overrides,
      newWorkId: randomUUID,
    });
    if (desired.kind === 'Invalid') throw new Error(`cannot build Works for ${key}: ${desired.message}`);
    // Karmada's override manager reports the failing policy on the template as it meets it, before the Works
    // of the clusters after it are written.
    for (const failure of desired.failed) {
      const message = applyOverridePolicyFailedMessage(failure);
      if (message !== undefined) emit(template, 'Warning', APPLY_OVERRIDE_POLICY_FAILED, message);
    }
    // A Work that cannot be written skips its cluster only: Karmada's ensureWork goes on to the next cluster and
    // returns every cluster's error as one aggregate.
    const writeErrors: unknown[] = [];
    for (const work of desired.works) {
      try {
        await writeWork(work, existing, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        writeErrors.push(error);
      }
    }
    if (desired.failed.length === 0 && writeErrors.length > 0 && writeErrors.every(isConflict)) {
      throw writeErrors[0];
    }
    if (desired.failed.length > 0 || writeErrors.length > 0) {
      throw new WorkSyncFailedError(desired.failed, writeErrors);
    }
  }

  function isConflict(error: unknown): boolean {
    return (error as { code?: number }).code === 409;
  }

  async function writeWork(
    work: Readonly<Work>,
    existing: readonly Readonly<Work & KubeObject>[],
    signal: AbortSignal,
  ): Promise<void> {
    const current = existing.find(
      (w) => w.metadata.namespace === work.metadata.namespace && w.metadata.name === work.metadata.name,
    );
    if (!current) {
      await writer.create(KarmadaResources.Work, work, { signal }).catch((error: { code?: number }) => {
        if (error.code !== 409) throw error;
      });
    } else if (workNeedsUpdate(current, work)) {
      await writer.patch(
        KarmadaResources.Work,
        { namespace: current.metadata.namespace, name: current.metadata.name },
        { type: 'merge', patch: workMergePatch(current, work) },
        { signal },
      );
    }
  }

  // Every orphan is tried (Karmada's RemoveOrphanWorks goes on past a failure); any failure is a Warning
  // CleanupWorkFailed on the binding and ends the reconcile before a Work is written, to be retried.
  async function removeOrphanWorks(
    subject: EventSubject,
    orphans: readonly Readonly<Work & KubeObject>[],
    signal: AbortSignal,
  ): Promise<void> {
    const errors: unknown[] = [];
    for (const orphan of orphans) {
      try {
        await deleteWork(orphan, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        errors.push(error);
      }
    }
    if (errors.length === 0) return;
    const message = aggregateMessage(errors.map((e) => (e instanceof Error ? e.message : String(e))));
    emit(subject, 'Warning', CLEANUP_WORK_FAILED, message);
    throw errors.length === 1 ? errors[0] : new AggregateError(errors, message);
  }

  async function deleteWork(w: Readonly<Work & KubeObject>, signal: AbortSignal): Promise<void> {
    if (w.metadata.deletionTimestamp) return;
    await writer
      .delete(KarmadaResources.Work, { namespace: w.metadata.namespace, name: w.metadata.name }, { signal })
      .catch((error: { code?: number }) => {
        if (error.code !== 404) throw error;
      });
  }

  async function removeFinalizer(
    gvr: GroupVersionResource,
    binding: Readonly<AnyBinding>,
    signal: AbortSignal,
  ): Promise<void> {
    const finalizer = bindingFinalizer(binding);
    const finalizers = binding.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return;
    await writer.patch(
      gvr,
      { namespace: binding.metadata.namespace, name: binding.metadata.name },
      {
        type: 'merge',
        patch: {
          metadata: {
            resourceVersion: binding.metadata.resourceVersion,
            finalizers: finalizers.filter((f) => f !== finalizer),
          },
        },
      },
      { signal },
    );
  }

  function templateResource(apiVersion: string, kind: string): GroupVersionResource {
    const gvr = cachedResource(ctx.host, apiVersion, kind);
    if (!gvr) throw new TemplateNotCachedError(apiVersion, kind);
    return gvr;
  }

  return [
    build(
      BINDING_CONTROLLER,
      ctx.options.concurrentResourceBindingSyncs,
      KarmadaResources.ResourceBinding,
      'rb:',
    ),
    build(
      CLUSTER_BINDING_CONTROLLER,
      ctx.options.concurrentClusterResourceBindingSyncs,
      KarmadaResources.ClusterResourceBinding,
      'crb:',
    ),
  ];
}
