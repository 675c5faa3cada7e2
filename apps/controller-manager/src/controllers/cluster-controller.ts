// The cluster controller: for each Cluster, the execution namespace karmada-es-<cluster>, a member client
// built from the Cluster's Secret, and the Ready condition from a health probe of the member (a non-resource
// GET of /readyz). Everything it reads comes from the host's caches; it writes only what changed.
import {
  BuiltinResources,
  type Cluster,
  ClusterConditionType,
  executionNamespace,
  KarmadaResources,
  Namespaces,
} from '@warmstart/api';
import type { KubeObject } from '@warmstart/informer-cache';
import { Controller, type ReconcileResult } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import type { MemberRegistry } from '../members.js';
import { type ConditionDraft, conditionChanged, findCondition, setCondition } from './conditions.js';

interface SecretObject extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}

export const CLUSTER_CONTROLLER = 'cluster';

export function clusterController(ctx: ManagerContext, members: MemberRegistry): Controller {
  const { host, options, log } = ctx;
  const writer = ctx.manager.writer(CLUSTER_CONTROLLER);
  const controller: Controller = new Controller(ctx.manager, {
    name: CLUSTER_CONTROLLER,
    concurrency: options.concurrentClusterSyncs,
    reconcile: async (name, { signal }): Promise<ReconcileResult> => {
      const cluster = await reader.get<Cluster & KubeObject>(KarmadaResources.Cluster, name, { signal });
      if (!cluster || cluster.metadata.deletionTimestamp) {
        await members.remove(name);
        return {};
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
      const ready = await probeMember(cluster, signal);
      const existing = findCondition(cluster.status?.conditions, ClusterConditionType.Ready);
      if (conditionChanged(existing, ready)) {
        const conditions = setCondition(
          cluster.status?.conditions,
          ready,
          new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        );
        await writer.updateStatus(
          KarmadaResources.Cluster,
          { ...cluster, status: { ...cluster.status, conditions } },
          { signal },
        );
        log.info({ cluster: name, ready: ready.status, reason: ready.reason }, 'cluster readiness changed');
      }
      return { requeueAfter: options.clusterStatusUpdateFrequencyMs };
    },
  });
  const { reader } = controller;

  async function probeMember(
    cluster: Readonly<Cluster & KubeObject>,
    signal: AbortSignal,
  ): Promise<ConditionDraft> {
    const notReady = (reason: string, message: string): ConditionDraft => ({
      type: ClusterConditionType.Ready,
      status: 'False',
      reason,
      message,
    });
    const spec = cluster.spec;
    if (!spec?.apiEndpoint) return notReady('ClusterNotReachable', 'spec.apiEndpoint is empty');
    const ref = spec.secretRef;
    if (!ref?.name)
      return notReady(
        'ClusterNotReachable',
        'spec.secretRef is not set: the manager has no credentials for this cluster',
      );
    const secret = await reader.get<SecretObject>(
      BuiltinResources.Secret,
      { namespace: ref.namespace ?? Namespaces.KarmadaCluster, name: ref.name },
      { signal },
    );
    const token = secret?.data?.token;
    if (!token) {
      return notReady(
        'ClusterNotReachable',
        `secret ${ref.namespace}/${ref.name} is missing or has no "token" key`,
      );
    }
    const caBundle = secret.data?.caBundle;
    const member = await members.ensure(cluster.metadata.name, {
      server: spec.apiEndpoint,
      token: Buffer.from(token, 'base64').toString(),
      caBundle: caBundle ? Buffer.from(caBundle, 'base64').toString() : undefined,
      insecureSkipTLSVerification: spec.insecureSkipTLSVerification === true,
    });
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
            type: ClusterConditionType.Ready,
            status: 'True',
            reason: 'ClusterReady',
            message: 'cluster is healthy and ready to accept workloads',
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
    });
  function clustersUsing(secret: Readonly<KubeObject>): string[] {
    const clusters = host.lister<Cluster & KubeObject>(KarmadaResources.Cluster).list();
    return clusters
      .filter(
        (c) =>
          c.spec?.secretRef?.name === secret.metadata.name &&
          (c.spec.secretRef.namespace ?? Namespaces.KarmadaCluster) === secret.metadata.namespace,
      )
      .map((c) => c.metadata.name);
  }
  host.forResource(BuiltinResources.Namespace);
  return controller;
}
