import { describe, expect, it } from 'vitest';
import { describeRelists, relistCounts, relistsBetween } from './manager-relists.js';

const before = `# HELP warmstart_informer_relists_total Relists, by reason (initial, expired = 410 Gone, error, watchdog).
# TYPE warmstart_informer_relists_total counter
warmstart_informer_relists_total{cluster="host",resource="work.karmada.io/v1alpha1/works",reason="initial"} 1
warmstart_informer_relists_total{cluster="host",resource="work.karmada.io/v1alpha2/resourcebindings",reason="expired"} 1
warmstart_informer_relists_total_created 5
warmstart_informer_watch_restarts_total{cluster="host",resource="work.karmada.io/v1alpha1/works",reason="watchdog"} 3
`;
const after = `warmstart_informer_relists_total{cluster="host",resource="work.karmada.io/v1alpha1/works",reason="initial"} 1
warmstart_informer_relists_total{cluster="host",resource="work.karmada.io/v1alpha1/works",reason="expired"} 1
warmstart_informer_relists_total{cluster="host",resource="work.karmada.io/v1alpha2/resourcebindings",reason="expired"} 3
warmstart_informer_relists_total{cluster="member1",resource="apps/v1/deployments",reason="error"} 0
`;

describe('relists of an idle manager', () => {
  it('reads the relist counter by cluster, resource and reason, leaving out each informer`s initial list', () => {
    expect(relistCounts(before)).toEqual([
      { cluster: 'host', resource: 'work.karmada.io/v1alpha2/resourcebindings', reason: 'expired', count: 1 },
    ]);
  });

  it('keeps only what was counted between two readings', () => {
    expect(relistsBetween(relistCounts(before), relistCounts(after))).toEqual([
      { cluster: 'host', resource: 'work.karmada.io/v1alpha1/works', reason: 'expired', count: 1 },
      { cluster: 'host', resource: 'work.karmada.io/v1alpha2/resourcebindings', reason: 'expired', count: 2 },
    ]);
  });

  it('describes them for the floor lines', () => {
    expect(describeRelists(relistsBetween(relistCounts(before), relistCounts(after)))).toBe(
      'host work.karmada.io/v1alpha1/works (expired), host work.karmada.io/v1alpha2/resourcebindings (expired) x2',
    );
    expect(describeRelists([])).toBe('none');
    expect(describeRelists(undefined)).toBe('not read');
  });
});
