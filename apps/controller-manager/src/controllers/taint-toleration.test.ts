import type { Taint, Toleration } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { findUntoleratedTaint, formatTaint, toleratesTaint } from './taint-toleration.js';

describe('toleratesTaint', () => {
  const taint: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  const cases: Array<[string, Toleration, boolean]> = [
    [
      'Equal, same key, value and effect',
      { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
      true,
    ],
    ['operator defaults to Equal', { key: 'dedicated', value: 'gpu' }, true],
    ['Equal, other value', { key: 'dedicated', operator: 'Equal', value: 'cpu' }, false],
    ['Exists ignores the value', { key: 'dedicated', operator: 'Exists' }, true],
    ['other key', { key: 'other', operator: 'Exists' }, false],
    ['other effect', { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, false],
    ['empty key with Exists matches every taint', { operator: 'Exists' }, true],
  ];
  it.each(cases)('%s', (_name, toleration, want) => {
    expect(toleratesTaint(toleration, taint)).toBe(want);
  });
});

describe('findUntoleratedTaint', () => {
  const taints: Taint[] = [
    { key: 'soft', effect: 'PreferNoSchedule' },
    { key: 'a', value: '1', effect: 'NoSchedule' },
    { key: 'b', effect: 'NoExecute' },
  ];
  it.each<[string, Toleration[] | undefined, string | undefined]>([
    ['no tolerations: the first hard taint', undefined, 'a=1:NoSchedule'],
    ['a tolerated, b is next', [{ key: 'a', operator: 'Exists' }], 'b:NoExecute'],
    [
      'both tolerated; PreferNoSchedule never counts',
      [
        { key: 'a', value: '1' },
        { key: 'b', operator: 'Exists' },
      ],
      undefined,
    ],
  ])('%s', (_name, tolerations, want) => {
    const found = findUntoleratedTaint(taints, tolerations);
    expect(found === undefined ? undefined : formatTaint(found)).toBe(want);
  });
});

// Karmada conformance: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go
// TestTaintToleration_Filter at Karmada commit f8fdd02df3760fd9521624f284877fa84e7be6ef. Its first case ("cluster
// already in target clusters") is the scheduler's, in scheduler.test.ts ("a cluster already scheduled keeps its
// place despite a new taint").
describe('Karmada f8fdd02 taint_toleration_test.go TestTaintToleration_Filter', () => {
  const taint: Taint = { key: 'key1', value: 'value1', effect: 'NoSchedule' };
  it.each<[string, Taint[] | undefined, Toleration[] | undefined, string | undefined]>([
    ['no taints', undefined, undefined, undefined],
    [
      'tolerated taint',
      [taint],
      [{ key: 'key1', operator: 'Equal', value: 'value1', effect: 'NoSchedule' }],
      undefined,
    ],
    ['untolerated taint', [taint], undefined, 'key1=value1:NoSchedule'],
  ])('%s', (_name, taints, tolerations, untolerated) => {
    const found = findUntoleratedTaint(taints, tolerations);
    expect(found === undefined ? undefined : formatTaint(found)).toBe(untolerated);
  });
});

// Kubernetes' Toleration.ToleratesTaint (k8s.io/api core/v1, as vendored by Karmada f8fdd02): the wire may carry
// empty strings where our types say "absent".
describe('toleratesTaint: Kubernetes semantics of empty fields', () => {
  const taint: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
  const wire = (t: Record<string, string>): Toleration => t as Toleration;
  it.each<[string, Toleration, boolean]>([
    ['an empty operator is Equal', wire({ key: 'dedicated', operator: '', value: 'gpu' }), true],
    [
      'an empty operator is Equal (other value)',
      wire({ key: 'dedicated', operator: '', value: 'cpu' }),
      false,
    ],
    [
      'an empty effect matches every effect',
      wire({ key: 'dedicated', operator: 'Exists', effect: '' }),
      true,
    ],
    ['an empty key with Exists matches every key', wire({ key: '', operator: 'Exists' }), true],
    [
      'Lt is disabled in Karmada: tolerates nothing',
      wire({ key: 'dedicated', operator: 'Lt', value: '9' }),
      false,
    ],
  ])('%s', (_name, toleration, want) => {
    expect(toleratesTaint(toleration, taint)).toBe(want);
  });

  it('formats a taint without an effect as Kubernetes does', () => {
    expect(formatTaint({ key: 'k', value: 'v', effect: '' as Taint['effect'] })).toBe('k=v:');
    expect(formatTaint({ key: 'k', effect: '' as Taint['effect'] })).toBe('k');
  });
});
