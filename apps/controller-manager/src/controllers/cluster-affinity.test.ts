import type { ClusterAffinity, LabelSelector, NodeSelectorRequirement } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { clusterMatchesAffinity, fieldSelectorMatches, labelSelectorMatches } from './cluster-affinity.js';
import { cluster } from './testing/fixtures.js';

describe('labelSelectorMatches', () => {
  const labels = { env: 'prod', tier: 'gold', 'topology.kubernetes.io/zone': 'a' };
  const cases: Array<[string, LabelSelector, boolean]> = [
    ['{} matches everything', {}, true],
    ['matchLabels equal', { matchLabels: { env: 'prod' } }, true],
    ['matchLabels different value', { matchLabels: { env: 'dev' } }, false],
    ['matchLabels missing key', { matchLabels: { team: 'a' } }, false],
    ['In', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold', 'silver'] }] }, true],
    [
      'In, value not listed',
      { matchExpressions: [{ key: 'tier', operator: 'In', values: ['silver'] }] },
      false,
    ],
    ['In, key absent', { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] }, false],
    [
      'NotIn, value listed',
      { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] },
      false,
    ],
    [
      'NotIn, key absent matches',
      { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }] },
      true,
    ],
    ['Exists', { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'Exists' }] }, true],
    ['Exists, absent', { matchExpressions: [{ key: 'team', operator: 'Exists' }] }, false],
    ['DoesNotExist', { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] }, true],
    ['DoesNotExist, present', { matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }, false],
    [
      'all requirements must hold',
      { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] },
      false,
    ],
    [
      'invalid: In without values matches nothing',
      { matchExpressions: [{ key: 'env', operator: 'In', values: [] }] },
      false,
    ],
    [
      'invalid: Exists with values',
      { matchExpressions: [{ key: 'env', operator: 'Exists', values: ['prod'] }] },
      false,
    ],
    [
      'invalid: unknown operator',
      { matchExpressions: [{ key: 'env', operator: 'Like', values: ['p'] }] },
      false,
    ],
    ['invalid: bad key', { matchExpressions: [{ key: 'bad key', operator: 'Exists' }] }, false],
    ['invalid: bad value', { matchLabels: { env: 'has space' } }, false],
  ];
  it.each(cases)('%s', (_name, selector, want) => {
    expect(labelSelectorMatches(selector, labels)).toBe(want);
  });

  it('treats absent labels as none', () => {
    expect(
      labelSelectorMatches({ matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }, undefined),
    ).toBe(true);
  });
});

describe('fieldSelectorMatches', () => {
  const c = cluster('c', { provider: 'aws', region: 'us-east-1', zones: ['us-east-1a', 'us-east-1b'] });
  const noZones = cluster('n', { provider: 'aws' });
  const cases: Array<[string, NodeSelectorRequirement[], boolean, boolean]> = [
    // [name, expressions, want for c, want for noZones]
    ['provider In', [{ key: 'provider', operator: 'In', values: ['aws', 'gcp'] }], true, true],
    [
      'region In, unset region does not match',
      [{ key: 'region', operator: 'In', values: ['us-east-1'] }],
      true,
      false,
    ],
    [
      'region NotIn, unset region matches',
      [{ key: 'region', operator: 'NotIn', values: ['us-east-1'] }],
      false,
      true,
    ],
    ['region Exists', [{ key: 'region', operator: 'Exists' }], true, false],
    [
      'zone In: one listed zone is enough (Karmada v1.18 on)',
      [{ key: 'zone', operator: 'In', values: ['us-east-1a'] }],
      true,
      false,
    ],
    [
      'zone In, all listed',
      [{ key: 'zone', operator: 'In', values: ['us-east-1a', 'us-east-1b', 'x'] }],
      true,
      false,
    ],
    ['zone NotIn', [{ key: 'zone', operator: 'NotIn', values: ['us-east-1b'] }], false, true],
    ['zone Exists', [{ key: 'zone', operator: 'Exists' }], true, false],
    ['zone DoesNotExist', [{ key: 'zone', operator: 'DoesNotExist' }], false, true],
    ['Gt on a non-number never matches', [{ key: 'provider', operator: 'Gt', values: ['1'] }], false, false],
    ['invalid Gt bound matches nothing', [{ key: 'provider', operator: 'Gt', values: ['x'] }], false, false],
  ];
  it.each(cases)('%s', (_name, matchExpressions, wantC, wantNoZones) => {
    expect(fieldSelectorMatches({ matchExpressions }, c)).toBe(wantC);
    expect(fieldSelectorMatches({ matchExpressions }, noZones)).toBe(wantNoZones);
  });
});

describe('clusterMatchesAffinity', () => {
  const c = cluster('member1', { labels: { env: 'prod' }, provider: 'aws' });
  const cases: Array<[string, ClusterAffinity, boolean]> = [
    ['empty affinity matches all', {}, true],
    ['empty clusterNames matches all', { clusterNames: [] }, true],
    ['named', { clusterNames: ['member1'] }, true],
    ['not named', { clusterNames: ['member2'] }, false],
    ['excluded', { exclude: ['member1'] }, false],
    [
      'all parts must match',
      { clusterNames: ['member1'], labelSelector: { matchLabels: { env: 'dev' } } },
      false,
    ],
    [
      'label, field and name together',
      {
        clusterNames: ['member1'],
        labelSelector: { matchLabels: { env: 'prod' } },
        fieldSelector: { matchExpressions: [{ key: 'provider', operator: 'In', values: ['aws'] }] },
      },
      true,
    ],
  ];
  it.each(cases)('%s', (_name, affinity, want) => {
    expect(clusterMatchesAffinity(c, affinity)).toBe(want);
  });
});
