import { describe, expect, it } from 'vitest';
import { isLazy, policyDrivenChangeFlag, skipBindingSync } from './lazy-activation.js';
import { all, cpp, pp } from './testing/fixtures.js';

const lazy = pp('lazy', [all()], { spec: { activationPreference: 'Lazy' } });
const eager = pp('eager', [all()]);

describe('lazy activation', () => {
  it('recognises Lazy policies of both kinds', () => {
    expect(isLazy(lazy)).toBe(true);
    expect(isLazy(eager)).toBe(false);
    expect(isLazy(cpp('c', [all()], { spec: { activationPreference: 'Lazy' } }))).toBe(true);
  });

  it('flags policy-driven enqueues only for Lazy policies', () => {
    expect(policyDrivenChangeFlag(lazy)).toBe(true);
    expect(policyDrivenChangeFlag(eager)).toBe(false);
  });

  it.each([
    ['a Lazy policy change waits for the user', true, lazy, true],
    ['a user edit under a Lazy policy syncs', false, lazy, false],
    ['an immediate policy always syncs', true, eager, false],
    ['the first bind (add events carry false) syncs', false, eager, false],
  ] as const)('%s', (_name, changeByKarmada, policy, skip) => {
    expect(skipBindingSync(changeByKarmada, policy)).toBe(skip);
  });
});
