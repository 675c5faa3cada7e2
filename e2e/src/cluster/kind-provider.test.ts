import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KindProvider, kindClusterConfig } from './kind-provider.js';

describe('kind provider', () => {
  it('wires a Metadata-level JSON audit log through kubeadm patches and mounts it on the host', () => {
    const cfg = kindClusterConfig('/tmp/x') as {
      nodes: { kubeadmConfigPatches: string[]; extraMounts: { hostPath: string }[] }[];
    };
    const node = cfg.nodes[0]!;
    const patch = parse(node.kubeadmConfigPatches[0]!) as {
      apiServer: { extraArgs: Record<string, string> };
    };
    expect(patch.apiServer.extraArgs['audit-log-format']).toBe('json');
    expect(patch.apiServer.extraArgs['audit-policy-file']).toMatch(/policy\.yaml$/);
    expect(node.extraMounts.map((m) => m.hostPath)).toEqual(['/tmp/x/policy.yaml', '/tmp/x/logs']);
  });

  it('says why it cannot run where kind or Docker is missing', async () => {
    const a = await new KindProvider().isAvailable();
    if (!a.available) expect(a.reason).toMatch(/kind|Docker/);
    else expect(a.available).toBe(true);
  });
});
