// Issue 9, input at Kubernetes' size and name limits, against the built manager on the shared set. What
// happens, found by running it (each case also keeps /livez at 200 and a later Deployment + policy propagating):
// - A ConfigMap cannot hold 1.4 MB: the API server refuses more than 1 MiB of data (422). One with 1 MiB, the
//   most it takes, propagates: its Work (~2 KB larger) stays under etcd's 1.5 MiB request limit.
// - A custom resource just under etcd's limit is stored, claimed and bound, but the Work wrapping it is over
//   the limit ("etcdserver: request is too large", 500): a Warning Event SyncWorkFailed on the binding and on
//   the template says so, and no Work exists. (Karmada's binding controller reports it the same way.)
// - A 253-character ConfigMap name: the binding `<name>-configmap` would be 263 characters, so the API server
//   refuses it (422) and the template gets a Warning ApplyPolicyFailed saying "must be no more than 253
//   characters". The claim labels are on the template: as in Karmada, the claim is written before the binding.
// - A 243-character name: the binding (253) fits, the Work `<name>-<hash>` (254) does not: SyncWorkFailed on
//   the binding and the template, no Work. A 242-character name, the longest that fits both, propagates.
import { createHash } from 'node:crypto';
import { bindingName, workName } from '@warmstart/api';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../cluster/wait.js';
import type { ManagerProcess } from '../manager/manager-process.js';
import {
  assertStillServing,
  type BadInputSet,
  bindings,
  configMaps,
  type KubeEvent,
  type KubeObject,
  KubeRequestError,
  LivezWatch,
  PERMANENT_ID,
  policies,
  prepareSet,
  propagationPolicy,
  removeNamespaces,
  startReadyManager,
  uniqueNamespace,
  waitForEvent,
} from './fixture.js';

const IDENTITY = 'badinput-limits';
const BLOB_CRD = 'blobs.badinput.warmstart.io';
const BLOBS = (ns: string) => `/apis/badinput.warmstart.io/v1/namespaces/${ns}/blobs`;
const MAX_NAME = 253;

