import type { Cluster } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { apiEndpointProblem, ClusterAccessReason, clusterAccess } from './cluster-access.js';

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64');
const TOKEN = Buffer.from('t0ken\n').toString('base64');

function cluster(spec: Partial<Cluster['spec']>, withSecret = true): Cluster {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member1' },
    spec: {
      syncMode: 'Push',
      ...(withSecret ? { secretRef: { namespace: 'karmada-cluster', name: 'member1' } } : {}),
      ...spec,
    },
  };
}

describe('clusterAccess', () => {
  it('turns an endpoint that does not parse into InvalidAPIEndpoint, naming the value and the fix', () => {
    const got = clusterAccess(cluster({ apiEndpoint: 'https://[not a host' }), { data: { token: TOKEN } });
    expect(got).toEqual({
      ok: false,
      reason: ClusterAccessReason.InvalidAPIEndpoint,
      message: expect.stringContaining('"https://[not a host" is not a URL'),
    });
  });

  it.each([
    [undefined, 'is empty'],
    ['', 'is empty'],
    ['10.0.0.1:6443', 'is not a URL'],
    ['member1.example.com:6443', 'has scheme "member1.example.com"'],
    ['ftp://10.0.0.1', 'has scheme "ftp"'],
    ['https://10.0.0.1:99999', 'is not a URL'],
    ['member1', 'is not a URL'],
  ])('rejects the endpoint %j (%s)', (endpoint, says) => {
    expect(apiEndpointProblem(endpoint)).toContain(says);
  });

  it.each(['https://10.0.0.1:6443', 'http://localhost:8080', 'https://member1.example.com/prefix'])(
    'accepts %s',
    (endpoint) => {
      expect(apiEndpointProblem(endpoint)).toBeUndefined();
    },
  );

  it('reports a missing secretRef, a missing Secret and a Secret without a usable token or CA', () => {
    const ok = { apiEndpoint: 'https://127.0.0.1:6443' };
    const reason = (c: Cluster, data?: Record<string, string>) => {
      const got = clusterAccess(c, data === undefined ? undefined : { data });
      return got.ok ? 'ok' : got.reason;
    };
    expect(reason(cluster(ok, false), {})).toBe('MissingSecretRef');
    expect(reason(cluster(ok))).toBe('SecretNotFound');
    expect(reason(cluster(ok), {})).toBe('InvalidSecret');
    expect(reason(cluster(ok), { token: '%%%' })).toBe('InvalidSecret');
    expect(reason(cluster(ok), { token: TOKEN, caBundle: Buffer.from('garbage').toString('base64') })).toBe(
      'InvalidSecret',
    );
    expect(reason(cluster(ok), { token: TOKEN, caBundle: CA })).toBe('ok');
  });

  it('builds the member credentials: the decoded token without its trailing newline, the PEM CA', () => {
    const got = clusterAccess(
      cluster({ apiEndpoint: 'https://127.0.0.1:6443', insecureSkipTLSVerification: true }),
      {
        data: { token: TOKEN, caBundle: CA },
      },
    );
    expect(got).toEqual({
      ok: true,
      credentials: {
        server: 'https://127.0.0.1:6443',
        token: 't0ken',
        caBundle: expect.stringContaining('BEGIN CERTIFICATE'),
        insecureSkipTLSVerification: true,
      },
    });
  });
});
