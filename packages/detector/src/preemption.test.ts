// Mirrors Karmada's preemption e2e cases: PP > lower PP, PP > any CPP, CPP > lower CPP.
import { describe, expect, it } from 'vitest';
import { deprioritizedPeers, preemptionDecision } from './preemption.js';
import { all, byName, cpp, cppClaimed, pp, ppClaimed } from './testing/fixtures.js';

const always = { preemption: 'Always' as const };
const heldByPp = ppClaimed({ name: 'web', namespace: 'default' }, pp('holder', [all()], { priority: 1 }));
const heldByCpp = cppClaimed({ name: 'web', namespace: 'default' }, cpp('holder', [all()], { priority: 1 }));

describe('preemptionDecision', () => {
  it.each([
    [
      'PP with higher priority takes from a PP',
      pp('hi', [byName('web')], { priority: 5, spec: always }),
      heldByPp,
      1,
      true,
    ],
    [
      'PP with equal priority does not',
      pp('eq', [byName('web')], { priority: 1, spec: always }),
      heldByPp,
      1,
      false,
    ],
    [
      'PP with lower priority does not',
      pp('lo', [byName('web')], { priority: 0, spec: always }),
      heldByPp,
      1,
      false,
    ],
    [
      'PP takes from any CPP, whatever the priorities',
      pp('lo', [byName('web')], { priority: -5, spec: always }),
      heldByCpp,
      100,
      true,
    ],
    [
      'CPP with higher priority takes from a CPP',
      cpp('hi', [byName('web')], { priority: 5, spec: always }),
      heldByCpp,
      1,
      true,
    ],
    [
      'CPP with equal priority does not',
      cpp('eq', [byName('web')], { priority: 1, spec: always }),
      heldByCpp,
      1,
      false,
    ],
    [
      'CPP never takes from a PP',
      cpp('hi', [byName('web')], { priority: 100, spec: always }),
      heldByPp,
      1,
      false,
    ],
  ] as const)('%s', (_name, policy, template, claimedPriority, preempt) => {
    const preemptor =
      policy.kind === 'PropagationPolicy'
        ? ({ kind: 'PropagationPolicy', policy } as const)
        : ({ kind: 'ClusterPropagationPolicy', policy } as const);
    const decision = preemptionDecision({
      preemptor,
      template,
      claimedPolicyPriority: claimedPriority,
      policyPreemptionEnabled: true,
    });
    expect(decision.preempt).toBe(preempt);
  });

  it('explains why it does not preempt', () => {
    const hi = {
      kind: 'PropagationPolicy',
      policy: pp('hi', [byName('web')], { priority: 5, spec: always }),
    } as const;
    const never = { kind: 'PropagationPolicy', policy: pp('hi', [byName('web')], { priority: 5 }) } as const;
    const base = { template: heldByPp, claimedPolicyPriority: 1, policyPreemptionEnabled: true };
    expect(preemptionDecision({ ...base, preemptor: hi, policyPreemptionEnabled: false })).toEqual({
      preempt: false,
      reason: 'gate-disabled',
    });
    expect(preemptionDecision({ ...base, preemptor: never })).toEqual({
      preempt: false,
      reason: 'preemption-never',
    });
    expect(preemptionDecision({ ...base, preemptor: hi, template: { name: 'web' } })).toEqual({
      preempt: false,
      reason: 'not-claimed',
    });
    expect(
      preemptionDecision({
        ...base,
        preemptor: hi,
        template: { ...heldByPp, deletionTimestamp: '2026-01-01T00:00:00Z' },
      }),
    ).toEqual({ preempt: false, reason: 'template-being-deleted' });
    const self = {
      kind: 'PropagationPolicy',
      policy: pp('holder', [all()], { priority: 9, spec: always }),
    } as const;
    expect(preemptionDecision({ ...base, preemptor: self })).toEqual({
      preempt: false,
      reason: 'claimed-by-self',
    });
  });

  it('names the claim it takes over', () => {
    const hi = {
      kind: 'PropagationPolicy',
      policy: pp('hi', [byName('web')], { priority: 5, spec: always }),
    } as const;
    expect(
      preemptionDecision({
        preemptor: hi,
        template: heldByPp,
        claimedPolicyPriority: 1,
        policyPreemptionEnabled: true,
      }),
    ).toEqual({
      preempt: true,
      from: { kind: 'PropagationPolicy', namespace: 'default', name: 'holder', permanentId: 'pp-id-holder' },
    });
  });
});

describe('deprioritizedPeers', () => {
  const peer = (name: string, priority: number | undefined, preemption?: 'Always' | 'Never') =>
    pp(name, [all()], {
      ...(priority === undefined ? {} : { priority }),
      ...(preemption === undefined ? {} : { spec: { preemption } }),
    });

  it('picks preempting peers strictly between the new and old priority, highest first', () => {
    const peers = [
      peer('p3', 3, 'Always'),
      peer('p7', 7, 'Always'),
      peer('p5', 5, 'Always'),
      peer('p10', 10, 'Always'),
      peer('p1', 1, 'Always'),
      peer('never', 6, 'Never'),
      peer('unset', undefined, 'Always'),
    ];
    expect(deprioritizedPeers(10, 1, peers).map((p) => p.metadata.name)).toEqual(['p7', 'p5', 'p3']);
  });

  it('does nothing when the priority went up or stayed', () => {
    expect(deprioritizedPeers(1, 10, [peer('p5', 5, 'Always')])).toEqual([]);
    expect(deprioritizedPeers(5, 5, [peer('p5', 5, 'Always')])).toEqual([]);
  });
});
