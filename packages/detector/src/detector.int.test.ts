// The ResourceDetector against a real local control plane (kube-apiserver + the garbage collector). The detector
// uses the manager's own kubeconfig; set-up and assertions use the admin's. Needs WARMSTART_TEST_KUBECONFIG and
// WARMSTART_TEST_MANAGER_KUBECONFIG (the integration project's global setup provides them);
// WARMSTART_TEST_AUDIT_LOG and WARMSTART_TEST_MANAGER_USER enable the checks that read the audit log.
import { KubeConfig } from '@kubernetes/client-node';
import {
  Annotations,
  BuiltinResources,
  crds,
  Finalizers,
  type GroupVersionResource,
  KarmadaResources,
  Labels,
  type PropagationPolicy,
  type ResourceBinding,
  type UnstructuredObject,
} from '@warmstart/api';
import {
  ApiError,
  ApiTransport,
  CacheReader,
  discoverer,
  gvrToString,
  InformerManager,
  type KubeObjectInput,
  type Logger,
  objectPath,
  Writer,
} from '@warmstart/informer-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceDetector } from './detector.js';
import type { EventSink } from './events.js';
import { EventReasons } from './events.js';
import { auditedRequests } from './testing/audit-log.js';

const adminKubeconfig = process.env.WARMSTART_TEST_KUBECONFIG;
const managerKubeconfig = process.env.WARMSTART_TEST_MANAGER_KUBECONFIG;
const managerUser = process.env.WARMSTART_TEST_MANAGER_USER;
const auditLog = process.env.WARMSTART_TEST_AUDIT_LOG || undefined;
if (!adminKubeconfig || !managerKubeconfig) {
  console.warn(
    '[detector] integration tests skipped: set WARMSTART_TEST_KUBECONFIG and WARMSTART_TEST_MANAGER_KUBECONFIG ' +
      '(the integration project sets them when it boots the local cluster)',
  );
}

const { Deployment, ConfigMap, Namespace, Event } = BuiltinResources;
const { PropagationPolicy: PP, ClusterPropagationPolicy: CPP, ResourceBinding: RB } = KarmadaResources;
const CRDS: GroupVersionResource = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
};

/** Polls a condition (every 50 ms, with a deadline): the state lives in another process. */
async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const input = (o: object): KubeObjectInput => o as unknown as KubeObjectInput;

function deploymentManifest(name: string, namespace: string, labels: Record<string, string> = {}) {
  return input({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            { name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '100m' } } },
          ],
        },
      },
    },
  });
}

function policyManifest(name: string, namespace: string, spec: Record<string, unknown>) {
  return input({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace },
    spec,
  });
}

const deployments = { apiVersion: 'apps/v1', kind: 'Deployment' };

interface Running {
  readonly detector: ResourceDetector;
  readonly manager: InformerManager;
  stop(): Promise<void>;
}

