// The policies of a synthetic load: in every namespace a label-selector PropagationPolicy for all load
// workloads, a few name-selector policies (higher implicit priority) and one ClusterPropagationPolicy for every
// load workload (lowest), so matching, priority and claims all have work to do. Everything goes to every
// member (Duplicated).
// Override policies too (issue 15): a ClusterOverridePolicy labels every load workload on the first member, and
// an OverridePolicy per namespace changes the image registry there, so every Work build applies overrides.
import type { TlsIdentity } from '../cluster/admin-client.js';
import { adminRequest } from '../cluster/admin-client.js';
import { type LoadShape, namespaceOf, workloadName } from '../load/workloads.js';

export function loadPolicies(
  shape: LoadShape,
  members: readonly string[],
): { path: string; body: unknown }[] {
  const placement = { clusterAffinity: { clusterNames: [...members] } };
  const loadWorkloads = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    labelSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'load' } },
  };
  const out: { path: string; body: unknown }[] = [
    {
      path: '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies',
      body: {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'ClusterPropagationPolicy',
        metadata: { name: 'load-match-all' },
        // Only the load's workloads: the clusters are shared, and a policy claiming every Deployment would claim
        // another suite's Deployment in the moment before that suite's own policy exists, and keep it (a
        // PropagationPolicy preempts no claim by default), sending it to this load's members only.
        spec: {
          resourceSelectors: [loadWorkloads],
          placement,
        },
      },
    },
  ];
  for (let n = 0; n < shape.namespaces; n++) {
    const ns = `load-${n}`;
    out.push({
      path: `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies`,
      body: {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'PropagationPolicy',
        metadata: { name: 'by-label', namespace: ns },
        spec: {
          resourceSelectors: [loadWorkloads],
          placement,
        },
      },
    });
  }
  const first = members[0];
  if (first !== undefined) {
    const onFirst = { targetCluster: { clusterNames: [first] } };
    out.push({
      path: '/apis/policy.karmada.io/v1alpha1/clusteroverridepolicies',
      body: {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'ClusterOverridePolicy',
        metadata: { name: 'load-label' },
        spec: {
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
          overrideRules: [
            {
              ...onFirst,
              overriders: {
                labelsOverrider: [{ operator: 'add', value: { 'load.warmstart.io/member': first } }],
              },
            },
          ],
        },
      },
    });
    for (let n = 0; n < shape.namespaces; n++) {
      const ns = `load-${n}`;
      out.push({
        path: `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/overridepolicies`,
        body: {
          apiVersion: 'policy.karmada.io/v1alpha1',
          kind: 'OverridePolicy',
          metadata: { name: 'mirror', namespace: ns },
          spec: {
            overrideRules: [
              {
                ...onFirst,
                overriders: {
                  imageOverrider: [
                    { component: 'Registry', operator: 'replace', value: 'mirror.example.org' },
                  ],
                },
              },
            ],
          },
        },
      });
    }
  }
  // A name-selector policy for every 100th workload.
  for (let i = 0; i < shape.workloads; i += 100) {
    const ns = namespaceOf(i, shape);
    out.push({
      path: `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies`,
      body: {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'PropagationPolicy',
        metadata: { name: `by-name-${workloadName(i)}`, namespace: ns },
        spec: {
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: workloadName(i) }],
          placement,
        },
      },
    });
  }
  return out;
}

export async function createPolicies(
  id: TlsIdentity,
  shape: LoadShape,
  members: readonly string[],
): Promise<void> {
  for (const p of loadPolicies(shape, members)) {
    const res = await adminRequest(id, 'POST', p.path, p.body);
    if (res.status === 201) continue;
    if (res.status !== 409) throw new Error(`creating ${p.path}: ${res.status} ${res.body.slice(0, 300)}`);
    // Another suite on the shared clusters left a policy of this name, perhaps for other members (a one-member
    // load): this load's spec replaces it, or its objects would go to that suite's members only.
    const { metadata, spec } = p.body as { metadata: { name: string }; spec: unknown };
    const path = `${p.path}/${metadata.name}`;
    const patched = await adminRequest(
      id,
      'PATCH',
      path,
      { spec },
      undefined,
      'application/merge-patch+json',
    );
    if (patched.status !== 200)
      throw new Error(`updating ${path}: ${patched.status} ${patched.body.slice(0, 300)}`);
  }
}
