import type { UnstructuredObject } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  isRelevantMemberChange,
  jsonSubset,
  memberMatchesManifest,
  workKeyOfMemberObject,
} from './member-drift.js';
import { deepFreeze } from './testing/fixtures.js';

const manifest = deepFreeze({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'ns',
    labels: { app: 'web', 'karmada.io/managed': 'true' },
    annotations: { 'work.karmada.io/name': 'web-abc', 'work.karmada.io/namespace': 'karmada-es-member1' },
  },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' }, creationTimestamp: null },
      spec: { containers: [{ name: 'app', image: 'app:1', resources: {} }] },
    },
  },
}) as unknown as UnstructuredObject;

interface MemberDeployment {
  metadata: {
    resourceVersion?: string;
    uid?: string;
    generation?: number;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  spec: {
    replicas: number;
    paused?: boolean;
    strategy?: unknown;
    template: {
      metadata: { creationTimestamp?: null; labels: Record<string, string> };
      spec: { containers: { name: string; image: string; imagePullPolicy?: string; resources?: object }[] };
    };
  };
  status?: unknown;
}

// What the member serves: defaults filled in, its own annotations and bookkeeping, a status.
function onMember(change: (o: MemberDeployment) => void = () => {}): UnstructuredObject {
  const o = structuredClone(manifest) as unknown as MemberDeployment;
  o.metadata.resourceVersion = '100';
  o.metadata.uid = 'u1';
  o.metadata.generation = 1;
  o.metadata.annotations['deployment.kubernetes.io/revision'] = '1';
  o.metadata.annotations['warmstart.io/applied-from-work'] = 'w/1';
  o.spec.strategy = { type: 'RollingUpdate' };
  o.spec.template.spec.containers[0]!.imagePullPolicy = 'IfNotPresent';
  delete o.spec.template.metadata.creationTimestamp;
  delete o.spec.template.spec.containers[0]!.resources;
  o.status = { replicas: 2 };
  change(o);
  return deepFreeze(o) as unknown as UnstructuredObject;
}

describe('memberMatchesManifest', () => {
  it('accepts what the member added: defaults, its own annotations, status, bookkeeping', () => {
    expect(memberMatchesManifest(manifest, onMember())).toBe(true);
  });

  it('sees a changed manifest field (replicas patched on the member)', () => {
    expect(
      memberMatchesManifest(
        manifest,
        onMember((o) => (o.spec.replicas = 9)),
      ),
    ).toBe(false);
  });

  it('sees a manifest label removed or changed on the member, and a container added', () => {
    expect(
      memberMatchesManifest(
        manifest,
        onMember((o) => delete o.metadata.labels.app),
      ),
    ).toBe(false);
    expect(
      memberMatchesManifest(
        manifest,
        onMember((o) => (o.metadata.labels.app = 'x')),
      ),
    ).toBe(false);
    expect(
      memberMatchesManifest(
        manifest,
        onMember((o) => o.spec.template.spec.containers.push({ name: 'sidecar', image: 's' })),
      ),
    ).toBe(false);
  });

  it('leaves fields the manifest does not set to the member', () => {
    expect(
      memberMatchesManifest(
        manifest,
        onMember((o) => (o.spec.paused = true)),
      ),
    ).toBe(true);
    expect(
      memberMatchesManifest(
        manifest,
        onMember((o) => (o.status = { replicas: 0 })),
      ),
    ).toBe(true);
  });
});

describe('isRelevantMemberChange', () => {
  it('ignores status and bookkeeping, sees spec and metadata', () => {
    const before = onMember();
    expect(
      isRelevantMemberChange(
        before,
        onMember((o) => {
          o.status = { replicas: 1 };
          o.metadata.resourceVersion = '101';
          o.metadata.generation = 2;
        }),
      ),
    ).toBe(false);
    expect(
      isRelevantMemberChange(
        before,
        onMember((o) => (o.spec.replicas = 9)),
      ),
    ).toBe(true);
    expect(
      isRelevantMemberChange(
        before,
        onMember((o) => (o.metadata.labels.extra = 'y')),
      ),
    ).toBe(true);
  });
});

describe('workKeyOfMemberObject', () => {
  it('names the Work of a Karmada-managed object only', () => {
    expect(workKeyOfMemberObject(onMember())).toBe('karmada-es-member1/web-abc');
    expect(
      workKeyOfMemberObject(onMember((o) => delete o.metadata.labels['karmada.io/managed'])),
    ).toBeUndefined();
    expect(
      workKeyOfMemberObject(onMember((o) => delete o.metadata.annotations['work.karmada.io/name'])),
    ).toBeUndefined();
  });
});

describe('jsonSubset', () => {
  it('matches arrays by position at equal length, and null or empty values against absent ones', () => {
    expect(jsonSubset([{ a: 1 }], [{ a: 1, b: 2 }])).toBe(true);
    expect(jsonSubset([{ a: 1 }], [{ a: 1 }, { a: 2 }])).toBe(false);
    expect(jsonSubset({ a: null, b: {}, c: [] }, {})).toBe(true);
    expect(jsonSubset({ a: 0 }, {})).toBe(false);
    expect(jsonSubset('1', 1)).toBe(false);
  });
});
