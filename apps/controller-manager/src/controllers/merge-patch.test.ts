// The merge patch that replaces a template's status: keys the new status lacks are removed, nested objects are
// patched field by field, and a null field counts as no field.
import { describe, expect, it } from 'vitest';
import { mergePatch, sameStatus } from './merge-patch.js';

describe('mergePatch', () => {
  it('removes what the new status leaves out and sets what changed, nothing else', () => {
    const from = {
      phase: 'Running',
      conditions: [{ type: 'Ready' }],
      loadBalancer: { ingress: [{ ip: 'a' }] },
    };
    const to = { phase: 'Running', loadBalancer: { ingress: [{ ip: 'b' }] } };
    expect(mergePatch(from, to)).toEqual({ conditions: null, loadBalancer: { ingress: [{ ip: 'b' }] } });
  });
  it('is empty between equal statuses, and a null field equals an absent one', () => {
    expect(mergePatch({ a: 1, b: { c: 2 } }, { a: 1, b: { c: 2 } })).toEqual({});
    expect(mergePatch({ desiredReplicas: 0 }, { desiredReplicas: 0, currentMetrics: null })).toEqual({});
    expect(sameStatus({ desiredReplicas: 0, currentMetrics: null }, { desiredReplicas: 0 })).toBe(true);
    expect(sameStatus({ desiredReplicas: 1 }, { desiredReplicas: 0 })).toBe(false);
  });
});
