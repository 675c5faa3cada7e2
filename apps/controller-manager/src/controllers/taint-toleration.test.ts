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
