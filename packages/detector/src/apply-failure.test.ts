import { KarmadaResources } from '@warmstart/api';
import { CacheSyncTimeoutError } from '@warmstart/informer-cache';
import { describe, expect, it } from 'vitest';
import { reportsApplyFailure } from './apply-failure.js';
import { MissingPermanentIdError } from './errors.js';

describe('reportsApplyFailure', () => {
  it('reports what the user has to act on: a refused write, a server error', () => {
    expect(reportsApplyFailure(Object.assign(new Error('forbidden'), { code: 403 }))).toBe(true);
    expect(reportsApplyFailure(Object.assign(new Error('internal'), { code: 500 }))).toBe(true);
    expect(reportsApplyFailure(new Error('no code'))).toBe(true);
  });

  it('does not report a cache still listing past the read deadline: the retry reads it synced', () => {
    const timeout = new CacheSyncTimeoutError(
      KarmadaResources.ResourceBinding,
      'host',
      120_000,
      'listed 90,500 objects',
    );
    expect(reportsApplyFailure(timeout)).toBe(false);
  });

  it('does not report a 409 from a cache behind our own write, nor a policy without its permanent id', () => {
    expect(reportsApplyFailure(Object.assign(new Error('exists'), { code: 409 }))).toBe(false);
    expect(reportsApplyFailure(new MissingPermanentIdError('PropagationPolicy', 'default/p'))).toBe(false);
  });
});
