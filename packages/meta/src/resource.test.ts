import { describe, expect, it } from 'vitest';
import { type GroupVersionResource, gvrToString, resource } from './resource.js';

describe('gvrToString', () => {
  it('names core and grouped resources', () => {
    const pods = resource({ group: '', version: 'v1', resource: 'pods', namespaced: true, kind: 'Pod' });
    const works = resource({
      group: 'work.karmada.io',
      version: 'v1alpha1',
      resource: 'works',
      namespaced: true,
      kind: 'Work',
    });
    expect(gvrToString(pods)).toBe('core/v1/pods');
    expect(gvrToString(works)).toBe('work.karmada.io/v1alpha1/works');
    // Remembered for a frozen descriptor: the same string each time.
    expect(gvrToString(works)).toBe(gvrToString(works));
  });

  it('follows a descriptor that is not frozen when it changes', () => {
    const gvr: { -readonly [K in keyof GroupVersionResource]: GroupVersionResource[K] } = {
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      namespaced: true,
      kind: 'Deployment',
    };
    expect(gvrToString(gvr)).toBe('apps/v1/deployments');
    gvr.resource = 'statefulsets';
    expect(gvrToString(gvr)).toBe('apps/v1/statefulsets');
  });
});
