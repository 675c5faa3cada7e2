import { describe, expect, it } from 'vitest';
import { AppliedVersions } from './applied-versions.js';

describe('AppliedVersions', () => {
  it('knows our own write and the version it replaced (a cache not caught up yet), nothing else', () => {
    const v = new AppliedVersions();
    const key = AppliedVersions.key({ group: 'apps', resource: 'deployments' }, 'ns', 'web');
    expect(v.isCurrent('m1', key, '5')).toBe(false);
    v.record('m1', key, '7', '5');
    expect(v.isCurrent('m1', key, '7')).toBe(true);
    expect(v.isCurrent('m1', key, '5')).toBe(true);
    expect(v.isCurrent('m1', key, '9')).toBe(false);
    expect(v.isCurrent('m2', key, '7')).toBe(false);
    v.forgetCluster('m1');
    expect(v.get('m1', key)).toBeUndefined();
  });
});
