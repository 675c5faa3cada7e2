import type { Cluster, UnstructuredObject, Work } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { type ConditionDraft, conditionChanged, setCondition } from './conditions.js';
import {
  appliedCondition,
  decideApply,
  dispatchingCondition,
  type ManifestOutcome,
  type MemberLookup,
  type ParsedManifest,
  parseGroupVersion,
  parseManifests,
  planWorkDeletion,
  planWorkSync,
} from './execution.js';
import { cluster, deepFreeze, memberObject, work } from './testing/fixtures.js';

const deployment = deepFreeze({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'nginx',
    namespace: 'default',
    labels: { 'karmada.io/managed': 'true' },
    annotations: { 'work.karmada.io/conflict-resolution': 'abort' },
  },
  spec: { replicas: 3 },
});
const clusterRole = deepFreeze({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'reader' },
});

const parsed = (manifest: Record<string, unknown>): ParsedManifest => {
  const [r] = parseManifests(work({ manifests: [manifest] }));
  if (!r?.ok) throw new Error('parse failed');
  return r.manifest;
};

describe('parseManifests', () => {
  it('decodes group, version, kind, namespace and name', () => {
    const results = parseManifests(work({ manifests: [deployment, clusterRole] }));
    expect(results).toEqual([
      {
        ok: true,
        manifest: {
          ordinal: 0,
          apiVersion: 'apps/v1',
          group: 'apps',
          version: 'v1',
          kind: 'Deployment',
          namespace: 'default',
          name: 'nginx',
          object: deployment,
        },
      },
      {
        ok: true,
        manifest: {
          ordinal: 1,
          apiVersion: 'rbac.authorization.k8s.io/v1',
          group: 'rbac.authorization.k8s.io',
          version: 'v1',
          kind: 'ClusterRole',
          name: 'reader',
          object: clusterRole,
        },
      },
    ]);
  });

  it.each<[string, unknown, RegExp]>([
    ['not an object', 'hello', /manifest 0: is not a JSON object/],
    ['no apiVersion', { kind: 'Pod', metadata: { name: 'p' } }, /no apiVersion/],
    ['no kind', { apiVersion: 'v1', metadata: { name: 'p' } }, /no kind/],
    [
      'bad apiVersion',
      { apiVersion: 'a/b/c', kind: 'Pod', metadata: { name: 'p' } },
      /is not <group>\/<version>/,
    ],
    ['no name', { apiVersion: 'v1', kind: 'Pod', metadata: {} }, /Pod has no metadata.name/],
  ])('rejects a manifest with %s', (_name, manifest, message) => {
    const [r] = parseManifests(work({ manifests: [manifest as Record<string, unknown>] }));
    expect(r?.ok).toBe(false);
    if (r && !r.ok) expect(r.error.message).toMatch(message);
  });

  it.each<[string, { group: string; version: string } | undefined]>([
    ['v1', { group: '', version: 'v1' }],
    ['apps/v1', { group: 'apps', version: 'v1' }],
    ['', undefined],
    ['/v1', undefined],
  ])('parseGroupVersion(%j)', (apiVersion, want) => {
    expect(parseGroupVersion(apiVersion)).toEqual(want);
  });
});

