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

  it('allows cgroup v1, bakes no default CNI in, and runs kube-proxy on iptables', () => {
    const cfg = kindClusterConfig('/tmp/x') as {
      networking: Record<string, unknown>;
      nodes: { kubeadmConfigPatches: string[] }[];
    };
    expect(cfg.networking).toEqual({ disableDefaultCNI: true, kubeProxyMode: 'iptables' });
    const kubelet = cfg.nodes[0]!.kubeadmConfigPatches.map((p) => parse(p) as Record<string, unknown>).find(
      (p) => p.kind === 'KubeletConfiguration',
    );
    expect(kubelet?.failCgroupV1).toBe(false);
  });

  it('says why it cannot run where kind or Docker is missing', async () => {
    const a = await new KindProvider().isAvailable();
    if (!a.available) expect(a.reason).toMatch(/kind|Docker/);
    else expect(a.available).toBe(true);
  });
});
