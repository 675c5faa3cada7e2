// The execution controller: applies each Work's manifests to its member cluster by server-side apply, deletes
// them when the Work goes, and keeps the Work's Dispatching and Applied conditions. Member objects are read from
// the member's informer caches (registered the first time a kind is seen; the read waits for that cache), and
// those informers bring member-side changes back: an applied object deleted on the member is created again, one
// whose manifest fields were changed there is repaired (member-drift.ts, with back-off against a member
// controller that fights back). A manifest already applied at this Work generation, and still matching, is not applied again, so a
// restart rewrites nothing.
import {
  type Condition,
  clusterNameFromExecutionNamespace,
  KarmadaResources,
  type UnstructuredObject,
  type Work,
  WorkConditionType,
} from '@warmstart/api';
import type { GroupVersionResource, KubeObject, Lister, SharedInformer } from '@warmstart/informer-cache';
import { Controller, type ReconcileResult } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import { eventSink } from '../events.js';
import type { MemberRegistry } from '../members.js';
import { AppliedVersions } from './applied-versions.js';
import { requeueWorksOfReadyMembers } from './cluster-works.js';
import { type ConditionDraft, conditionChanged, findCondition, setCondition } from './conditions.js';
import { DriftBackoff } from './drift-backoff.js';
import {
  appliedCondition,
  describeManifest,
  dispatchingChanged,
  dispatchingCondition,
  type ManifestOutcome,
  type ParsedManifest,
  parseErrorOutcome,
  parseManifests,
  planWorkDeletion,
  planWorkSync,
  skippedOutcome,
} from './execution.js';
import { isRelevantMemberChange, memberMatchesManifest, workKeyOfMemberObject } from './member-drift.js';
import { statusMergePatch, statusWriteName, writeStatus } from './status-patch.js';
import { WorkDispatchingEventReason } from './well-known.js';

export const EXECUTION_CONTROLLER = 'execution';
/** Stamped on member objects: the Work uid and generation they were last applied from. */
export const APPLIED_FROM_ANNOTATION = 'warmstart.io/applied-from-work';
/** Warning Event on a Work whose object a member controller keeps changing back after each repair. */
export const DRIFT_REPAIR_BACKOFF = 'DriftRepairBackoff';

