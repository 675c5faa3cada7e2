// deploy/ is only worth shipping if a real API server accepts it: every manifest (and every CRD) goes through
// a server-side dry-run, which runs validation, defaulting and admission but stores nothing. deploy/optional/
// (grants for opt-in features) is checked the same way.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from '@kubernetes/client-node';
import { describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const deployDir = fileURLToPath(new URL('../../deploy/', import.meta.url));
const optionalDir = fileURLToPath(new URL('../../deploy/optional/', import.meta.url));
const crdDir = fileURLToPath(new URL('../../packages/api/crds/', import.meta.url));

function load(dir: string): KubernetesObject[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) =>
      parseAllDocuments(readFileSync(`${dir}${f}`, 'utf8')).map((d) => d.toJS() as KubernetesObject),
    )
    .filter((o) => o?.kind);
}

describe('deploy/ manifests', () => {
  it('pass a server-side dry-run on a real kube-apiserver, CRDs included', async () => {
    const host = inject('clusters')[0]!;
    const kc = new KubeConfig();
    kc.loadFromFile(host.adminKubeconfig);
    const client = KubernetesObjectApi.makeApiClient(kc);
    const crds = load(crdDir);
    const manifests = [...load(deployDir), ...load(optionalDir)];
    expect(crds.length).toBeGreaterThanOrEqual(6);
    expect(manifests.map((m) => m.kind)).toEqual(
      expect.arrayContaining([
        'Namespace',
        'ServiceAccount',
        'ClusterRole',
        'ClusterRoleBinding',
        'Role',
        'RoleBinding',
        'Deployment',
      ]),
    );
    // Namespaced objects can only be dry-run into a namespace that exists. A server-side apply dry-run
    // validates the same way whether or not another test already installed an object (the CRDs).
    const ns = manifests.find((m) => m.kind === 'Namespace')!;
    await client.patch(ns, undefined, undefined, 'warmstart-e2e', true, PatchStrategy.ServerSideApply);
    for (const object of [...crds, ...manifests.filter((m) => m !== ns)]) {
      const applied = await client.patch(
        object,
        undefined,
        'All',
        'warmstart-e2e',
        true,
        PatchStrategy.ServerSideApply,
      );
      expect(applied.metadata?.name, `${object.kind}/${object.metadata?.name}`).toBe(object.metadata?.name);
    }
  });

  it('grant no `get` on any resource: the manager reads only through informers', () => {
    const rules = [...load(deployDir), ...load(optionalDir)]
      .filter((m) => m.kind === 'ClusterRole' || m.kind === 'Role')
      .flatMap((r) => (r as unknown as { rules: { resources?: string[]; verbs: string[] }[] }).rules);
    const resourceRules = rules.filter((r) => r.resources !== undefined);
    expect(resourceRules.length).toBeGreaterThan(0);
    expect(resourceRules.filter((r) => r.verbs.includes('get') || r.verbs.includes('*'))).toEqual([]);
  });
});
