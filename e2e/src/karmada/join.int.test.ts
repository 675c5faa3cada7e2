import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { describe, expect, inject, it } from 'vitest';
import { adminRequest } from '../cluster/admin-client.js';
import { adminIdentity, CLUSTER_SECRET_NAMESPACE, installCrds, joinMember } from './join.js';

function getWithToken(server: string, caPem: Buffer, token: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(new URL(path, server), { ca: caPem, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('joining a member cluster (push mode)', () => {
  it('installs the CRDs and leaves a Cluster whose Secret holds working member credentials', async () => {
    const [host, member] = inject('clusters');
    if (!host || !member) throw new Error('this test needs the shared set to have at least 2 clusters');
    await installCrds(host);
    await joinMember(host, member, { env: 'test' });
    const id = adminIdentity(host);
    const cluster = JSON.parse(
      (await adminRequest(id, 'GET', `/apis/cluster.karmada.io/v1alpha1/clusters/${member.name}`)).body,
    );
    expect(cluster.spec.apiEndpoint).toBe(member.server);
    expect(cluster.metadata.labels).toMatchObject({ env: 'test' });
    const secret = JSON.parse(
      (
        await adminRequest(
          id,
          'GET',
          `/api/v1/namespaces/${CLUSTER_SECRET_NAMESPACE}/secrets/${cluster.spec.secretRef.name}`,
        )
      ).body,
    );
    const token = Buffer.from(secret.data.token, 'base64').toString();
    const ca = Buffer.from(secret.data.caBundle, 'base64');
    expect(ca.equals(readFileSync(member.caPath))).toBe(true);
    expect(await getWithToken(member.server, ca, token, '/api/v1/namespaces')).toBe(200);
    expect(await getWithToken(member.server, ca, 'not-a-token', '/api/v1/namespaces')).toBe(401);
  });
});
