// Karmada conformance: --skipped-propagating-apis, against the tables of Karmada's pkg/util/apigroup_test.go at
// commit f8fdd02. Every group, group-version and kind a case lists must be skipped after parsing its input.
import { describe, expect, it } from 'vitest';
import { parseSkippedPropagatingApis, type SkippedResourceConfig } from './skipped-apis.js';
import { karmadaTable } from './testing/karmada-cases.js';

const FILE = new URL('./testdata/karmada/pkg-util-apigroup_test.json', import.meta.url);

interface GoGV {
  readonly Group: string;
  readonly Version: string;
}
interface GoGVK extends GoGV {
  readonly Kind: string;
}

function expectSkipped(
  config: SkippedResourceConfig,
  want: { groups?: readonly string[]; groupVersions?: readonly GoGV[]; kinds?: readonly GoGVK[] },
): void {
  for (const group of want.groups ?? []) expect(config.groupDisabled(group), group).toBe(true);
  for (const gv of want.groupVersions ?? []) {
    expect(config.groupVersionDisabled(gv.Group, gv.Version), `${gv.Group}/${gv.Version}`).toBe(true);
  }
  for (const k of want.kinds ?? []) {
    expect(config.kindDisabled(k.Group, k.Version, k.Kind), `${k.Group}/${k.Version}/${k.Kind}`).toBe(true);
  }
}

describe.each([
  ['TestSkippedResourceConfigGVKParse', 'kinds'],
  ['TestResourceConfigGVParse', 'groupVersions'],
  ['TestSkippedResourceConfigGroupParse', 'groups'],
  ['TestDefaultSkippedResourceConfigGroupParse', 'groups'],
  ['TestDefaultSkippedResourceConfigGroupVersionKindParse', 'kinds'],
] as const)('%s', (test, field) => {
  const table = karmadaTable<{ input: string; out: never[] }>(FILE, test);
  it.each(table.cases)(`${table.label}: $input`, ({ input, out }) => {
    const config = parseSkippedPropagatingApis(input);
    expectSkipped(config, { [field]: out });
    // The Default* tests also check that the core group as a whole is not skipped.
    expect(config.groupDisabled('')).toBe(false);
  });
});

describe('TestSkippedResourceConfigMixedParse', () => {
  const table = karmadaTable<{
    input: string;
    out: { Groups: string[]; GroupVersions: GoGV[]; GroupVersionKinds: GoGVK[] };
  }>(FILE, 'TestSkippedResourceConfigMixedParse');
  it.each(table.cases)(`${table.label}: $input`, ({ input, out }) => {
    expectSkipped(parseSkippedPropagatingApis(input), {
      groups: out.Groups,
      groupVersions: out.GroupVersions,
      kinds: out.GroupVersionKinds,
    });
  });
});

describe('TestParseSingle', () => {
  const table = karmadaTable<{
    input: string;
    expectedGroups: string[];
    expectedGroupVs: GoGV[];
    expectedGVKs: GoGVK[];
  }>(FILE, 'TestParseSingle');
  it.each(table.cases)(
    `${table.label}: $input`,
    ({ input, expectedGroups, expectedGroupVs, expectedGVKs }) => {
      expectSkipped(parseSkippedPropagatingApis(input), {
        groups: expectedGroups,
        groupVersions: expectedGroupVs,
        kinds: expectedGVKs,
      });
    },
  );
});