describe.skipIf(!adminKubeconfig || !managerKubeconfig)(
  'ResourceDetector against a real control plane',
  () => {
    const adminKc = new KubeConfig();
    let adminTransport: ApiTransport;
    let admin: Writer;
    let current: Running | undefined;
    let namespaces = 0;
    const run = Date.now().toString(36);
    const logs: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: (message, fields) => logs.push(`warn ${message} ${JSON.stringify(fields)}`),
      error: (message, fields) => logs.push(`error ${message} ${JSON.stringify(fields)}`),
    };

    async function get<T>(
      gvr: GroupVersionResource,
      namespace: string | undefined,
      name: string,
    ): Promise<T | undefined> {
      try {
        const response = await adminTransport.request<T>({
          method: 'GET',
          verb: 'get',
          path: objectPath(gvr, namespace, name),
          source: 'detector-int-test',
          resource: gvrToString(gvr),
        });
        return response.body;
      } catch (error) {
        if (error instanceof ApiError && error.isNotFound) return undefined;
        throw error;
      }
    }

    async function events(
      namespace: string,
    ): Promise<{ type: string; reason: string; message: string; involvedObject: { name: string } }[]> {
      const list = await adminTransport.request<{ items: never[] }>({
        method: 'GET',
        verb: 'list',
        path: `/api/v1/namespaces/${namespace}/events`,
        source: 'detector-int-test',
        resource: 'core/v1/events',
      });
      return list.body.items;
    }

    async function namespace(purpose: string): Promise<string> {
      const name = `det-${run}-${++namespaces}-${purpose}`;
      await admin.create(Namespace, input({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
      return name;
    }

    /** The manager implements its EventSink with core/v1 Events through its writer; so does this test. */
    function eventsThrough(writer: Writer): EventSink {
      return (object, type, reason, message) => {
        const now = new Date().toISOString();
        writer
          .create(
            Event,
            input({
              apiVersion: 'v1',
              kind: 'Event',
              metadata: {
                generateName: `${object.metadata.name ?? 'object'}.`,
                namespace: object.metadata.namespace || 'default',
              },
              involvedObject: {
                apiVersion: object.apiVersion,
                kind: object.kind,
                name: object.metadata.name,
                namespace: object.metadata.namespace,
                uid: object.metadata.uid,
                resourceVersion: object.metadata.resourceVersion,
              },
              type,
              reason,
              message,
              source: { component: 'resource-detector' },
              firstTimestamp: now,
              lastTimestamp: now,
              count: 1,
            }),
          )
          .catch((error: unknown) => logs.push(`event not recorded: ${String(error)}`));
      };
    }

    async function startDetector(): Promise<Running> {
      const kc = new KubeConfig();
      kc.loadFromFile(managerKubeconfig as string);
      const manager = InformerManager.fromKubeConfig(kc, { logger });
      const reader = new CacheReader(manager, { timeoutMs: 60_000 });
      const writer = new Writer(manager.transport, { source: 'resource-detector' });
      const abort = new AbortController();
      const detector = new ResourceDetector({
        informers: manager,
        reader,
        writer,
        discover: discoverer(manager.transport, { source: 'resource-detector-discovery' }),
        events: eventsThrough(writer),
        featureGates: { policyPreemption: true },
        logger,
      });
      await detector.prepare(abort.signal);
      manager.start(abort.signal);
      await detector.start(abort.signal);
      return {
        detector,
        manager,
        stop: async () => {
          await detector.stop(AbortSignal.timeout(10_000));
          abort.abort();
          await manager.stop();
        },
      };
    }

    /** Every informer synced, every queue empty, nothing in flight or waiting for a retry. */
    async function idle(r: Running, timeoutMs = 60_000): Promise<void> {
      await r.manager.waitForSync({ timeoutMs });
      await eventually(
        () => r.detector.status().every((q) => q.queueDepth === 0 && q.inFlight === 0 && q.delayed === 0),
        `detector idle (${JSON.stringify(r.detector.status())}; last logs: ${logs.slice(-5).join(' | ')})`,
        timeoutMs,
      );
    }

    /** Waits until the detector's own cache holds `generation` of an object, so its event has been enqueued. */
    async function seenByDetector(gvr: GroupVersionResource, key: string, generation: number): Promise<void> {
      await eventually(
        () => (current?.manager.lister(gvr).get(key)?.metadata.generation ?? 0) >= generation,
        `detector cache has generation ${generation} of ${key}`,
      );
    }

    const binding = (ns: string, name: string) => get<ResourceBinding>(RB, ns, name);
    const template = (ns: string, name: string) => get<UnstructuredObject>(Deployment, ns, name);
    const policyOf = (ns: string, name: string) => get<PropagationPolicy>(PP, ns, name);
    const idOf = (o: { metadata: { labels?: Record<string, string> } } | undefined) =>
      o?.metadata.labels?.[Labels.PropagationPolicyPermanentId];

    beforeAll(async () => {
      adminKc.loadFromFile(adminKubeconfig as string);
      adminTransport = ApiTransport.fromKubeConfig(adminKc);
      admin = new Writer(adminTransport, { source: 'detector-int-test' });
      for (const crd of crds) {
        await admin.create(CRDS, input(crd)).catch((error: unknown) => {
          if (!(error instanceof ApiError && error.isAlreadyExists)) throw error;
        });
      }
      for (const crd of crds) {
        await eventually(async () => {
          const got = await get<{ status?: { conditions?: { type: string; status: string }[] } }>(
            CRDS,
            undefined,
            crd.metadata.name,
          );
          return got?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
        }, `CRD ${crd.metadata.name} Established`);
      }
      current = await startDetector();
      await idle(current);
    });

    afterAll(async () => {
      await current?.stop();
      adminTransport?.close();
    });

    it('binds a template and a policy created in either order: name, claim, owner, finalizer and spec', async () => {
      const ns = await namespace('order');
      await admin.create(Deployment, deploymentManifest('first', ns, { app: 'web' }));
      await seenByDetector(Deployment, `${ns}/first`, 1);
      await idle(current!);
      expect(await binding(ns, 'first-deployment')).toBeUndefined();
      await admin.create(
        PP,
        policyManifest('web', ns, {
          resourceSelectors: [{ ...deployments, labelSelector: { matchLabels: { app: 'web' } } }],
          placement: { clusterAffinity: { clusterNames: ['member1'] } },
        }),
      );
      await eventually(async () => idOf(await policyOf(ns, 'web')), 'the policy has its permanent id');
      await admin.create(Deployment, deploymentManifest('second', ns, { app: 'web' }));
      const firstBinding = await eventually(
        () => binding(ns, 'first-deployment'),
        'binding of the earlier template',
      );
      await eventually(() => binding(ns, 'second-deployment'), 'binding of the later template');

      const policy = (await policyOf(ns, 'web'))!;
      const id = idOf(policy);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(policy.metadata.finalizers).toContain(Finalizers.PropagationPolicy);

      const first = (await template(ns, 'first'))!;
      expect(first.metadata.labels).toEqual({ app: 'web', [Labels.PropagationPolicyPermanentId]: id });
      expect(first.metadata.annotations).toMatchObject({
        [Annotations.PropagationPolicyNamespace]: ns,
        [Annotations.PropagationPolicyName]: 'web',
      });
      // The binding's own permanent id, set at creation as Karmada's webhook does.
      expect(firstBinding.metadata.labels).toEqual({
        [Labels.PropagationPolicyPermanentId]: id,
        [Labels.ResourceBindingPermanentId]: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(firstBinding.metadata.annotations).toEqual({
        [Annotations.PropagationPolicyNamespace]: ns,
        [Annotations.PropagationPolicyName]: 'web',
      });
      expect(firstBinding.metadata.finalizers).toEqual([Finalizers.ResourceBinding]);
      expect(firstBinding.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'first',
          uid: first.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
      expect(firstBinding.spec).toMatchObject({
        resource: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: ns,
          name: 'first',
          uid: first.metadata.uid,
          resourceVersion: first.metadata.resourceVersion,
        },
        replicas: 2,
        replicaRequirements: { resourceRequest: { cpu: '100m' } },
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
        conflictResolution: 'Abort',
        schedulerName: 'default-scheduler',
      });
    });

    it('updates the binding when the policy changes', async () => {
      const ns = await namespace('update');
      await admin.create(Deployment, deploymentManifest('web', ns));
      await admin.create(
        PP,
        policyManifest('web', ns, { resourceSelectors: [{ ...deployments, name: 'web' }] }),
      );
      await eventually(() => binding(ns, 'web-deployment'), 'binding');
      await admin.patch(PP, `${ns}/web`, {
        type: 'merge',
        patch: {
          spec: {
            placement: { clusterAffinity: { clusterNames: ['member2'] } },
            conflictResolution: 'Overwrite',
          },
        },
      });
      const updated = await eventually(async () => {
        const b = await binding(ns, 'web-deployment');
        return b?.spec.conflictResolution === 'Overwrite' ? b : undefined;
      }, 'binding follows the policy');
      expect(updated.spec.placement).toEqual({ clusterAffinity: { clusterNames: ['member2'] } });
    });

    it('on policy deletion removes the claim from the binding, then from the template, then the finalizer', async () => {
      const ns = await namespace('delete');
      await admin.create(Deployment, deploymentManifest('web', ns));
      await admin.create(PP, policyManifest('web', ns, { resourceSelectors: [deployments] }));
      await eventually(async () => idOf(await binding(ns, 'web-deployment')), 'claimed binding');
      await idle(current!);
      const since = Date.now() - 1;
      await admin.delete(PP, `${ns}/web`);
      await eventually(async () => (await policyOf(ns, 'web')) === undefined, 'policy gone');
      const until = Date.now() + 1;

      const kept = (await binding(ns, 'web-deployment'))!;
      expect(idOf(kept)).toBeUndefined();
      expect(kept.metadata.annotations?.[Annotations.PropagationPolicyName]).toBeUndefined();
      const released = (await template(ns, 'web'))!;
      expect(idOf(released)).toBeUndefined();
      expect(released.metadata.annotations?.[Annotations.PropagationPolicyName]).toBeUndefined();

      if (auditLog && managerUser) {
        await eventually(
          async () => {
            const writes = (await auditedRequests(auditLog, managerUser, since, until))
              .filter((r) => r.class === 'write' && r.requestURI.includes(`/namespaces/${ns}/`))
              .sort((a, b) => a.received - b.received)
              .map((r) => `${r.verb} ${r.resource}`);
            expect(writes).toEqual([
              'patch work.karmada.io/resourcebindings',
              'patch apps/deployments',
              'patch policy.karmada.io/propagationpolicies',
            ]);
            return true;
          },
          'audit log shows the release order',
          5_000,
        );
      }
    });

    it('lets the garbage collector delete the binding of a deleted template', async () => {
      const ns = await namespace('gc');
      await admin.create(Deployment, deploymentManifest('web', ns));
      await admin.create(PP, policyManifest('web', ns, { resourceSelectors: [deployments] }));
      await eventually(() => binding(ns, 'web-deployment'), 'binding');
      await admin.delete(Deployment, `${ns}/web`, { propagationPolicy: 'Background' });
      // The binding controller's finalizer holds it (no binding controller runs here): deletion has started.
      const deleting = await eventually(async () => {
        const b = await binding(ns, 'web-deployment');
        return b?.metadata.deletionTimestamp ? b : undefined;
      }, 'binding deleted by the garbage collector');
      expect(deleting.metadata.finalizers).toEqual([Finalizers.ResourceBinding]);
      await admin.patch(RB, `${ns}/web-deployment`, {
        type: 'merge',
        patch: { metadata: { finalizers: null } },
      });
      await eventually(async () => (await binding(ns, 'web-deployment')) === undefined, 'binding gone');
    });

    it('lets a higher-priority policy with preemption take a template', async () => {
      const ns = await namespace('preempt');
      await admin.create(Deployment, deploymentManifest('web', ns));
      await admin.create(PP, policyManifest('low', ns, { resourceSelectors: [deployments] }));
      const lowId = await eventually(async () => idOf(await binding(ns, 'web-deployment')), 'bound to low');
      await admin.create(
        PP,
        policyManifest('high', ns, {
          resourceSelectors: [{ ...deployments, name: 'web' }],
          priority: 10,
          preemption: 'Always',
          placement: { clusterAffinity: { clusterNames: ['member2'] } },
        }),
      );
      const highId = await eventually(async () => idOf(await policyOf(ns, 'high')), 'high has an id');
      expect(highId).not.toBe(lowId);
      const taken = await eventually(async () => {
        const b = await binding(ns, 'web-deployment');
        return idOf(b) === highId ? b : undefined;
      }, 'binding claimed by high');
      expect(taken.spec.placement).toEqual({ clusterAffinity: { clusterNames: ['member2'] } });
      expect((await template(ns, 'web'))!.metadata.annotations?.[Annotations.PropagationPolicyName]).toBe(
        'high',
      );
      await eventually(
        async () => (await events(ns)).some((e) => e.reason === EventReasons.PreemptPolicySucceed),
        'PreemptPolicySucceed event',
      );
    });

    it('with a Lazy policy, a policy change reaches the binding only when the template changes', async () => {
      const ns = await namespace('lazy');
      await admin.create(
        PP,
        policyManifest('lazy', ns, { resourceSelectors: [deployments], activationPreference: 'Lazy' }),
      );
      await eventually(async () => idOf(await policyOf(ns, 'lazy')), 'lazy has an id');
      await admin.create(Deployment, deploymentManifest('web', ns));
      // A new template is bound at once: its add event is not a policy-driven change.
      await eventually(() => binding(ns, 'web-deployment'), 'first bind');
      const patched = await admin.patch(PP, `${ns}/lazy`, {
        type: 'merge',
        patch: { spec: { conflictResolution: 'Overwrite' } },
      });
      await seenByDetector(PP, `${ns}/lazy`, patched.metadata.generation ?? 0);
      await idle(current!);
      expect((await binding(ns, 'web-deployment'))!.spec.conflictResolution).toBe('Abort');

      await admin.patch(Deployment, `${ns}/web`, {
        type: 'merge',
        patch: { metadata: { labels: { touched: 'yes' } } },
      });
      await eventually(async () => {
        const b = await binding(ns, 'web-deployment');
        return b?.spec.conflictResolution === 'Overwrite';
      }, 'binding synced after the template changed');
    });

    it('reports an invalid policy with a Warning Event and keeps serving the other policies', async () => {
      const ns = await namespace('invalid');
      await admin.create(
        PP,
        policyManifest('broken', ns, {
          resourceSelectors: [{ ...deployments, labelSelector: { matchLabels: { 'not a key!': 'x' } } }],
          priority: 100,
        }),
      );
      await admin.create(PP, policyManifest('good', ns, { resourceSelectors: [deployments] }));
      await admin.create(Deployment, deploymentManifest('web', ns));
      const bound = await eventually(() => binding(ns, 'web-deployment'), 'binding by the valid policy');
      expect(bound.metadata.annotations?.[Annotations.PropagationPolicyName]).toBe('good');
      const warning = await eventually(
        async () => (await events(ns)).find((e) => e.reason === EventReasons.InvalidResourceSelector),
        'InvalidResourceSelector event',
      );
      expect(warning.type).toBe('Warning');
      expect(warning.involvedObject.name).toBe('broken');
      expect(warning.message).toContain('not a key!');
      // Leave nothing that would be reported again after the restart below.
      await admin.delete(PP, `${ns}/broken`);
      await eventually(async () => (await policyOf(ns, 'broken')) === undefined, 'broken policy gone');
    });

    it('binds a namespaced template claimed by a ClusterPropagationPolicy into a ResourceBinding', async () => {
      const ns = await namespace('cpp');
      await admin.create(
        CPP,
        input({
          apiVersion: 'policy.karmada.io/v1alpha1',
          kind: 'ClusterPropagationPolicy',
          metadata: { name: `cms-${ns}` },
          spec: {
            resourceSelectors: [
              { apiVersion: 'v1', kind: 'ConfigMap', labelSelector: { matchLabels: { suite: ns } } },
            ],
          },
        }),
      );
      await admin.create(
        ConfigMap,
        input({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'settings', namespace: ns, labels: { suite: ns } },
        }),
      );
      const bound = await eventually(() => binding(ns, 'settings-configmap'), 'binding of the ConfigMap');
      expect(bound.metadata.labels?.[Labels.ClusterPropagationPolicyPermanentId]).toMatch(/^[0-9a-f-]{36}$/);
      expect(bound.metadata.annotations?.[Annotations.ClusterPropagationPolicyName]).toBe(`cms-${ns}`);
      expect(bound.spec.resource).toMatchObject({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: ns,
        name: 'settings',
      });
    });

    it('after a restart with nothing changed, makes no write and no direct read (audit log)', async () => {
      await idle(current!);
      await current!.stop();
      current = undefined;
      const since = Date.now();
      const restarted = await startDetector();
      current = restarted;
      await idle(restarted);
      const until = Date.now();
      const waiting = restarted.detector.waitingTemplates;
      expect(restarted.detector.watchedResources()).toContain('apps/v1/deployments');
      if (!auditLog || !managerUser) return;

      const requests = await auditedRequests(auditLog, managerUser, since, until);
      const byClass = (c: string) => requests.filter((r) => r.class === c);
      console.info(
        `[detector] restart: ${until - since} ms to idle, ${restarted.detector.watchedResources().length} resources, ` +
          `${waiting} waiting templates; audit: ${byClass('watch').length} watch, ${byClass('informer-list').length} ` +
          `informer list, ${byClass('other').length} discovery, ${byClass('write').length} write, ` +
          `${byClass('direct-read').length} direct read`,
      );
      expect(byClass('watch').length + byClass('informer-list').length).toBeGreaterThan(0);
      expect(byClass('write').map((r) => `${r.verb} ${r.requestURI}`)).toEqual([]);
      expect(byClass('direct-read').map((r) => `${r.verb} ${r.requestURI}`)).toEqual([]);
    });
  },
);