interface ConfigMap extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('input at the size and name limits', () => {
  let set: BadInputSet;
  let manager: ManagerProcess;
  let livez: LivezWatch;
  const created: string[] = [];

  beforeAll(async () => {
    set = await prepareSet(inject('clusters'));
    // A kind with no size rule of its own, so a template can reach etcd's limit; installed before the manager
    // starts so its discovery pass finds it.
    await set.host.ensure('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: BLOB_CRD },
      spec: {
        group: 'badinput.warmstart.io',
        scope: 'Namespaced',
        names: { plural: 'blobs', singular: 'blob', kind: 'Blob', listKind: 'BlobList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
              },
            },
          },
        ],
      },
    });
    await waitFor(
      `CRD ${BLOB_CRD} Established`,
      async () =>
        (
          await set.host.get<KubeObject & { status?: { conditions?: { type: string; status: string }[] } }>(
            `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${BLOB_CRD}`,
          )
        )?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'),
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    manager = await startReadyManager(set, IDENTITY);
    livez = new LivezWatch(manager);
  }, 180_000);

  afterAll(async () => {
    livez?.stop();
    if (set && created.length > 0) await removeNamespaces(set, created, 120_000);
    await manager?.stop('SIGTERM');
    await set?.host.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${BLOB_CRD}`);
  }, 180_000);

  const byLabel = (ns: string, name: string, apiVersion: string, kind: string, value: string) =>
    set.host.create(
      policies(ns),
      propagationPolicy(
        ns,
        name,
        [{ apiVersion, kind, labelSelector: { matchLabels: { case: value } } }],
        set.memberNames,
      ),
    );
  const worksOf = async (name: string): Promise<string[]> => {
    const out: string[] = [];
    for (const cluster of set.memberNames)
      for (const w of await set.host.list<KubeObject>(
        `/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-${cluster}/works`,
      ))
        if (w.metadata.name.startsWith(`${name}-`)) out.push(w.metadata.name);
    return out;
  };

  it('a ConfigMap with 1 MiB of data (the most the API server takes) propagates; 1.4 MB is refused', async () => {
    const ns = await uniqueNamespace(set, 'big-cm', created);
    const refused = await set.host
      .create(configMaps(ns), {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'too-big' },
        data: { blob: 'y'.repeat(1_400_000) },
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KubeRequestError);
    expect(String(refused)).toMatch(/422[\s\S]*1048576 bytes/);

    const blob = 'y'.repeat(1024 * 1024 - 4);
    await set.host.create(configMaps(ns), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'big', labels: { case: 'big' } },
      data: { blob },
    });
    await byLabel(ns, 'big', 'v1', 'ConfigMap', 'big');
    for (const m of set.members) {
      const copy = await waitFor(
        `the 1 MiB ConfigMap in ${m.cluster.name}`,
        () => m.get<ConfigMap>(`${configMaps(ns)}/big`),
        { timeoutMs: 90_000, intervalMs: 500 },
      );
      expect(copy.data?.blob?.length).toBe(blob.length);
      expect(sha(copy.data?.blob ?? '')).toBe(sha(blob));
    }
    await assertStillServing(set, manager, livez, created);
  });

  it('a template just under etcd’s limit: bound, but its Work is too large: SyncWorkFailed, no Work', async () => {
    const ns = await uniqueNamespace(set, 'huge', created);
    // etcd's request limit (1.5 MiB by default), found for this server: the largest spec it stores.
    let lo = 1_000_000;
    let hi = 1_700_000;
    for (let probe = 0; hi - lo > 256; probe++) {
      const mid = Math.floor((lo + hi) / 2);
      const res = await set.host
        .create(BLOBS(ns), {
          apiVersion: 'badinput.warmstart.io/v1',
          kind: 'Blob',
          metadata: { name: `probe-${probe}` },
          spec: { data: 'z'.repeat(mid) },
        })
        .then(
          () => true,
          (error: unknown) => {
            if (String(error).includes('request is too large')) return false;
            throw error;
          },
        );
      if (res) {
        lo = mid;
        await set.host.delete(`${BLOBS(ns)}/probe-${probe}`);
      } else hi = mid;
    }
    // Room for the claim (two annotations, a label and a managedFields entry, ~0.5 KB) but not for the ~2 KB
    // a Work adds around the manifest.
    const payload = lo - 1_000;
    await set.host.create(BLOBS(ns), {
      apiVersion: 'badinput.warmstart.io/v1',
      kind: 'Blob',
      metadata: { name: 'huge', labels: { case: 'huge' } },
      spec: { data: 'z'.repeat(payload) },
    });
    await byLabel(ns, 'huge', 'badinput.warmstart.io/v1', 'Blob', 'huge');

    const onBinding = await waitForEvent(set.host, ns, {
      kind: 'ResourceBinding',
      name: 'huge-blob',
      reason: 'SyncWorkFailed',
    });
    expect(onBinding.type).toBe('Warning');
    expect(onBinding.message).toMatch(/request is too large/);
    // The binding controller retries with backoff and fails the same way each time: each repeat is counted on
    // the one Event (count, lastTimestamp), none is written as an Event of its own.
    const sameFailure = async () =>
      (await set.host.list<KubeEvent>(`/api/v1/namespaces/${ns}/events`)).filter(
        (e) =>
          e.reason === 'SyncWorkFailed' &&
          e.involvedObject.kind === 'ResourceBinding' &&
          e.involvedObject.name === 'huge-blob',
      );
    await waitFor(
      'the SyncWorkFailed failure about huge-blob to repeat',
      async () => (await sameFailure()).reduce((n, e) => n + (e.count ?? 1), 0) >= 2,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const repeated = await sameFailure();
    expect(repeated).toHaveLength(1);
    expect(repeated[0]!.count).toBeGreaterThanOrEqual(2);
    const onTemplate = await waitForEvent(set.host, ns, {
      kind: 'Blob',
      name: 'huge',
      reason: 'SyncWorkFailed',
    });
    expect(onTemplate.message).toMatch(/request is too large/);
    expect(await set.host.get(`${bindings(ns)}/huge-blob`)).toBeDefined();
    expect(await worksOf('huge')).toEqual([]);
    await assertStillServing(set, manager, livez, created);
  });

  it('a 253-character name: the binding name is over the limit, so ApplyPolicyFailed on the template', async () => {
    const ns = await uniqueNamespace(set, 'name253', created);
    const name = `n${'x'.repeat(MAX_NAME - 2)}n`;
    expect(bindingName('configmap', name).length).toBe(MAX_NAME + 10);
    await set.host.create(configMaps(ns), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, labels: { case: 'n253' } },
      data: { a: 'b' },
    });
    await byLabel(ns, 'long', 'v1', 'ConfigMap', 'n253');
    const warning = await waitForEvent(set.host, ns, {
      kind: 'ConfigMap',
      name,
      reason: 'ApplyPolicyFailed',
    });
    expect(warning.type).toBe('Warning');
    expect(warning.message).toMatch(/must be no more than 253 characters/);
    // Claimed (the claim comes first, as in Karmada), never bound.
    const template = await set.host.get<KubeObject>(`${configMaps(ns)}/${name}`);
    expect(template?.metadata.labels?.[PERMANENT_ID]).toBeDefined();
    expect(await set.host.count(bindings(ns))).toBe(0);
    await assertStillServing(set, manager, livez, created);
  });

  it('a 243-character name: the binding fits, the Work name does not: SyncWorkFailed; 242 propagates', async () => {
    const ns = await uniqueNamespace(set, 'name243', created);
    // Karmada's Work name is `<name>-<hash>`, the hash 1 to 10 characters: pick a 243-character name whose
    // hash has 10, so the binding name is exactly 253 and the Work name 254.
    let long = '';
    for (let i = 0; workName('ConfigMap', long, ns).length <= MAX_NAME; i++)
      long = `w${i.toString().padStart(5, '0')}${'x'.repeat(243 - 7)}w`;
    const fits = `f${'x'.repeat(240)}f`;
    expect([
      long.length,
      bindingName('configmap', long).length,
      workName('ConfigMap', long, ns).length,
    ]).toEqual([243, 253, 254]);
    expect(bindingName('configmap', fits).length).toBe(252);
    expect(workName('ConfigMap', fits, ns).length).toBeLessThanOrEqual(MAX_NAME);
    for (const name of [long, fits])
      await set.host.create(configMaps(ns), {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, labels: { case: 'n243' } },
        data: { name: name.slice(0, 8) },
      });
    await byLabel(ns, 'long', 'v1', 'ConfigMap', 'n243');

    const bound = bindingName('configmap', long);
    const onBinding = await waitForEvent(set.host, ns, {
      kind: 'ResourceBinding',
      name: bound,
      reason: 'SyncWorkFailed',
    });
    expect(onBinding.type).toBe('Warning');
    expect(onBinding.message).toMatch(/must be no more than 253 characters/);
    await waitForEvent(set.host, ns, { kind: 'ConfigMap', name: long, reason: 'SyncWorkFailed' });
    expect(await worksOf(long)).toEqual([]);
    for (const m of set.members)
      await waitFor(
        `the 242-character ConfigMap in ${m.cluster.name}`,
        () => m.get<ConfigMap>(`${configMaps(ns)}/${fits}`),
        { timeoutMs: 60_000, intervalMs: 250 },
      );
    await assertStillServing(set, manager, livez, created);
  });
});
