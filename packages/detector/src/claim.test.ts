import { Annotations, Labels } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  claimStillHeld,
  isClaimedByOtherFeature,
  permanentIdOf,
  REMOVE_PROPAGATION_POLICY_CLAIM,
  readClaim,
  templateClaimChange,
  unclaimChange,
} from './claim.js';
import { MissingPermanentIdError } from './errors.js';
import { applyMetadataChange, changesNothing, withMetadataChange } from './metadata-change.js';
import { all, cpp, cppClaimed, pp, ppClaimed } from './testing/fixtures.js';

const policy = pp('nginx-pp', [all()]);
const clusterPolicy = cpp('nginx-cpp', [all()]);
const PP_ID = 'pp-id-nginx-pp';
const CPP_ID = 'cpp-id-nginx-cpp';

describe('readClaim', () => {
  it('reads a complete PropagationPolicy claim', () => {
    expect(readClaim(ppClaimed({}, policy))).toEqual({
      kind: 'PropagationPolicy',
      namespace: 'default',
      name: 'nginx-pp',
      permanentId: PP_ID,
    });
  });

  it('reads a complete ClusterPropagationPolicy claim', () => {
    expect(readClaim(cppClaimed({}, clusterPolicy))).toEqual({
      kind: 'ClusterPropagationPolicy',
      name: 'nginx-cpp',
      permanentId: CPP_ID,
    });
  });

  it('prefers the PropagationPolicy claim when both are present', () => {
    expect(readClaim(ppClaimed(cppClaimed({}, clusterPolicy), policy))?.kind).toBe('PropagationPolicy');
  });

  it.each([
    [
      'no id label',
      {
        annotations: {
          [Annotations.PropagationPolicyNamespace]: 'd',
          [Annotations.PropagationPolicyName]: 'n',
        },
      },
    ],
    [
      'no namespace annotation',
      {
        labels: { [Labels.PropagationPolicyPermanentId]: 'x' },
        annotations: { [Annotations.PropagationPolicyName]: 'n' },
      },
    ],
    ['cpp without name', { labels: { [Labels.ClusterPropagationPolicyPermanentId]: 'x' } }],
    ['nothing', {}],
  ])('a partial claim counts as none: %s', (_name, meta) => {
    expect(readClaim(meta)).toBeUndefined();
  });

  it('sees objects owned by another Karmada feature', () => {
    expect(
      isClaimedByOtherFeature({ labels: { [Labels.ResourceTemplateClaimedBy]: 'multiclusterservice' } }),
    ).toBe(true);
    expect(isClaimedByOtherFeature({ labels: { [Labels.ResourceTemplateClaimedBy]: '' } })).toBe(false);
    expect(isClaimedByOtherFeature({})).toBe(false);
  });
});

describe('templateClaimChange', () => {
  it('adds the PropagationPolicy claim to an unclaimed template', () => {
    const change = templateClaimChange({ labels: { app: 'web' } }, { kind: 'PropagationPolicy', policy });
    expect(change).toBeDefined();
    expect(applyMetadataChange({ labels: { app: 'web' } }, change!)).toEqual({
      labels: { app: 'web', [Labels.PropagationPolicyPermanentId]: PP_ID },
      annotations: {
        [Annotations.PropagationPolicyNamespace]: 'default',
        [Annotations.PropagationPolicyName]: 'nginx-pp',
      },
    });
  });

  it('writes nothing when the same PropagationPolicy id is present and no CPP label is', () => {
    expect(templateClaimChange(ppClaimed({}, policy), { kind: 'PropagationPolicy', policy })).toBeUndefined();
    // Karmada checks only the id label for the no-op, not the annotations.
    expect(
      templateClaimChange(
        { labels: { [Labels.PropagationPolicyPermanentId]: PP_ID } },
        { kind: 'PropagationPolicy', policy },
      ),
    ).toBeUndefined();
  });

  it('a PropagationPolicy claim strips a ClusterPropagationPolicy claim', () => {
    const meta = cppClaimed({ labels: { app: 'web' } }, clusterPolicy);
    const change = templateClaimChange(meta, { kind: 'PropagationPolicy', policy })!;
    const after = applyMetadataChange(meta, change);
    expect(after.labels).toEqual({ app: 'web', [Labels.PropagationPolicyPermanentId]: PP_ID });
    expect(after.annotations).not.toHaveProperty(Annotations.ClusterPropagationPolicyName);
    expect(after.annotations).toHaveProperty(Annotations.PropagationPolicyName, 'nginx-pp');
  });

  it('even a PP-claimed template is rewritten while a stale CPP label remains', () => {
    const meta = ppClaimed(cppClaimed({}, clusterPolicy), policy);
    const change = templateClaimChange(meta, { kind: 'PropagationPolicy', policy });
    expect(change).toBeDefined();
    expect(changesNothing(meta, change!)).toBe(false);
  });

  it('a ClusterPropagationPolicy claim adds its own claim and strips nothing', () => {
    const meta = ppClaimed({}, pp('old', [all()]));
    const change = templateClaimChange(meta, { kind: 'ClusterPropagationPolicy', policy: clusterPolicy })!;
    const after = applyMetadataChange(meta, change);
    expect(after.labels).toEqual({
      [Labels.PropagationPolicyPermanentId]: 'pp-id-old',
      [Labels.ClusterPropagationPolicyPermanentId]: CPP_ID,
    });
    expect(after.annotations).toHaveProperty(Annotations.ClusterPropagationPolicyName, 'nginx-cpp');
  });

  it('a ClusterPropagationPolicy claim with the same id writes nothing', () => {
    expect(
      templateClaimChange(cppClaimed({}, clusterPolicy), {
        kind: 'ClusterPropagationPolicy',
        policy: clusterPolicy,
      }),
    ).toBeUndefined();
  });

  it("needs the policy's permanent id (set by Karmada's webhook)", () => {
    const noId = pp('no-id', [all()], { id: null });
    expect(() => templateClaimChange({}, { kind: 'PropagationPolicy', policy: noId })).toThrow(
      MissingPermanentIdError,
    );
    expect(() => permanentIdOf({ kind: 'PropagationPolicy', policy: noId })).toThrow(/default\/no-id/);
  });
});

describe('unclaiming', () => {
  it('removes exactly the PropagationPolicy keys', () => {
    const meta = ppClaimed({ labels: { app: 'web' }, annotations: { note: 'x' } }, policy);
    expect(withMetadataChange(meta, REMOVE_PROPAGATION_POLICY_CLAIM)).toEqual({
      labels: { app: 'web' },
      annotations: { note: 'x' },
    });
  });

  it('drops maps that end up empty, as the wire would', () => {
    expect(withMetadataChange(ppClaimed({ name: 'x' }, policy), REMOVE_PROPAGATION_POLICY_CLAIM)).toEqual({
      name: 'x',
    });
  });

  it("only while the claim is still this policy's (issue #5307)", () => {
    const meta = ppClaimed({}, policy);
    expect(unclaimChange(meta, 'PropagationPolicy', PP_ID)).toBe(REMOVE_PROPAGATION_POLICY_CLAIM);
    expect(unclaimChange(meta, 'PropagationPolicy', 'someone-else')).toBeUndefined();
    expect(unclaimChange(meta, 'ClusterPropagationPolicy', PP_ID)).toBeUndefined();
    expect(claimStillHeld(meta, { [Labels.PropagationPolicyPermanentId]: PP_ID })).toBe(true);
    expect(claimStillHeld({}, { [Labels.PropagationPolicyPermanentId]: PP_ID })).toBe(false);
  });
});