describe('decideApply', () => {
  const managed = memberObject({ labels: { 'karmada.io/managed': 'true' } });
  const foreign = memberObject({ labels: { app: 'nginx' } });
  const overwriteManifest = parsed({
    ...deployment,
    metadata: { ...deployment.metadata, annotations: { 'work.karmada.io/conflict-resolution': 'overwrite' } },
  });
  const noAnnotation = parsed({ ...deployment, metadata: { name: 'nginx', namespace: 'default' } });
  const overwriteWork = work({ annotations: { 'work.karmada.io/conflict-resolution': 'overwrite' } });

  it.each<[string, ParsedManifest, UnstructuredObject | undefined, Work | undefined, string]>([
    ['the member has no such object: create', parsed(deployment), undefined, undefined, 'apply:create'],
    [
      'the member object is managed by Karmada: update',
      parsed(deployment),
      managed,
      undefined,
      'apply:update',
    ],
    [
      'a foreign object and conflict-resolution abort: leave it',
      parsed(deployment),
      foreign,
      undefined,
      'skip-conflict',
    ],
    [
      'a foreign object and overwrite on the manifest: take it over',
      overwriteManifest,
      foreign,
      undefined,
      'apply:update',
    ],
    [
      'the manifest says nothing; the Work says overwrite',
      noAnnotation,
      foreign,
      overwriteWork,
      'apply:update',
    ],
    ['the manifest’s abort wins over the Work', parsed(deployment), foreign, overwriteWork, 'skip-conflict'],
    [
      '"Overwrite" is not "overwrite" (Karmada compares exactly)',
      parsed({
        ...deployment,
        metadata: {
          ...deployment.metadata,
          annotations: { 'work.karmada.io/conflict-resolution': 'Overwrite' },
        },
      }),
      foreign,
      undefined,
      'skip-conflict',
    ],
  ])('%s', (_name, manifest, member, w, want) => {
    const d = decideApply(manifest, member, w);
    expect(d.action === 'apply' ? `apply:${d.exists ? 'update' : 'create'}` : d.action).toBe(want);
  });

  it('says what is in the way and how to take it over', () => {
    const d = decideApply(parsed(deployment), foreign, work({}));
    expect(d.action).toBe('skip-conflict');
    if (d.action === 'skip-conflict') {
      expect(d.message).toMatch(
        /^Deployment default\/nginx already exists in cluster member1 and is not managed by Karmada/,
      );
      expect(d.message).toMatch(/work\.karmada\.io\/conflict-resolution=overwrite/);
    }
  });
});

describe('appliedCondition', () => {
  it.each<[string, ManifestOutcome[], Omit<ConditionDraft, 'type'>]>([
    [
      'every manifest applied',
      [
        { ordinal: 0, applied: true },
        { ordinal: 1, applied: true },
      ],
      { status: 'True', reason: 'AppliedSuccessful', message: 'Manifest has been successfully applied' },
    ],
    [
      'one failure: its message as is',
      [
        { ordinal: 0, applied: true },
        { ordinal: 1, applied: false, message: 'boom' },
      ],
      { status: 'False', reason: 'AppliedFailed', message: 'Failed to apply all manifests (1/2): boom' },
    ],
    [
      'several failures: de-duplicated, comma-joined, in brackets',
      [
        { ordinal: 0, applied: false, message: 'a' },
        { ordinal: 1, applied: false, message: 'b' },
        { ordinal: 2, applied: false, message: 'a' },
      ],
      { status: 'False', reason: 'AppliedFailed', message: 'Failed to apply all manifests (0/3): [a, b]' },
    ],
  ])('%s', (_name, outcomes, want) => {
    expect(appliedCondition(outcomes)).toEqual({ type: 'Applied', ...want });
  });

  it('carries the observed generation when given', () => {
    expect(appliedCondition([], 7).observedGeneration).toBe(7);
  });
});

