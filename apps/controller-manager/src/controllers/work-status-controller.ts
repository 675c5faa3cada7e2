// The work status controller (Karmada's `workStatus`): records in each applied Work's status.manifestStatuses
// what its member object's status is, read from the member's informer (never fetched), with Karmada's default
// interpreter (manifest-status.ts). Member-side changes to an applied object requeue its Work; the Work's status
// is patched only when the recorded value differs, so a restart over unchanged members writes nothing.
import {
  clusterNameFromExecutionNamespace,
  KarmadaResources,
  type UnstructuredObject,
  type Work,
  WorkConditionType,
} from '@warmstart/api';
import type {
  GroupVersionResource,
  KubeObject,
  Lister,
  ResourceEventHandler,
} from '@warmstart/informer-cache';
import { Controller, type ReconcileResult } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import { eventSink } from '../events.js';
import type { MemberRegistry } from '../members.js';
import { requeueWorksOfReadyMembers } from './cluster-works.js';
import { findCondition } from './conditions.js';
import { type ParsedManifest, parseManifests } from './execution.js';
import { planManifestStatuses } from './manifest-status.js';
import { workKeyOfMemberObject } from './member-drift.js';
import { sameStatus } from './merge-patch.js';
import { isClusterReady } from './scheduler.js';

export const WORK_STATUS_CONTROLLER = 'work-status';
/** Karmada's Warning reason for a member status that cannot be reflected (pkg/events). */
export const REFLECT_STATUS_FAILED = 'ReflectStatusFailed';

function isApplied(work: Readonly<Work>): boolean {
  return findCondition(work.status?.conditions, WorkConditionType.Applied)?.status === 'True';
}

export function workStatusController(ctx: ManagerContext, members: MemberRegistry): Controller {
  const writer = ctx.manager.writer(WORK_STATUS_CONTROLLER);
  const emit = eventSink(writer, 'work-status-controller', ctx.log);

  // Member events of applied objects: any change (status above all) sends the owning Work back. Items of a
  // member's initial list go in at low priority, behind changes made meanwhile.
  const memberHandler: ResourceEventHandler<KubeObject> = {
    name: WORK_STATUS_CONTROLLER,
    onAdd: (o, initial) => {
      const work = workKeyOfMemberObject(o as Readonly<UnstructuredObject>);
      if (work) controller.enqueue(work, initial);
    },
    onUpdate: (old, next) => {
      if (old.metadata.resourceVersion === next.metadata.resourceVersion) return;
      const work = workKeyOfMemberObject(next as Readonly<UnstructuredObject>);
      if (work) controller.enqueue(work);
    },
  };

  const controller: Controller = new Controller(ctx.manager, {
    name: WORK_STATUS_CONTROLLER,
    concurrency: ctx.options.concurrentWorkSyncs,
    reconcile: async (key, { signal }): Promise<ReconcileResult> => {
      const [namespace, name] = key.split('/') as [string, string];
      const work = await reader.get(KarmadaResources.Work, { namespace, name }, { signal });
      // As Karmada: nothing for a Work being deleted, or one whose manifests are not applied yet (its Applied
      // condition turning True brings it back).
      if (!work || work.metadata.deletionTimestamp || !isApplied(work)) return {};
      const clusterName = clusterNameFromExecutionNamespace(namespace);
      if (!clusterName) return {};
      const cluster = await reader.get(KarmadaResources.Cluster, clusterName, {
        signal,
      });
      const member = members.get(clusterName);
      // A cluster that is not Ready or not connected: its (re)connection requeues every Work of it.
      if (!cluster || !isClusterReady(cluster) || !member) return {};

      const listers = new Map<number, Lister>();
      for (const parsed of parseManifests(work)) {
        if (!parsed.ok) continue;
        const m = parsed.manifest;
        const gvr: GroupVersionResource = await member.mapper.resourceFor(m.group, m.version, m.kind, signal);
        const lister = await member.reader.lister(gvr, { signal });
        member.informers.forResource(gvr, memberHandler);
        listers.set(m.ordinal, lister);
      }
      const lookup = (m: ParsedManifest): Readonly<UnstructuredObject> | undefined =>
        listers.get(m.ordinal)?.get({ namespace: m.namespace, name: m.name }) as
          | Readonly<UnstructuredObject>
          | undefined;

      const plan = planManifestStatuses(work, lookup);
      for (const error of plan.errors) {
        emit(
          { ...work, apiVersion: 'work.karmada.io/v1alpha1', kind: 'Work' },
          'Warning',
          REFLECT_STATUS_FAILED,
          error.message,
        );
      }
      // A null in a reflected status (Go's encoding of an unset time or list) may come back from the API server
      // as no field at all: the same value, so not a reason to write.
      if (plan.statuses !== undefined && !sameStatus(work.status?.manifestStatuses ?? [], plan.statuses)) {
        await writer.patchStatus(
          KarmadaResources.Work,
          { namespace, name },
          { type: 'merge', patch: { status: { manifestStatuses: plan.statuses } } },
          { signal },
        );
      }
      if (plan.errors.length > 0) throw plan.errors[0];
      return {};
    },
  });
  const { reader } = controller;
  controller.for(KarmadaResources.Work, {
    predicates: {
      create: (w) => isApplied(w),
      // Our own manifestStatuses writes come back as updates: only a new spec or a change of Applied matters.
      update: (o, n) => o.metadata.generation !== n.metadata.generation || isApplied(o) !== isApplied(n),
      delete: () => false,
    },
  });
  // A Cluster whose status changed (it turned Ready): look at its Works again, at low priority.
  requeueWorksOfReadyMembers(controller, ctx.host, members);
  return controller;
}
