// Karmada conformance: resource selectors and implicit priority against the tables of Karmada's
// pkg/util/selector_test.go (TestResourceMatches, TestResourceSelectorPriority, TestResourceMatchSelectors,
// TestResourceMatchSelectorsPriority) at commit f8fdd02.
import type { KubeObject, ResourceSelector } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { implicitPriority, resourceMatchesSelectors, resourceSelectorPriority } from './resource-selector.js';
import { karmadaTable } from './testing/karmada-cases.js';

const FILE = new URL('./testdata/karmada/pkg-util-selector_test.json', import.meta.url);

interface SelectorCase<W> {
  readonly name: string;
  readonly args: { readonly rs: ResourceSelector };
  readonly want: W;
}
interface SelectorsCase<W> {
  readonly name: string;
  readonly args: { readonly selectors: readonly ResourceSelector[] | null };
  readonly want: W;
}

// Every table matches against the same Pod default/test with label foo=bar.
const resourceOf = (fixtures: Readonly<Record<string, unknown>>): KubeObject => {
  const resource = fixtures.resource as KubeObject | undefined;
  if (resource === undefined) throw new Error('the table has no resource fixture');
  return resource;
};

describe('TestResourceMatches', () => {
  const table = karmadaTable<SelectorCase<boolean>>(FILE, 'TestResourceMatches');
  const resource = resourceOf(table.fixtures);
  it.each(table.cases)(`${table.label}: $name`, ({ args, want }) => {
    expect(resourceMatchesSelectors(resource, [args.rs])).toBe(want);
  });
});

describe('TestResourceSelectorPriority', () => {
  const table = karmadaTable<SelectorCase<number>>(FILE, 'TestResourceSelectorPriority');
  const resource = resourceOf(table.fixtures);
  it.each(table.cases)(`${table.label}: $name`, ({ args, want }) => {
    expect(resourceSelectorPriority(resource, args.rs)).toBe(want);
  });
});

describe('TestResourceMatchSelectors', () => {
  const table = karmadaTable<SelectorsCase<boolean>>(FILE, 'TestResourceMatchSelectors');
  const resource = resourceOf(table.fixtures);
  it.each(table.cases)(`${table.label}: $name`, ({ args, want }) => {
    expect(resourceMatchesSelectors(resource, args.selectors ?? [])).toBe(want);
  });
});

describe('TestResourceMatchSelectorsPriority', () => {
  const table = karmadaTable<SelectorsCase<number>>(FILE, 'TestResourceMatchSelectorsPriority');
  const resource = resourceOf(table.fixtures);
  it.each(table.cases)(`${table.label}: $name`, ({ args, want }) => {
    expect(implicitPriority(resource, args.selectors ?? [])).toBe(want);
  });
});
