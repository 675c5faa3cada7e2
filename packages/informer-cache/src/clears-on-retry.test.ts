import { describe, expect, it } from 'vitest';
import { clearsOnRetry } from './clears-on-retry.js';
import { ApiError, CacheSyncTimeoutError, ForbiddenResourceError } from './errors.js';
import { deployments } from './testing/fixtures.js';

describe('clearsOnRetry', () => {
  it('is true for a 409 of either reason and for a read that gave up on a syncing cache', () => {
    expect(clearsOnRetry(new ApiError(409, 'PUT', '/x', { reason: 'Conflict' }))).toBe(true);
    expect(clearsOnRetry(new ApiError(409, 'POST', '/x', { reason: 'AlreadyExists' }))).toBe(true);
    expect(clearsOnRetry(Object.assign(new Error('conflict'), { code: 409 }))).toBe(true);
    expect(
      clearsOnRetry(
        new CacheSyncTimeoutError(deployments, 'host', 120_000, 'listed 90,500', { stalledMs: 120_000 }),
      ),
    ).toBe(true);
  });

  it('is false for what someone has to act on: a refused or invalid write, a forbidden list, a bug', () => {
    expect(clearsOnRetry(new ApiError(422, 'POST', '/x', { reason: 'Invalid' }))).toBe(false);
    expect(clearsOnRetry(new ApiError(403, 'POST', '/x', undefined))).toBe(false);
    expect(clearsOnRetry(new ForbiddenResourceError(deployments, 'host', 403, 'forbidden'))).toBe(false);
    expect(clearsOnRetry(new TypeError('spec.template is not an object'))).toBe(false);
    expect(clearsOnRetry(undefined)).toBe(false);
    expect(clearsOnRetry(null)).toBe(false);
  });
});
