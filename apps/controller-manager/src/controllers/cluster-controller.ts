// The cluster controller: for each Cluster, the karmada.io/cluster-controller finalizer, the execution namespace
// karmada-es-<cluster>, a member client built from the Cluster's Secret, and the Ready condition from a health
// probe of the member (a non-resource GET of /readyz). A Cluster that cannot be used as written (an endpoint that
// does not parse, no Secret) gets Ready=False with what to fix and a Warning Event. A deleted Cluster is removed
// as Karmada does (cluster-removal.ts). Everything it reads comes from the host's caches; it writes only what
// changed.
import {
  BuiltinResources,
  type Cluster,
  ClusterConditionType,
  executionNamespace,
  Finalizers,
  KarmadaResources,
  Namespaces,
} from '@warmstart/api';
import { type KubeObject, resource } from '@warmstart/informer-cache';
import { Controller, type ReconcileResult } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import { eventSink } from '../events.js';
import type { MemberRegistry } from '../members.js';
import { bindingKey } from './binding-keys.js';
import { clusterAccess, clusterSecretRef, type SecretData } from './cluster-access.js';
import { bindingTargets, planClusterRemoval } from './cluster-removal.js';
import { type ConditionDraft, conditionChanged, findCondition, setCondition } from './conditions.js';
import { ReadyThreshold } from './ready-threshold.js';

interface SecretObject extends KubeObject, SecretData {}
/** Secrets, typed: a Cluster's credentials. */
const Secrets = resource<SecretObject>(BuiltinResources.Secret);

export const CLUSTER_CONTROLLER = 'cluster';
/** How long a Cluster's removal may take before the step it waits on is reported as stuck. */
export const CLUSTER_REMOVAL_TIMEOUT_MS = 120_000;
/** How often a removal in progress looks at its caches again (besides the namespace's own events). */
const REMOVAL_CHECK_MS = 2_000;

/** Event reasons of the cluster controller (Karmada's where it has one). */
export const ClusterEventReason = {
  InvalidCluster: 'ClusterNotUsable',
  RemoveExecutionSpaceSucceed: 'RemoveExecutionSpaceSucceed',
  MemberUnreachableDuringRemoval: 'MemberUnreachableDuringRemoval',
  ClusterRemovalStalled: 'ClusterRemovalStalled',
} as const;

type CachedCluster = Cluster & KubeObject;

