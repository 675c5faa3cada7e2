import { describe, expect, it } from 'vitest';
import { clusterChangeCanMovePlacements } from './cluster-change.js';
import { cluster } from './testing/fixtures.js';

describe('clusterChangeCanMovePlacements', () => {
  const base = cluster('member1', { labels: { env: 'prod' } });

  it('ignores an update that touches nothing the scheduler reads, even with new label and status objects', () => {
    // A decoded watch event never shares objects with the previous version: equal content must count as equal.
    const copy = structuredClone(base);
    const next = {
      ...copy,
      metadata: { ...copy.metadata, annotations: { note: 'x' }, finalizers: ['f'], resourceVersion: '9' },
    };
    expect(next.metadata.labels).not.toBe(base.metadata.labels);
    expect(clusterChangeCanMovePlacements(base, next)).toBe(false);
  });

  it.each([
    ['labels', cluster('member1', { labels: { env: 'dev' } })],
    ['readiness', cluster('member1', { labels: { env: 'prod' }, ready: false })],
    ['taints', cluster('member1', { labels: { env: 'prod' }, taints: [{ key: 'k', effect: 'NoSchedule' }] })],
    ['region', cluster('member1', { labels: { env: 'prod' }, region: 'eu' })],
    ['deletion', cluster('member1', { labels: { env: 'prod' }, deleting: true })],
  ])('counts a change of %s', (_what, next) => {
    expect(clusterChangeCanMovePlacements(base, next)).toBe(true);
  });

  it('counts the start of a deletion on a cluster without labels', () => {
    expect(clusterChangeCanMovePlacements(cluster('m'), cluster('m', { deleting: true }))).toBe(true);
  });
});
