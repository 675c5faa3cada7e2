import { describe, expect, it } from 'vitest';
import { planClusterRemoval, targetsTerminatingCluster } from './cluster-removal.js';
import { cluster } from './testing/fixtures.js';

const DELETED_AT = Date.parse('2026-01-02T00:00:00Z');
const removing = (finalizers: string[] = ['karmada.io/cluster-controller', 'other']) => {
  const c = cluster('member1', { deleting: true });
  return { ...c, metadata: { ...c.metadata, finalizers } };
};
const base = { works: 0, bindings: [], now: DELETED_AT + 1_000, timeoutMs: 60_000 };

describe('planClusterRemoval', () => {
  it('deletes the execution namespace first', () => {
    expect(
      planClusterRemoval({ ...base, cluster: removing(), namespace: { deleting: false }, works: 2 }),
    ).toEqual({
      kind: 'delete-namespace',
      namespace: 'karmada-es-member1',
    });
  });

  it('waits for the namespace (and its Works) to go, and reports it only past the deadline', () => {
    const waiting = { ...base, cluster: removing(), namespace: { deleting: true }, works: 2 };
    expect(planClusterRemoval(waiting)).toEqual({ kind: 'wait', for: 'namespace', stuck: undefined });
    const late = planClusterRemoval({ ...waiting, now: DELETED_AT + 61_000 });
    expect(late).toMatchObject({ kind: 'wait', for: 'namespace' });
    expect(late.kind === 'wait' && late.stuck).toMatch(/karmada-es-member1 still holds 2 Work/);
  });

  it('then waits until no binding targets the cluster', () => {
    const got = planClusterRemoval({
      ...base,
      cluster: removing(),
      namespace: undefined,
      bindings: ['rb:ns/web-deployment'],
      now: DELETED_AT + 61_000,
    });
    expect(got).toMatchObject({ kind: 'wait', for: 'bindings' });
    expect(got.kind === 'wait' && got.stuck).toContain('rb:ns/web-deployment');
  });

  it('then drops only its own finalizer, and writes nothing when it is already gone', () => {
    expect(planClusterRemoval({ ...base, cluster: removing(), namespace: undefined })).toEqual({
      kind: 'remove-finalizer',
      finalizers: ['other'],
    });
    expect(planClusterRemoval({ ...base, cluster: removing(['other']), namespace: undefined })).toEqual({
      kind: 'remove-finalizer',
      finalizers: undefined,
    });
  });
});

describe('targetsTerminatingCluster', () => {
  it('is true only for a binding whose spec.clusters names a cluster being deleted', () => {
    const clusters = [cluster('member1'), cluster('member2', { deleting: true })];
    expect(targetsTerminatingCluster({ spec: { clusters: [{ name: 'member2' }] } }, clusters)).toBe(true);
    expect(targetsTerminatingCluster({ spec: { clusters: [{ name: 'member1' }] } }, clusters)).toBe(false);
    expect(targetsTerminatingCluster({ spec: {} }, clusters)).toBe(false);
  });
});