export function clusterController(ctx: ManagerContext, members: MemberRegistry): Controller {
  const { host, options, log } = ctx;
  const writer = ctx.manager.writer(CLUSTER_CONTROLLER);
  const emit = eventSink(writer, 'cluster-controller', log);
  const threshold = new ReadyThreshold({
    successMs: options.clusterSuccessThresholdMs,
    failureMs: options.clusterFailureThresholdMs,
  });
  const controller: Controller = new Controller(ctx.manager, {
    name: CLUSTER_CONTROLLER,
    concurrency: options.concurrentClusterSyncs,
    reconcile: async (name, { signal }): Promise<ReconcileResult> => {
      const cluster = await reader.get(KarmadaResources.Cluster, name, { signal });
      if (!cluster) {
        threshold.forget(name);
        await members.remove(name);
        await ctx.metrics.forgetCluster(name);
        return {};
      }
      if (cluster.metadata.deletionTimestamp) return removeCluster(cluster, signal);
      const finalizers = cluster.metadata.finalizers ?? [];
      if (!finalizers.includes(Finalizers.Cluster)) {
        await writer.patch(
          KarmadaResources.Cluster,
          name,
          {
            type: 'merge',
            patch: {
              metadata: {
                resourceVersion: cluster.metadata.resourceVersion,
                finalizers: [...finalizers, Finalizers.Cluster],
              },
            },
          },
          { signal },
        );
      }
      const ns = executionNamespace(name);
      if (!(await reader.get(BuiltinResources.Namespace, ns, { signal }))) {
        await writer
          .create(
            BuiltinResources.Namespace,
            { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
            { signal },
          )
          .catch((error: { code?: number }) => {
            if (error.code !== 409) throw error;
          });
      }
      const health = await probeMember(cluster, signal);
      await writeReady(cluster, health, signal);
      // A Cluster that cannot be used as written changes only with its spec or Secret, and both enqueue it.
      return health.invalid ? {} : { requeueAfter: options.clusterStatusUpdateFrequencyMs };
    },
  });
  const { reader } = controller;

  const clusterSubject = (c: Readonly<CachedCluster>) => ({
    ...c,
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
  });

  /** Writes the Ready condition if it changed; a change to "not usable as written" is also a Warning Event. */
  async function writeReady(cluster: Readonly<CachedCluster>, health: Health, signal: AbortSignal) {
    const existing = findCondition(cluster.status?.conditions, ClusterConditionType.Ready);
    if (threshold.holds(cluster.metadata.name, existing?.status, health.condition.status)) {
      log.info(
        {
          cluster: cluster.metadata.name,
          kept: existing?.status,
          observed: health.condition.status,
          reason: health.condition.reason,
          message: health.condition.message,
        },
        'cluster health check disagrees with its Ready condition; kept until the threshold has passed',
      );
      return false;
    }
    if (!conditionChanged(existing, health.condition)) return false;
    const conditions = setCondition(
      cluster.status?.conditions,
      health.condition,
      new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    );
    // A merge patch of status, not an update with the cached resourceVersion: our own finalizer patch may have
    // moved it a moment ago, and conditions are ours alone.
    await writer.patchStatus(
      KarmadaResources.Cluster,
      cluster.metadata.name,
      { type: 'merge', patch: { status: { conditions } } },
      { signal },
    );
    const ready = health.condition;
    log.info(
      { cluster: cluster.metadata.name, ready: ready.status, reason: ready.reason },
      'cluster readiness changed',
    );
    if (health.invalid)
      emit(clusterSubject(cluster), 'Warning', ClusterEventReason.InvalidCluster, ready.message);
    return true;
  }

  async function removeCluster(
    cluster: Readonly<CachedCluster>,
    signal: AbortSignal,
  ): Promise<ReconcileResult> {
    const name = cluster.metadata.name;
    // Keep probing while removing: the execution controller deletes a Work's objects only from a Ready member,
    // and drops the Work's finalizer without touching the member once it is not Ready.
    const health = await probeMember(cluster, signal);
    const changed = await writeReady(cluster, health, signal);
    if (changed && health.condition.status !== 'True') {
      emit(
        clusterSubject(cluster),
        'Warning',
        ClusterEventReason.MemberUnreachableDuringRemoval,
        `cluster ${name} is being removed but is not Ready (${health.condition.message}); its Works are removed without deleting their objects from the member, which keeps them`,
      );
    }
    const ns = executionNamespace(name);
    const namespace = await reader.get(BuiltinResources.Namespace, ns, { signal });
    const works = namespace
      ? (await reader.list(KarmadaResources.Work, { namespace: ns, signal })).length
      : 0;
    const bindings: string[] = [];
    if (!namespace) {
      for (const gvr of [KarmadaResources.ResourceBinding, KarmadaResources.ClusterResourceBinding]) {
        for (const b of await reader.list(gvr, {
          signal,
        }))
          if (bindingTargets(b, name)) bindings.push(bindingKey(b));
      }
    }
    const step = planClusterRemoval({
      cluster,
      namespace: namespace ? { deleting: namespace.metadata.deletionTimestamp !== undefined } : undefined,
      works,
      bindings,
      now: Date.now(),
      timeoutMs: CLUSTER_REMOVAL_TIMEOUT_MS,
    });
    switch (step.kind) {
      case 'delete-namespace':
        await writer
          .delete(BuiltinResources.Namespace, step.namespace, { signal })
          .catch((e: { code?: number }) => {
            if (e.code !== 404) throw e;
          });
        emit(
          clusterSubject(cluster),
          'Normal',
          ClusterEventReason.RemoveExecutionSpaceSucceed,
          `Removed execution space(${step.namespace}) for cluster(${name}).`,
        );
        return { requeueAfter: REMOVAL_CHECK_MS };
      case 'wait':
        if (step.stuck)
          emit(clusterSubject(cluster), 'Warning', ClusterEventReason.ClusterRemovalStalled, step.stuck);
        return { requeueAfter: REMOVAL_CHECK_MS };
      case 'remove-finalizer':
        if (step.finalizers) {
          await writer.patch(
            KarmadaResources.Cluster,
            name,
            {
              type: 'merge',
              patch: {
                metadata: { resourceVersion: cluster.metadata.resourceVersion, finalizers: step.finalizers },
              },
            },
            { signal },
          );
        }
        log.info({ cluster: name }, 'cluster removed: execution namespace, Works and bindings are gone');
        await members.remove(name);
        return {};
    }
  }

  interface Health {
    readonly condition: ConditionDraft;
    /** True when the Cluster or its Secret must be fixed before anything can be reached. */
    readonly invalid: boolean;
  }

  async function probeMember(cluster: Readonly<CachedCluster>, signal: AbortSignal): Promise<Health> {
    const notReady = (reason: string, message: string, invalid = false): Health => ({
      condition: { type: ClusterConditionType.Ready, status: 'False', reason, message },
      invalid,
    });
    const ref = clusterSecretRef(cluster);
    const secret = ref.ok
      ? await reader.get(Secrets, { namespace: ref.namespace, name: ref.name }, { signal })
      : undefined;
    const access = clusterAccess(cluster, secret);
    if (!access.ok) {
      // Whatever was built from the previous, usable spec no longer speaks for this Cluster.
      await members.remove(cluster.metadata.name);
      return notReady(access.reason, access.message, true);
    }
    const member = await members.ensure(cluster.metadata.name, access.credentials);
    try {
      // /readyz answers plain text, so the status code is all we read.
      const res = await member.transport.stream({
        method: 'GET',
        verb: 'get',
        path: '/readyz',
        source: CLUSTER_CONTROLLER,
        resource: '/readyz',
        signal,
        timeoutMs: 5_000,
      });
      res.body.resume();
      return res.code === 200
        ? {
            condition: {
              type: ClusterConditionType.Ready,
              status: 'True',
              reason: 'ClusterReady',
              message: 'cluster is healthy and ready to accept workloads',
            },
            invalid: false,
          }
        : notReady('ClusterNotReady', `/readyz answered ${res.code}`);
    } catch (error) {
      return notReady('ClusterNotReachable', error instanceof Error ? error.message : String(error));
    }
  }

  controller
    .for(KarmadaResources.Cluster)
    // A Secret change re-checks every Cluster that points at it.
    .watches(BuiltinResources.Secret, (o) => clustersUsing(o), {
      namespace: Namespaces.KarmadaCluster,
      predicates: { delete: () => false },
    })
    // An execution namespace that goes moves its Cluster's removal on at once.
    .watches(
      BuiltinResources.Namespace,
      (o) =>
        o.metadata.name.startsWith('karmada-es-') ? o.metadata.name.slice('karmada-es-'.length) : undefined,
      { predicates: { create: () => false, update: () => false } },
    );
  function clustersUsing(secret: Readonly<KubeObject>): string[] {
    return host
      .lister(KarmadaResources.Cluster)
      .list()
      .filter((c) => {
        const ref = clusterSecretRef(c);
        return ref.ok && ref.name === secret.metadata.name && ref.namespace === secret.metadata.namespace;
      })
      .map((c) => c.metadata.name);
  }
  // Removal reads the Works of the execution namespace and the bindings that still target the cluster.
  for (const gvr of [
    KarmadaResources.Work,
    KarmadaResources.ResourceBinding,
    KarmadaResources.ClusterResourceBinding,
  ])
    host.forResource(gvr);
  return controller;
}
