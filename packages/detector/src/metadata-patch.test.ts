import { Annotations, Labels } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { REMOVE_PROPAGATION_POLICY_CLAIM } from './claim.js';
import { metadataMergePatch } from './metadata-patch.js';

describe('metadataMergePatch', () => {
  it('sets only the keys that change, conditional on the resourceVersion', () => {
    const patch = metadataMergePatch(
      { labels: { app: 'web', [Labels.PropagationPolicyPermanentId]: 'old' } },
      {
        setLabels: { [Labels.PropagationPolicyPermanentId]: 'new', app: 'web' },
        removeLabels: [],
        setAnnotations: { [Annotations.PropagationPolicyName]: 'pp' },
        removeAnnotations: [],
      },
      '42',
    );
    expect(patch).toEqual({
      metadata: {
        resourceVersion: '42',
        labels: { [Labels.PropagationPolicyPermanentId]: 'new' },
        annotations: { [Annotations.PropagationPolicyName]: 'pp' },
      },
    });
  });

  it('removes present keys with null and ignores absent ones', () => {
    const patch = metadataMergePatch(
      {
        labels: { [Labels.PropagationPolicyPermanentId]: 'id' },
        annotations: { [Annotations.PropagationPolicyName]: 'pp', keep: 'me' },
      },
      REMOVE_PROPAGATION_POLICY_CLAIM,
    );
    expect(patch).toEqual({
      metadata: {
        labels: { [Labels.PropagationPolicyPermanentId]: null },
        annotations: { [Annotations.PropagationPolicyName]: null },
      },
    });
  });

  it('is undefined when nothing would change', () => {
    expect(metadataMergePatch({ labels: { a: 'b' } }, REMOVE_PROPAGATION_POLICY_CLAIM, '1')).toBeUndefined();
  });
});
