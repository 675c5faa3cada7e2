// The priority tables mirror Karmada's pkg/detector/compare_test.go and the e2e matching cases.
import { describe, expect, it } from 'vitest';
import { findClaimingPolicy, highestPriorityPolicy } from './policy-choice.js';
import { ImplicitPriority, implicitPriority, resourceSelectorPriority } from './resource-selector.js';
import { all, byLabels, byName, clusterRole, cpp, deployment, pp } from './testing/fixtures.js';

const web = deployment('web', { labels: { app: 'web' } });

describe('resourceSelectorPriority', () => {
  it.each([
    ['name match', byName('web'), ImplicitPriority.MatchName],
    ['name mismatch', byName('db'), ImplicitPriority.MisMatch],
    [
      'name set: labelSelector is ignored',
      byName('web', { labelSelector: { matchLabels: { app: 'db' } } }),
      ImplicitPriority.MatchName,
    ],
    ['labelSelector match', byLabels({ matchLabels: { app: 'web' } }), ImplicitPriority.MatchLabelSelector],
    ['labelSelector mismatch', byLabels({ matchLabels: { app: 'db' } }), ImplicitPriority.MisMatch],
    ['empty labelSelector matches everything', byLabels({}), ImplicitPriority.MatchLabelSelector],
    ['no name, no labelSelector: match all', all(), ImplicitPriority.MatchAll],
    [
      'invalid labelSelector is a mismatch',
      byLabels({ matchExpressions: [{ key: 'app', operator: 'Bad' }] }),
      ImplicitPriority.MisMatch,
    ],
    ['same namespace', all({ namespace: 'default' }), ImplicitPriority.MatchAll],
    ['other namespace', all({ namespace: 'prod' }), ImplicitPriority.MisMatch],
    ['apiVersion must be equal as a string', all({ apiVersion: 'apps/v1beta1' }), ImplicitPriority.MisMatch],
    ['kind must be equal', all({ kind: 'StatefulSet' }), ImplicitPriority.MisMatch],
  ])('%s', (_name, selector, expected) => {
    expect(resourceSelectorPriority(web, selector)).toBe(expected);
  });

  it('takes the best selector of a policy', () => {
    expect(implicitPriority(web, [all(), byLabels({ matchLabels: { app: 'web' } })])).toBe(
      ImplicitPriority.MatchLabelSelector,
    );
    expect(implicitPriority(web, [all(), byName('web')])).toBe(ImplicitPriority.MatchName);
    expect(implicitPriority(web, [byName('db')])).toBe(ImplicitPriority.MisMatch);
  });
});

describe('highestPriorityPolicy', () => {
  it('name beats labelSelector beats match-all', () => {
    const name = pp('z-name', [byName('web')]);
    const label = pp('a-label', [byLabels({ matchLabels: { app: 'web' } })]);
    const everything = pp('a-all', [all()]);
    expect(highestPriorityPolicy(web, [everything, label, name])).toBe(name);
    expect(highestPriorityPolicy(web, [everything, label])).toBe(label);
    expect(highestPriorityPolicy(web, [everything])).toBe(everything);
  });

  it('explicit priority comes first', () => {
    const high = pp('high-all', [all()], { priority: 10 });
    const name = pp('name', [byName('web')], { priority: 5 });
    expect(highestPriorityPolicy(web, [name, high])).toBe(high);
  });

  it('an explicit -1 name match loses to an implicit priority-0 label-selector match', () => {
    const negative = pp('negative-name', [byName('web')], { priority: -1 });
    const zero = pp('zero-label', [byLabels({ matchLabels: { app: 'web' } })]);
    expect(highestPriorityPolicy(web, [negative, zero])).toBe(zero);
  });

  it('negative priorities still match when nothing else does', () => {
    const a = pp('a', [all()], { priority: -5 });
    const b = pp('b', [all()], { priority: -3 });
    expect(highestPriorityPolicy(web, [a, b])).toBe(b);
  });

  it('absent priority counts as 0', () => {
    const unset = pp('unset', [byName('web')]);
    const zero = pp('zero', [all()], { priority: 0 });
    expect(highestPriorityPolicy(web, [zero, unset])).toBe(unset);
  });

  it('equal explicit and implicit priorities are settled by the alphabetically smaller name', () => {
    const foo = pp('foo', [all()], { priority: 1 });
    const bar = pp('bar', [all()], { priority: 1 });
    expect(highestPriorityPolicy(web, [foo, bar])).toBe(bar);
    expect(highestPriorityPolicy(web, [bar, foo])).toBe(bar);
  });

  it('name order is bytewise, like Go (upper case sorts before lower case)', () => {
    const lower = pp('a', [all()]);
    const upper = pp('B', [all()]);
    expect(highestPriorityPolicy(web, [lower, upper])).toBe(upper);
  });

  it('ignores policies that do not match or are being deleted', () => {
    const deleting = pp('a', [byName('web')], { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } });
    const other = pp('b', [byName('db')]);
    const fallback = pp('c', [all()]);
    expect(highestPriorityPolicy(web, [deleting, other, fallback])).toBe(fallback);
    expect(highestPriorityPolicy(web, [deleting, other])).toBeUndefined();
  });
});

describe('findClaimingPolicy', () => {
  it('a PropagationPolicy wins over any ClusterPropagationPolicy, whatever their priorities', () => {
    const local = pp('local', [all()], { priority: -10 });
    const cluster = cpp('cluster', [byName('web')], { priority: 100 });
    expect(
      findClaimingPolicy(web, { propagationPolicies: [local], clusterPropagationPolicies: [cluster] }),
    ).toEqual({
      kind: 'PropagationPolicy',
      policy: local,
    });
  });

  it('falls back to ClusterPropagationPolicies when no PropagationPolicy matches', () => {
    const local = pp('local', [byName('db')]);
    const low = cpp('low', [all()], { priority: 1 });
    const high = cpp('high', [all()], { priority: 2 });
    expect(
      findClaimingPolicy(web, { propagationPolicies: [local], clusterPropagationPolicies: [low, high] }),
    ).toEqual({ kind: 'ClusterPropagationPolicy', policy: high });
  });

  it("only considers PropagationPolicies of the template's namespace", () => {
    const elsewhere = pp('elsewhere', [all()], { namespace: 'prod' });
    expect(
      findClaimingPolicy(web, { propagationPolicies: [elsewhere], clusterPropagationPolicies: [] }),
    ).toBeUndefined();
  });

  it('a cluster-scoped template is only matched by ClusterPropagationPolicies', () => {
    const role = clusterRole('reader');
    const selector = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' };
    const local = pp('local', [selector]);
    const cluster = cpp('cluster', [selector]);
    expect(
      findClaimingPolicy(role, { propagationPolicies: [local], clusterPropagationPolicies: [cluster] }),
    ).toEqual({
      kind: 'ClusterPropagationPolicy',
      policy: cluster,
    });
  });

  it('returns undefined when nothing matches', () => {
    expect(
      findClaimingPolicy(web, { propagationPolicies: [], clusterPropagationPolicies: [] }),
    ).toBeUndefined();
  });
});
