import { KarmadaResources } from '@warmstart/api';
import { CacheSyncTimeoutError } from '@warmstart/informer-cache';
import { describe, expect, it } from 'vitest';
import { isReportedFailure } from './reported-failure.js';

describe('isReportedFailure', () => {
  const live = new AbortController().signal;

  it('reports real failures: a 422, a TypeError from a bad template', () => {
    expect(isReportedFailure(Object.assign(new Error('Work is invalid'), { code: 422 }), live)).toBe(true);
    expect(isReportedFailure(new TypeError('spec.template is not an object'), live)).toBe(true);
  });

  it('retries silently a 409, a cache that did not sync in time, and anything after abort', () => {
    expect(isReportedFailure(Object.assign(new Error('conflict'), { code: 409 }), live)).toBe(false);
    expect(
      isReportedFailure(
        new CacheSyncTimeoutError(KarmadaResources.Work, 'host', 120_000, 'listed 90,500 objects', {
          stalledMs: 120_000,
        }),
        live,
      ),
    ).toBe(false);
    expect(isReportedFailure(new Error('boom'), AbortSignal.abort())).toBe(false);
  });
});
