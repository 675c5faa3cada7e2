// Karmada conformance: the override manager against the tables of Karmada's pkg/util/overridemanager tests and
// pkg/util/imageparser/parser_test.go at commit f8fdd02.
import type {
  Cluster,
  ClusterOverridePolicy,
  CommandArgsOverrider,
  ImageOverrider,
  LabelAnnotationOverrider,
  Overriders,
  UnstructuredObject,
} from '@warmstart/api';
import { karmadaTable } from '@warmstart/detector/testing';
import { describe, expect, it } from 'vitest';
import { parseImage } from './image-reference.js';
import type { PatchOperation } from './json-patch.js';
import {
  commandArgsPatches,
  imagePatches,
  labelAnnotationPatch,
  matchingOverriders,
} from './override-policy.js';

const FILE = new URL('./testdata/karmada/pkg-util-overridemanager_test.json', import.meta.url);

describe('TestParseJSONPatchesByImageOverrider', () => {
  const table = karmadaTable<{
    name: string;
    args: { rawObj: UnstructuredObject; imageOverrider: ImageOverrider };
    want: PatchOperation[];
    wantErr: boolean;
  }>(FILE, 'TestParseJSONPatchesByImageOverrider');
  it.each(table.cases)(`${table.label}: $name`, ({ args, want, wantErr }) => {
    if (wantErr) expect(() => imagePatches(args.rawObj, args.imageOverrider)).toThrow();
    else expect(imagePatches(args.rawObj, args.imageOverrider)).toEqual(want);
  });
});

describe.each([
  ['TestParseJSONPatchesByCommandOverrider', 'command'],
  ['TestParseJSONPatchesByArgsOverrider', 'args'],
] as const)('%s', (test, target) => {
  const table = karmadaTable<{
    name: string;
    args: { rawObj: UnstructuredObject; CommandArgsOverrider: CommandArgsOverrider };
    want: PatchOperation[] | null;
    wantErr: boolean;
  }>(FILE, test);
  it.each(table.cases)(`${table.label}: $name`, ({ args, want }) => {
    expect(commandArgsPatches(target, args.rawObj, args.CommandArgsOverrider)).toEqual(want ?? []);
  });
});

describe.each([
  ['Test_applyLabelsOverriders', 'labels'],
  ['Test_applyAnnotationsOverriders', 'annotations'],
] as const)('%s', (test, field) => {
  const table = karmadaTable<{
    name: string;
    args: { rawObj: UnstructuredObject; commandOverriders: LabelAnnotationOverrider[] };
    want: Record<string, string>;
    wantErr: boolean;
  }>(FILE, test);
  it.each(table.cases)(`${table.label}: $name`, ({ args, want }) => {
    let object = args.rawObj;
    for (const overrider of args.commandOverriders) object = labelAnnotationPatch(object, overrider, field);
    expect(object.metadata[field] ?? {}).toEqual(want);
  });
});

describe('TestGetMatchingOverridePolicies', () => {
  const table = karmadaTable<{
    name: string;
    cluster: Cluster;
    policies: ClusterOverridePolicy[];
    resource: UnstructuredObject;
    wantedOverriders: Array<{ name: string; namespace: string; overriders: Overriders }>;
  }>(FILE, 'TestGetMatchingOverridePolicies');
  it.each(table.cases)(`${table.label}: $name`, ({ cluster, policies, resource, wantedOverriders }) => {
    expect(matchingOverriders(policies, resource, cluster)).toEqual(wantedOverriders);
  });
});

describe('TestParse', () => {
  const table = karmadaTable<{
    name: string;
    image: string;
    expectHostname: string;
    expectRepository: string;
    expectTag: string;
    expectDigest: string;
  }>(new URL('./testdata/karmada/pkg-util-imageparser-parser_test.json', import.meta.url), 'TestParse');
  it.each(table.cases)(`${table.label}: $name`, (c) => {
    expect(parseImage(c.image)).toEqual({
      hostname: c.expectHostname,
      repository: c.expectRepository,
      tag: c.expectTag,
      digest: c.expectDigest,
    });
  });
});