export function executionController(ctx: ManagerContext, members: MemberRegistry): Controller {
  const writer = ctx.manager.writer(EXECUTION_CONTROLLER);
  const emit = eventSink(writer, 'execution-controller', ctx.log);
  const versions = new AppliedVersions();
  const backoff = new DriftBackoff();
  members.onChange((name, member) => {
    // A replaced or removed member's informers are stopped; its successor's are watched when first used.
    for (const informer of watchedMembers) if (informer.cluster === name) watchedMembers.delete(informer);
    if (!member) versions.forgetCluster(name);
  });
  // Member-side events of applied objects, Karmada's rules: our own writes (the recorded version) and changes
  // to status only are ignored, and so is everything before a Work's first reconcile recorded a version (the
  // initial list after a restart); a delete always sends the Work back. The runtime watches the member's
  // informer (deletes found on relist unwrapped there; an update that drops the Work's labels maps through the old object).
  const watchedMembers = new Set<SharedInformer>();
  const watchDrift = (cluster: string, gvr: GroupVersionResource, informer: SharedInformer): void => {
    if (watchedMembers.has(informer)) return;
    watchedMembers.add(informer);
    const changedByOthers = (o: Readonly<KubeObject>): boolean => {
      const recorded = versions.get(cluster, AppliedVersions.key(gvr, o.metadata.namespace, o.metadata.name));
      return recorded !== undefined && recorded.resourceVersion !== o.metadata.resourceVersion;
    };
    controller.watches(informer, workKeyOfMemberObject, {
      predicates: {
        create: (o, initial) => !initial && changedByOthers(o),
        update: (old, next) => changedByOthers(next) && isRelevantMemberChange(old, next),
      },
    });
  };

  const controller: Controller = new Controller(ctx.manager, {
    name: EXECUTION_CONTROLLER,
    concurrency: ctx.options.concurrentWorkSyncs,
    reconcile: async (key, { signal }): Promise<ReconcileResult> => {
      const [namespace, name] = key.split('/') as [string, string];
      const work = await reader.get(KarmadaResources.Work, { namespace, name }, { signal });
      if (!work) return {};
      const clusterName = clusterNameFromExecutionNamespace(namespace);
      if (!clusterName) return {};
      const cluster = await reader.get(KarmadaResources.Cluster, clusterName, {
        signal,
      });
      const member = members.get(clusterName);
      // Resolve every manifest's member cache first, so the pure planners can look objects up synchronously.
      const listers = new Map<number, { gvr: GroupVersionResource; lister: Lister }>();
      const resolveErrors: ManifestOutcome[] = [];
      if (member) {
        for (const parsed of parseManifests(work)) {
          if (!parsed.ok) continue;
          const m = parsed.manifest;
          try {
            const gvr = await member.mapper.resourceFor(m.group, m.version, m.kind, signal);
            const lister = await member.reader.lister(gvr, { signal });
            watchDrift(member.name, gvr, member.informers.forResource(gvr));
            listers.set(m.ordinal, { gvr, lister });
          } catch (error) {
            resolveErrors.push({
              ordinal: m.ordinal,
              applied: false,
              message: error instanceof Error ? error.message : String(error),
            });
          }
        }
      }
      const lookup = (m: ParsedManifest): Readonly<UnstructuredObject> | undefined =>
        listers.get(m.ordinal)?.lister.get({ namespace: m.namespace, name: m.name }) as
          | Readonly<UnstructuredObject>
          | undefined;

      if (work.metadata.deletionTimestamp) {
        const plan = planWorkDeletion(work, cluster, lookup);
        if (plan.kind === 'blocked') throw new Error(plan.message);
        if (plan.kind !== 'cleanup') return {};
        for (const c of plan.cleanups) {
          const target = listers.get(c.manifest.ordinal);
          if (!member || !target) continue;
          versions.forget(
            clusterName,
            AppliedVersions.key(target.gvr, c.manifest.namespace, c.manifest.name),
          );
          const objKey = { namespace: c.manifest.namespace, name: c.manifest.name };
          if (c.action === 'delete') {
            await member.writer
              .delete(target.gvr, objKey, { signal, propagationPolicy: c.propagationPolicy })
              .catch((e: { code?: number }) => {
                if (e.code !== 404) throw e;
              });
          } else if (c.action === 'strip-metadata') {
            const nulls = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, null]));
            await member.writer.patch(
              target.gvr,
              objKey,
              {
                type: 'merge',
                patch: { metadata: { labels: nulls(c.labels), annotations: nulls(c.annotations) } },
              },
              { signal },
            );
          }
        }
        if (plan.finalizers) {
          await writer.patch(
            KarmadaResources.Work,
            { namespace, name },
            {
              type: 'merge',
              patch: {
                metadata: { resourceVersion: work.metadata.resourceVersion, finalizers: plan.finalizers },
              },
            },
            { signal },
          );
        }
        return {};
      }

      // Karmada's order: the Dispatching condition for any Work whose Cluster is known, then suspension, the
      // Cluster's readiness, the apply and the Applied condition. The conditions that changed go out in one write.
      const changed: ConditionDraft[] = [];
      const dispatching = dispatchingCondition(work);
      if (cluster && dispatchingChanged(work.status?.conditions, dispatching)) changed.push(dispatching);
      const plan = planWorkSync(work, cluster, lookup);
      if (plan.kind !== 'apply' || !member) {
        if ((await writeConditions(work, changed, signal)) === 'conflict') return { requeue: true };
        if (plan.kind === 'cluster-not-ready') throw new Error(plan.message);
        return {};
      }
      const stamp = `${work.metadata.uid}/${work.metadata.generation ?? 0}`;
      const outcomes: ManifestOutcome[] = [...resolveErrors, ...plan.invalid.map(parseErrorOutcome)];
      let requeueAfter: number | undefined;
      for (const decision of plan.decisions) {
        if (decision.action === 'skip-conflict') {
          outcomes.push(skippedOutcome(decision));
          continue;
        }
        const target = listers.get(decision.manifest.ordinal);
        if (!target) continue; // its resolve error is already an outcome
        const manifest = decision.manifest;
        const objectKey = AppliedVersions.key(target.gvr, manifest.namespace, manifest.name);
        const current = lookup(manifest);
        const rv = current?.metadata.resourceVersion;
        const stamped = current?.metadata.annotations?.[APPLIED_FROM_ANNOTATION];
        if (
          current !== undefined &&
          stamped === undefined &&
          memberMatchesManifest(manifest.object, current)
        ) {
          // Written by another controller exactly as this Work says: Karmada's execution controller, before a
          // migration to this one. Taking it over needs no write; stamping it would rewrite every member object.
          if (rv !== undefined) versions.record(clusterName, objectKey, rv);
          outcomes.push({ ordinal: manifest.ordinal, applied: true });
          continue;
        }
        if (current !== undefined && stamped === stamp) {
          // Applied at this generation. Unchanged since (or the cache has not caught up with our write yet):
          // nothing to do. Changed by someone else, or not known since a restart: compare with the manifest.
          if (versions.isCurrent(clusterName, objectKey, rv)) {
            outcomes.push({ ordinal: manifest.ordinal, applied: true });
            continue;
          }
          if (memberMatchesManifest(manifest.object, current)) {
            if (rv !== undefined) versions.record(clusterName, objectKey, rv);
            outcomes.push({ ordinal: manifest.ordinal, applied: true });
            continue;
          }
          const repair = backoff.attempt(`${clusterName}/${objectKey}`, Date.now());
          if (repair.kind === 'wait') {
            if (repair.report) {
              emit(
                { ...work, apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work' },
                'Warning',
                DRIFT_REPAIR_BACKOFF,
                `${describeManifest(manifest)} in cluster ${clusterName} was changed on the member again after ${repair.repairs} repairs; ` +
                  'another controller there seems to set the fields this Work sets (an autoscaler, a webhook): ' +
                  `repairs now back off (next in ${Math.ceil(repair.delayMs / 1000)}s); let one owner set those fields`,
              );
            }
            requeueAfter = Math.min(requeueAfter ?? Infinity, repair.delayMs);
            outcomes.push({ ordinal: manifest.ordinal, applied: true });
            continue;
          }
          ctx.log.info(
            { cluster: clusterName, object: describeManifest(manifest), work: key },
            'repairing a member object that drifted from its Work',
          );
        } else if (current === undefined && versions.get(clusterName, objectKey) !== undefined) {
          ctx.log.info(
            { cluster: clusterName, object: describeManifest(manifest), work: key },
            'creating again a member object deleted on the member',
          );
        }
        const object = manifest.object;
        const patch = {
          ...object,
          metadata: {
            ...object.metadata,
            annotations: { ...object.metadata.annotations, [APPLIED_FROM_ANNOTATION]: stamp },
          },
        };
        try {
          const applied = await member.writer.apply(target.gvr, patch, { signal, force: true });
          const appliedRv = applied?.metadata?.resourceVersion;
          if (appliedRv !== undefined) versions.record(clusterName, objectKey, appliedRv, rv);
          outcomes.push({ ordinal: manifest.ordinal, applied: true });
        } catch (error) {
          outcomes.push({
            ordinal: manifest.ordinal,
            applied: false,
            message: error instanceof Error ? error.message : String(error),
          });
        }
      }
      // Without observedGeneration, as Karmada's Applied condition: with it, every Work generation cost a status
      // write even when the outcome was the same (one more write per change under churn).
      const next = appliedCondition(outcomes);
      if (conditionChanged(findCondition(work.status?.conditions, next.type), next)) changed.push(next);
      if ((await writeConditions(work, changed, signal)) === 'conflict') return { requeue: true };
      if (next.status !== 'True') throw new Error(next.message);
      return requeueAfter === undefined ? {} : { requeueAfter };
    },
  });
  const { reader } = controller;

  /**
   * Writes the changed conditions over the Work's cached list, conditional on the cached version
   * (status-patch.ts): a list computed before our previous write of this Work reached the cache must not erase
   * it. The WorkDispatching Event goes with a written Dispatching condition, as Karmada sends it.
   */
  async function writeConditions(
    work: Readonly<Work>,
    changed: readonly ConditionDraft[],
    signal: AbortSignal,
  ): Promise<'written' | 'conflict' | 'unchanged'> {
    if (changed.length === 0) return 'unchanged';
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const conditions = changed.reduce<readonly Condition[] | undefined>(
      (list, draft) => setCondition(list, draft, now),
      work.status?.conditions,
    );
    const { namespace, name } = work.metadata;
    const outcome = await writeStatus(
      writer,
      KarmadaResources.Work,
      { namespace, name },
      statusMergePatch(work, { conditions }),
      signal,
      {
        log: ctx.log,
        controller: EXECUTION_CONTROLLER,
        write: statusWriteName(
          { conditions },
          changed.map((c) => c.type),
        ),
        baseConditions: (work.status?.conditions ?? []).map((c) => c.type),
      },
    );
    if (outcome.kind === 'conflict') return 'conflict';
    const dispatched = changed.find((c) => c.type === WorkConditionType.Dispatching);
    if (dispatched) {
      emit(
        { ...work, apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work' },
        'Normal',
        WorkDispatchingEventReason,
        dispatched.message,
      );
    }
    return 'written';
  }

  controller.for(KarmadaResources.Work, {
    predicates: {
      // Only spec or deletion changes need a new apply; status writes (ours) do not.
      update: (o, n) =>
        o.metadata.generation !== n.metadata.generation ||
        n.metadata.deletionTimestamp !== o.metadata.deletionTimestamp,
      // A Work's deletion is handled while its finalizer holds it (the update that set deletionTimestamp).
      delete: () => false,
    },
  });
  requeueWorksOfReadyMembers(controller, ctx.host, members);
  return controller;
}
