import { describe, expect, it } from 'vitest';
import { InvalidObjectKeyError } from './errors.js';
import {
  clusterWideKey,
  decodeTemplateKey,
  encodeTemplateKey,
  formatClusterWideKey,
  formatTemplateKey,
} from './keys.js';
import { clusterRole, deployment } from './testing/fixtures.js';

describe('clusterWideKey', () => {
  it('splits apiVersion into group and version', () => {
    expect(clusterWideKey(deployment('web'))).toEqual({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      namespace: 'default',
      name: 'web',
    });
    expect(
      clusterWideKey({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' } }).group,
    ).toBe('');
  });

  it('prints like Karmada', () => {
    expect(formatClusterWideKey(clusterWideKey(deployment('web')))).toBe(
      'apps/v1, kind=Deployment, default/web',
    );
    expect(formatClusterWideKey(clusterWideKey(clusterRole('r')))).toBe(
      'rbac.authorization.k8s.io/v1, kind=ClusterRole, r',
    );
    expect(
      formatClusterWideKey({ group: '', version: 'v1', kind: 'Namespace', namespace: '', name: 'ns' }),
    ).toBe('v1, kind=Namespace, ns');
  });

  it('keeps resourceChangeByKarmada in the template key', () => {
    const key = clusterWideKey(deployment('web'));
    expect(formatTemplateKey({ ...key, resourceChangeByKarmada: true })).not.toBe(
      formatTemplateKey({ ...key, resourceChangeByKarmada: false }),
    );
  });

  it.each([
    ['no kind', { apiVersion: 'v1', kind: '', metadata: { name: 'x' } }],
    ['no version', { apiVersion: 'apps/', kind: 'Deployment', metadata: { name: 'x' } }],
    ['no apiVersion', { apiVersion: '', kind: 'Pod', metadata: { name: 'x' } }],
  ])('refuses an object with %s', (_name, object) => {
    expect(() => clusterWideKey(object)).toThrow(InvalidObjectKeyError);
  });
});

describe('template queue keys', () => {
  it('round-trip, with the resourceChangeByKarmada flag as a distinct key', () => {
    const core = {
      group: '',
      version: 'v1',
      kind: 'ConfigMap',
      namespace: 'ns',
      name: 'c',
      resourceChangeByKarmada: false,
    };
    const role = {
      group: 'rbac.authorization.k8s.io',
      version: 'v1',
      kind: 'ClusterRole',
      namespace: '',
      name: 'system:aggregate-to-edit',
      resourceChangeByKarmada: true,
    };
    expect(encodeTemplateKey(core)).toBe('/v1/ConfigMap/ns/c');
    expect(decodeTemplateKey(encodeTemplateKey(core))).toEqual(core);
    expect(decodeTemplateKey(encodeTemplateKey(role))).toEqual(role);
    expect(encodeTemplateKey({ ...core, resourceChangeByKarmada: true })).not.toBe(encodeTemplateKey(core));
  });

  it('rejects text that is not a key', () => {
    expect(() => decodeTemplateKey('apps/v1/Deployment/web')).toThrow(InvalidObjectKeyError);
    expect(() => decodeTemplateKey('apps/v1//ns/web')).toThrow(InvalidObjectKeyError);
  });
});
