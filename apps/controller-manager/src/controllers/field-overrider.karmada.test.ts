// Karmada conformance for fieldOverrider at commit f8fdd02: the Go tests that run one (two unit tests of
// pkg/util/overridemanager/overridemanager_test.go, two e2e contexts of test/e2e/suites/base/overridepolicy_test.go),
// and a differential table of outputs Karmada's own applyFieldOverriders produced for inputs written for this port.
import { readFileSync } from 'node:fs';
import {
  Annotations,
  type Cluster,
  type FieldOverrider,
  type OverridePolicy,
  type UnstructuredObject,
} from '@warmstart/api';
import { karmadaTable } from '@warmstart/detector/testing';
import { describe, expect, it } from 'vitest';
import { applyFieldOverrider } from './field-overrider.js';
import { deepCopy } from './json.js';
import { applyOverridePolicies, applyOverriders, OverrideApplyError } from './override-policy.js';

const FILE = new URL('./testdata/karmada/pkg-util-overridemanager-fieldoverrider_test.json', import.meta.url);

describe.each([
  'Test_overrideManagerImpl_ApplyFieldOverriderPolicies_YAML',
  'Test_overrideManagerImpl_ApplyJSONOverridePolicies_JSON',
])('%s', (test) => {
  const table = karmadaTable<{
    name: string;
    rawObj: UnstructuredObject;
    cluster: Cluster;
    overridePolicies: OverridePolicy[];
    wantCOP: null;
    wantOP: unknown;
    wantData: Record<string, string>;
    wantErr: boolean;
  }>(FILE, test);
  it.each(table.cases)(`${table.label}: $name`, (c) => {
    const got = applyOverridePolicies(c.rawObj, c.cluster, [], c.overridePolicies);
    expect((got.object as UnstructuredObject & { data: unknown }).data).toEqual(c.wantData);
    expect(got.annotations[Annotations.AppliedClusterOverrides]).toBeUndefined();
    expect(JSON.parse(got.annotations[Annotations.AppliedOverrides]!)).toEqual(c.wantOP);
    // The template itself is left as it was.
    expect(c.rawObj).not.toEqual(got.object);
  });
});

describe.each([
  '[FieldOverrider] apply field overrider testing to update JSON values in ConfigMap',
  '[FieldOverrider] apply field overrider testing to update YAML values in ConfigMap',
])('%s', (test) => {
  const table = karmadaTable<{
    name: string;
    rawObj: UnstructuredObject & { data: Record<string, string> };
    fieldOverrider: FieldOverrider[];
    field: string;
    wantContains: string[];
    wantNotContains: string[];
  }>(FILE, test);
  it.each(table.cases)(`${table.label}: $name`, (c) => {
    const got = applyOverriders(c.rawObj, { fieldOverrider: c.fieldOverrider }) as typeof c.rawObj;
    const text = got.data[c.field]!;
    for (const s of c.wantContains) expect(text).toContain(s);
    for (const s of c.wantNotContains) expect(text).not.toContain(s);
  });
});

interface DifferentialCase {
  readonly name: string;
  readonly object: Record<string, unknown>;
  readonly fieldOverrider: FieldOverrider[];
  readonly want?: Record<string, unknown>;
  readonly wantErr?: string;
}

const differential: { commit: string; cases: DifferentialCase[] } = JSON.parse(
  readFileSync(new URL('./testdata/karmada/field-overrider-differential.json', import.meta.url), 'utf8'),
);

describe(`applyFieldOverriders as Karmada ${differential.commit.slice(0, 8)} runs it (differential)`, () => {
  it.each(differential.cases)('$name', (c) => {
    const object = deepCopy(c.object);
    const run = (): void => {
      for (const o of c.fieldOverrider) applyFieldOverrider(object, o);
    };
    if (c.wantErr !== undefined) expect(run).toThrow();
    else {
      run();
      expect(object).toEqual(c.want);
    }
  });
});

describe('a fieldOverrider that does not apply', () => {
  const template = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'default' },
    data: { 'app.json': '{"a":1}', n: '{' },
  } as UnstructuredObject;
  const cluster = {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'm1' },
  } as Cluster;
  const policy = (fieldPath: string): OverridePolicy =>
    ({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'OverridePolicy',
      metadata: { name: 'p', namespace: 'default' },
      spec: {
        overrideRules: [
          {
            overriders: {
              fieldOverrider: [{ fieldPath, json: [{ subPath: '/a', operator: 'replace', value: 2 }] }],
            },
          },
        ],
      },
    }) as OverridePolicy;

  it.each([
    ['a missing field', '/data/missing'],
    ['a path that is not a JSON pointer', 'data/app.json'],
    ['a field that is not a string', '/metadata'],
    ['a field that is not JSON', '/data/n'],
  ])('is an OverrideApplyError naming the policy and cluster: %s', (_, fieldPath) => {
    const run = (): unknown => applyOverridePolicies(template, cluster, [], [policy(fieldPath)]);
    expect(run).toThrow(OverrideApplyError);
    expect(run).toThrow(/override policy default\/p for cluster m1/);
  });

  it('leaves the template unchanged when it fails part-way', () => {
    const before = deepCopy(template);
    expect(() =>
      applyOverriders(template, {
        fieldOverrider: [
          { fieldPath: '/data/app.json', json: [{ subPath: '/a', operator: 'replace', value: 2 }] },
          { fieldPath: '/data/n', json: [{ subPath: '/a', operator: 'replace', value: 2 }] },
        ],
      }),
    ).toThrow();
    expect(template).toEqual(before);
  });
});
