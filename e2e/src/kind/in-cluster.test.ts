import { describe, expect, it } from 'vitest';
import { deployManifests, LOAD_TAINT, managerRbac, PROBE_SERVICE } from './in-cluster.js';

type Container = {
  volumeMounts?: { name: string; mountPath: string }[];
  image: string;
  imagePullPolicy: string;
  args: string[];
  livenessProbe?: { httpGet: { path: string }; periodSeconds: number };
  readinessProbe?: unknown;
};

function deploymentOf(docs: ReturnType<typeof deployManifests>) {
  const d = docs.find((x) => x.kind === 'Deployment') as unknown as {
    spec: {
      replicas: number;
      template: {
        spec: {
          tolerations: unknown[];
          volumes?: { name: string; secret?: { secretName: string } }[];
          containers: Container[];
        };
      };
    };
  };
  return d.spec;
}

describe('deployManifests', () => {
  it("applies deploy/ with the local image, one replica, the strategy and the load taint's toleration", () => {
    const docs = deployManifests({ image: 'warmstart/controller-manager:dev-x', strategy: 'gate-start' });
    expect(docs.map((d) => d.kind)).toEqual(
      expect.arrayContaining([
        'Namespace',
        'ServiceAccount',
        'ClusterRole',
        'ClusterRoleBinding',
        'Deployment',
        'Service',
      ]),
    );
    const spec = deploymentOf(docs);
    const c = spec.template.spec.containers[0]!;
    expect(spec.replicas).toBe(1);
    expect(c.image).toBe('warmstart/controller-manager:dev-x');
    expect(c.imagePullPolicy).toBe('Never');
    expect(c.args.filter((a) => a.startsWith('--cache-sync-strategy='))).toEqual([
      '--cache-sync-strategy=gate-start',
    ]);
    expect(spec.template.spec.tolerations).toEqual([{ ...LOAD_TAINT, operator: 'Equal' }]);
    expect(docs.some((d) => d.kind === 'Service' && d.metadata.name === PROBE_SERVICE)).toBe(true);
    // deploy/'s own probes stay when none are given.
    expect(c.livenessProbe?.httpGet.path).toBe('/livez');
    expect(c.readinessProbe).toBeDefined();
  });

  it("swaps in Karmada's probe settings and drops the readiness probe", () => {
    const spec = deploymentOf(
      deployManifests({
        image: 'i',
        strategy: 'gate-start',
        livenessProbe: {
          path: '/healthz',
          initialDelaySeconds: 15,
          periodSeconds: 15,
          timeoutSeconds: 5,
          failureThreshold: 3,
        },
        readinessProbe: null,
      }),
    );
    const c = spec.template.spec.containers[0]!;
    expect(c.livenessProbe?.httpGet.path).toBe('/healthz');
    expect(c.livenessProbe?.periodSeconds).toBe(15);
    expect(c.readinessProbe).toBeUndefined();
  });

  it('points the manager at a separate control plane: its kubeconfig Secret mounted, no RBAC in the pod cluster', () => {
    const docs = deployManifests({ image: 'i', strategy: 'block-reads', controlPlaneKubeconfigSecret: 'cp' });
    expect(docs.map((d) => d.kind)).not.toContain('ClusterRole');
    expect(docs.map((d) => d.kind)).not.toContain('RoleBinding');
    const spec = deploymentOf(docs);
    const c = spec.template.spec.containers[0]!;
    expect(c.args).toContain('--kubeconfig=/etc/karmada/config/karmada.config');
    expect(c.volumeMounts).toEqual([
      { name: 'karmada-config', mountPath: '/etc/karmada/config', readOnly: true },
    ]);
    expect(spec.template.spec.volumes).toEqual([{ name: 'karmada-config', secret: { secretName: 'cp' } }]);
  });
});

describe('managerRbac', () => {
  it("binds deploy/'s rules to a user instead of the ServiceAccount", () => {
    const docs = managerRbac('someone');
    expect(docs.map((d) => d.kind).sort()).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
    ]);
    for (const d of docs.filter((x) => x.kind.endsWith('Binding')))
      expect(d.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'someone' }]);
    const role = docs.find((d) => d.kind === 'ClusterRole');
    expect(Array.isArray(role?.rules) && role.rules.length).toBeGreaterThan(3);
  });
});