describe('conditionChanged and setCondition', () => {
  const T0 = '2026-01-01T00:00:00Z';
  const T1 = '2026-01-02T00:00:00Z';
  const applied = {
    type: 'Applied',
    status: 'True',
    reason: 'AppliedSuccessful',
    message: 'ok',
    lastTransitionTime: T0,
  } as const;

  it.each<[string, typeof applied | undefined, ConditionDraft, boolean]>([
    ['absent', undefined, { ...applied }, true],
    [
      'identical',
      applied,
      { type: 'Applied', status: 'True', reason: 'AppliedSuccessful', message: 'ok' },
      false,
    ],
    [
      'message changed',
      applied,
      { type: 'Applied', status: 'True', reason: 'AppliedSuccessful', message: 'other' },
      true,
    ],
    [
      'status changed',
      applied,
      { type: 'Applied', status: 'False', reason: 'AppliedSuccessful', message: 'ok' },
      true,
    ],
    [
      'new observedGeneration',
      applied,
      { type: 'Applied', status: 'True', reason: 'AppliedSuccessful', message: 'ok', observedGeneration: 2 },
      true,
    ],
  ])('conditionChanged: %s', (_name, existing, next, want) => {
    expect(conditionChanged(existing, next)).toBe(want);
  });

  it('keeps lastTransitionTime while the status holds, moves it when the status flips', () => {
    const others = deepFreeze([{ ...applied, type: 'Dispatching' }, applied]);
    const same = setCondition(
      others,
      { type: 'Applied', status: 'True', reason: 'AppliedSuccessful', message: 'again' },
      T1,
    );
    expect(same[1]).toEqual({ ...applied, message: 'again' });
    expect(same[0]).toBe(others[0]);
    const flipped = setCondition(
      others,
      { type: 'Applied', status: 'False', reason: 'AppliedFailed', message: 'x' },
      T1,
    );
    expect(flipped[1]?.lastTransitionTime).toBe(T1);
    expect(
      setCondition(undefined, { type: 'New', status: 'Unknown', reason: 'r', message: 'm' }, T1),
    ).toEqual([{ type: 'New', status: 'Unknown', reason: 'r', message: 'm', lastTransitionTime: T1 }]);
  });
});

describe('planWorkSync', () => {
  const ready = cluster('member1');
  const lookup: MemberLookup = () => undefined;

  it.each<[string, Work, Cluster | undefined, string]>([
    ['a Work being deleted goes to planWorkDeletion', work({ deleting: true }), ready, 'deleting'],
    ['suspended dispatching touches nothing', work({ suspend: true }), ready, 'suspended'],
    ['a cluster that is not Ready', work({}), cluster('member1', { ready: false }), 'cluster-not-ready'],
    ['a cluster missing from the cache', work({}), undefined, 'cluster-not-ready'],
    ['otherwise, decide each manifest', work({ manifests: [deployment] }), ready, 'apply'],
  ])('%s', (_name, w, c, kind) => {
    expect(planWorkSync(w, c, lookup).kind).toBe(kind);
  });

  it('separates manifests that cannot be decoded', () => {
    const plan = planWorkSync(work({ manifests: [deployment, { kind: 'Pod' }] }), ready, lookup);
    expect(plan.kind).toBe('apply');
    if (plan.kind === 'apply') {
      expect(plan.decisions.map((d) => [d.action, d.manifest.ordinal])).toEqual([['apply', 0]]);
      expect(plan.invalid.map((e) => e.ordinal)).toEqual([1]);
    }
  });

  it.each<[boolean | undefined, string]>([
    [true, 'False'],
    [undefined, 'True'],
  ])('dispatchingCondition with suspendDispatching=%s is %s', (suspend, status) => {
    expect(dispatchingCondition(work(suspend === undefined ? {} : { suspend })).status).toBe(status);
  });
});

