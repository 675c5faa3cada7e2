// Karmada conformance: which template events the detector handles, against the tables of Karmada's
// pkg/detector/detector_test.go (TestEventFilter) and pkg/util/eventfilter/eventfilter_test.go at commit f8fdd02.
import type { KubeObject } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { resourceChangeByKarmada, specificationChanged, templateEventFilter } from './event-filter.js';
import { karmadaTable } from './testing/karmada-cases.js';

type Json = Readonly<Record<string, unknown>>;

describe('TestEventFilter', () => {
  // The Go table holds compiled *regexp.Regexp values; the dump keeps their source. Go's MatchString is
  // unanchored, as RegExp.test is.
  const table = karmadaTable<{
    name: string;
    obj: KubeObject;
    skippedPropagatingNamespaces: string[] | null;
    expected: boolean;
  }>(new URL('./testdata/karmada/pkg-detector-detector_test.json', import.meta.url), 'TestEventFilter');
  it.each(table.cases)(`${table.label}: $name`, ({ obj, skippedPropagatingNamespaces, expected }) => {
    const skipped = (skippedPropagatingNamespaces ?? []).map((expr) => new RegExp(expr));
    expect(templateEventFilter(obj, skipped)).toBe(expected);
  });
});

const EVENTFILTER = new URL('./testdata/karmada/pkg-util-eventfilter-eventfilter_test.json', import.meta.url);

describe('TestSpecificationChanged', () => {
  const table = karmadaTable<{ name: string; oldObj: Json; newObj: Json; wantChange: boolean }>(
    EVENTFILTER,
    'TestSpecificationChanged',
  );
  it.each(table.cases)(`${table.label}: $name`, ({ oldObj, newObj, wantChange }) => {
    expect(specificationChanged(oldObj, newObj)).toBe(wantChange);
  });
});

describe('TestResourceChangeByKarmada', () => {
  const table = karmadaTable<{ name: string; oldObj: Json; newObj: Json; wantChangeByKarmada: boolean }>(
    EVENTFILTER,
    'TestResourceChangeByKarmada',
  );
  it.each(table.cases)(`${table.label}: $name`, ({ oldObj, newObj, wantChangeByKarmada }) => {
    expect(resourceChangeByKarmada(oldObj, newObj)).toBe(wantChangeByKarmada);
  });
});
