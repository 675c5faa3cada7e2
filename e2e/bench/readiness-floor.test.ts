import { describe, expect, it } from 'vitest';
import { cachedResources, floorMs, floorNote, type ReadinessFloor } from './readiness-floor.js';

describe('cachedResources', () => {
  it('groups the synced informers by cluster and skips those not yet synced', () => {
    const metrics = [
      '# HELP warmstart_informer_synced 1 once the informer has synced.',
      'warmstart_informer_synced{cluster="member1",resource="apps/v1/deployments"} 1',
      'warmstart_informer_synced{cluster="host",resource="work.karmada.io/v1alpha1/works"} 1',
      'warmstart_informer_synced{cluster="host",resource="apps/v1/deployments"} 1',
      'warmstart_informer_synced{cluster="host",resource="core/v1/pods"} 0',
      'warmstart_informer_objects{cluster="host",resource="core/v1/secrets"} 1',
    ].join('\n');
    expect([...cachedResources(metrics)]).toEqual([
      ['host', ['apps/v1/deployments', 'work.karmada.io/v1alpha1/works']],
      ['member1', ['apps/v1/deployments']],
    ]);
  });
});

describe('floorMs', () => {
  it('divides by the faster host part, not by the time everything took', () => {
    const floor: ReadinessFloor = {
      clusters: [
        { cluster: 'host', resources: 2, objects: 30000 },
        { cluster: 'member1', resources: 1, objects: 10000 },
      ],
      list: { hostMs: 7000, allMs: 9000 },
      watchList: { hostMs: 7500, allMs: 8000 },
    };
    expect(floorMs(floor)).toBe(7000);
    expect(floorNote(floor)).toContain('member1: 1 resources, 10000 objects');
  });
});
