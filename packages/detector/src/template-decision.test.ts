import { type ClusterPropagationPolicy, Labels, type PropagationPolicy } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { decideTemplate, type PolicyLookup } from './template-decision.js';
import { all, byName, cpp, cppClaimed, deployment, pp, ppClaimed } from './testing/fixtures.js';

function lookup(
  pps: readonly PropagationPolicy[],
  cpps: readonly ClusterPropagationPolicy[],
  overrides?: readonly string[],
): PolicyLookup {
  return {
    propagationPolicies: pps,
    clusterPropagationPolicies: cpps,
    propagationPolicy: (ns, name) => pps.find((p) => p.metadata.namespace === ns && p.metadata.name === name),
    clusterPropagationPolicy: (name) => cpps.find((p) => p.metadata.name === name),
    ...(overrides === undefined
      ? {}
      : { overridePolicyExists: (_ns: string, name: string) => overrides.includes(name) }),
  };
}

const web = deployment('web');
const local = pp('local', [all()]);
const global = cpp('global', [all()]);

describe('decideTemplate', () => {
  it('leaves objects owned by another Karmada feature alone', () => {
    const owned = {
      ...web,
      metadata: { ...web.metadata, labels: { [Labels.ResourceTemplateClaimedBy]: 'mcs' } },
    };
    expect(decideTemplate(owned, lookup([local], [global]))).toEqual({
      action: 'ignore',
      reason: 'claimed-by-other-feature',
    });
  });

  it('matches an unclaimed template, PropagationPolicy first', () => {
    expect(decideTemplate(web, lookup([local], [global]))).toEqual({
      action: 'apply',
      policy: { kind: 'PropagationPolicy', policy: local },
      matched: true,
    });
    expect(decideTemplate(web, lookup([], [global]))).toEqual({
      action: 'apply',
      policy: { kind: 'ClusterPropagationPolicy', policy: global },
      matched: true,
    });
  });

  it('follows an existing claim instead of re-matching, even if a better policy exists now', () => {
    const better = pp('better', [byName('web')], { priority: 100 });
    const claimed = { ...web, metadata: ppClaimed(web.metadata, local) };
    expect(decideTemplate(claimed, lookup([better, local], []))).toEqual({
      action: 'apply',
      policy: { kind: 'PropagationPolicy', policy: local },
      matched: false,
    });
  });

  it('follows a ClusterPropagationPolicy claim', () => {
    const claimed = { ...web, metadata: cppClaimed(web.metadata, global) };
    expect(decideTemplate(claimed, lookup([local], [global]))).toMatchObject({
      action: 'apply',
      matched: false,
    });
  });

  it('cleans up a claim whose policy is gone', () => {
    const claimed = { ...web, metadata: ppClaimed(web.metadata, local) };
    expect(decideTemplate(claimed, lookup([], []))).toEqual({
      action: 'cleanup-stale-claim',
      claim: { kind: 'PropagationPolicy', namespace: 'default', name: 'local', permanentId: 'pp-id-local' },
    });
  });

  it('retries while the claiming policy is being deleted', () => {
    const deleting = pp('local', [all()], { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } });
    const claimed = { ...web, metadata: ppClaimed(web.metadata, deleting) };
    expect(decideTemplate(claimed, lookup([deleting], []))).toMatchObject({
      action: 'retry',
      reason: 'policy-being-deleted',
    });
  });

  it('does nothing when the claiming policy no longer selects the object', () => {
    const narrowed = pp('local', [byName('other')]);
    const claimed = { ...web, metadata: ppClaimed(web.metadata, narrowed) };
    expect(decideTemplate(claimed, lookup([narrowed], []))).toMatchObject({
      action: 'none',
      reason: 'claimed-policy-no-longer-matches',
    });
  });

  it('waits for dependent overrides', () => {
    const dependent = pp('local', [all()], { spec: { dependentOverrides: ['op-a', 'op-b'] } });
    expect(decideTemplate(web, lookup([dependent], [], ['op-a']))).toMatchObject({
      action: 'retry',
      reason: 'waiting-for-dependent-overrides',
    });
    expect(decideTemplate(web, lookup([dependent], [], ['op-a', 'op-b']))).toMatchObject({ action: 'apply' });
  });

  it('reports no match', () => {
    expect(decideTemplate(web, lookup([pp('x', [byName('db')])], []))).toEqual({ action: 'no-match' });
  });
});