describe('planWorkDeletion', () => {
  const ready = cluster('member1');
  const managed = memberObject({
    labels: {
      'karmada.io/managed': 'true',
      'propagationpolicy.karmada.io/permanent-id': 'pp',
      'resourcebinding.karmada.io/permanent-id': 'rb',
      app: 'nginx',
    },
    annotations: { 'work.karmada.io/name': 'w', 'propagationpolicy.karmada.io/name': 'pp', note: 'keep' },
  });
  const foreign = memberObject({ labels: { app: 'nginx' } });
  const only =
    (object: UnstructuredObject | undefined): MemberLookup =>
    () =>
      object;

  it.each<[string, Work, Cluster | undefined, UnstructuredObject | undefined, unknown]>([
    ['not being deleted', work({ manifests: [deployment] }), ready, managed, { kind: 'not-deleting' }],
    [
      'delete what Karmada manages, in the background, then drop our finalizer',
      work({
        manifests: [deployment],
        deleting: true,
        finalizers: ['karmada.io/execution-controller', 'other'],
      }),
      ready,
      managed,
      {
        kind: 'cleanup',
        cleanups: [{ action: 'delete', manifest: parsed(deployment), propagationPolicy: 'Background' }],
        finalizers: ['other'],
      },
    ],
    [
      'leave an object Karmada does not manage',
      work({ manifests: [deployment], deleting: true }),
      ready,
      foreign,
      {
        kind: 'cleanup',
        cleanups: [{ action: 'leave', manifest: parsed(deployment), reason: 'not-managed' }],
        finalizers: [],
      },
    ],
    [
      'nothing on the member',
      work({ manifests: [deployment], deleting: true }),
      ready,
      undefined,
      {
        kind: 'cleanup',
        cleanups: [{ action: 'leave', manifest: parsed(deployment), reason: 'absent' }],
        finalizers: [],
      },
    ],
    [
      'preserve: strip Karmada’s labels and annotations only, keep the rest',
      work({ manifests: [deployment], deleting: true, preserve: true }),
      cluster('member1', { ready: false }),
      managed,
      {
        kind: 'cleanup',
        cleanups: [
          {
            action: 'strip-metadata',
            manifest: parsed(deployment),
            labels: [
              'propagationpolicy.karmada.io/permanent-id',
              'resourcebinding.karmada.io/permanent-id',
              'karmada.io/managed',
            ],
            annotations: ['propagationpolicy.karmada.io/name', 'work.karmada.io/name'],
          },
        ],
        finalizers: [],
      },
    ],
    [
      'a cluster that is being deleted and not Ready: nothing to clean, just let go',
      work({ manifests: [deployment], deleting: true }),
      cluster('member1', { ready: false, deleting: true }),
      managed,
      { kind: 'cleanup', cleanups: [], finalizers: [] },
    ],
    [
      'our finalizer already gone: no Work write',
      work({ manifests: [], deleting: true, finalizers: ['other'] }),
      ready,
      undefined,
      { kind: 'cleanup', cleanups: [], finalizers: undefined },
    ],
  ])('%s', (_name, w, c, member, want) => {
    expect(planWorkDeletion(w, c, only(member))).toEqual(want);
  });

  it.each<[string, Work, Cluster | undefined, RegExp]>([
    [
      'a cluster that is not Ready blocks',
      work({ manifests: [deployment], deleting: true }),
      cluster('member1', { ready: false }),
      /not Ready/,
    ],
    [
      'an uncached cluster blocks',
      work({ manifests: [deployment], deleting: true }),
      undefined,
      /not in the Cluster cache/,
    ],
    [
      'an undecodable manifest blocks',
      work({ manifests: [{ kind: 'Pod' }], deleting: true }),
      ready,
      /has no apiVersion/,
    ],
  ])('%s', (_name, w, c, message) => {
    const plan = planWorkDeletion(w, c, only(managed));
    expect(plan.kind).toBe('blocked');
    if (plan.kind === 'blocked') expect(plan.message).toMatch(message);
  });

  it('a cluster-scoped object sheds the ClusterPropagationPolicy claim', () => {
    const role = deepFreeze({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: 'reader',
        labels: { 'karmada.io/managed': 'true', 'clusterpropagationpolicy.karmada.io/permanent-id': 'c' },
        annotations: { 'clusterpropagationpolicy.karmada.io/name': 'cpp' },
      },
    });
    const plan = planWorkDeletion(
      work({ manifests: [clusterRole], deleting: true, preserve: true }),
      ready,
      only(role),
    );
    expect(plan.kind === 'cleanup' ? plan.cleanups[0] : undefined).toMatchObject({
      action: 'strip-metadata',
      labels: ['clusterpropagationpolicy.karmada.io/permanent-id', 'karmada.io/managed'],
      annotations: ['clusterpropagationpolicy.karmada.io/name'],
    });
  });
});
