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
import type { Result } from '@warmstart/workqueue';
import type { ManagerContext } from '../context.js';
import { QueueController } from '../controller.js';
import type { MemberRegistry } from '../members.js';
import { type ConditionDraft, conditionChanged, findCondition, setCondition } from './conditions.js';

interface SecretObject extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}

export const CLUSTER_CONTROLLER = 'cluster';

export function clusterController(ctx: ManagerContext, members: MemberRegistry): QueueController {
  const { host, options, log } = ctx;
  const writer = ctx.writer(CLUSTER_CONTROLLER);
  const controller: QueueController = new QueueController({
    name: CLUSTER_CONTROLLER,
    concurrency: options.concurrentClusterSyncs,
    log,
    metrics: ctx.metrics,
    reconcile: async (name, signal): Promise<Result> => {
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
  const reader = ctx.reader(controller);

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

  const enqueueCluster = {
    onAdd: (o: KubeObject, initial: boolean) => controller.enqueue(o.metadata.name, initial),
    onUpdate: (_: KubeObject, o: KubeObject) => controller.enqueue(o.metadata.name),
    onDelete: (o: unknown) => controller.enqueue(deletedName(o)),
  };
  host.forResource(KarmadaResources.Cluster, { name: 'cluster-controller', ...enqueueCluster });
  // A Secret change re-checks every Cluster that points at it.
  const secretChanged = (o: KubeObject): void => {
    const clusters = host.informer(KarmadaResources.Cluster)?.lister.list() ?? [];
    for (const c of clusters as unknown as readonly Readonly<Cluster & KubeObject>[]) {
      if (
        c.spec?.secretRef?.name === o.metadata.name &&
        (c.spec.secretRef.namespace ?? Namespaces.KarmadaCluster) === o.metadata.namespace
      ) {
        controller.enqueue(c.metadata.name);
      }
    }
  };
  host.forResource(
    BuiltinResources.Secret,
    { name: 'cluster-controller', onAdd: secretChanged, onUpdate: (_o, n) => secretChanged(n) },
    { namespace: Namespaces.KarmadaCluster },
  );
  host.forResource(BuiltinResources.Namespace);
  return controller;
}

function deletedName(o: unknown): string {
  const obj = (o as { obj?: KubeObject }).obj ?? (o as KubeObject);
  return obj.metadata.name;
}
