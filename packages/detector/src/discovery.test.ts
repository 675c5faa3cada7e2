import { describe, expect, it } from 'vitest';
import { type DiscoveredResource, propagatableResources, TemplateResources } from './discovery.js';
import { parseSkippedPropagatingApis } from './skipped-apis.js';

const all = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

function resource(
  group: string,
  version: string,
  name: string,
  kind: string,
  verbs: readonly string[] = all,
  namespaced = true,
): DiscoveredResource {
  return { group, version, resource: name, kind, namespaced, verbs };
}

describe('propagatableResources', () => {
  it('keeps resources that can be listed, watched and deleted, and drops subresources', () => {
    const found = propagatableResources(
      [
        resource('apps', 'v1', 'deployments', 'Deployment'),
        resource('apps', 'v1', 'deployments/status', 'Deployment'),
        resource('', 'v1', 'bindings', 'Binding', ['create']),
        resource('authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', [
          'create',
        ]),
        resource('', 'v1', 'componentstatuses', 'ComponentStatus', ['get', 'list']),
        resource('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', all, false),
      ],
      parseSkippedPropagatingApis(''),
    );
    expect(found).toEqual([
      { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespaced: true },
      {
        group: 'rbac.authorization.k8s.io',
        version: 'v1',
        resource: 'clusterroles',
        kind: 'ClusterRole',
        namespaced: false,
      },
    ]);
  });

  it("skips Karmada's groups, events and leases, and what --skipped-propagating-apis names", () => {
    const found = propagatableResources(
      [
        resource('policy.karmada.io', 'v1alpha1', 'propagationpolicies', 'PropagationPolicy'),
        resource('work.karmada.io', 'v1alpha2', 'resourcebindings', 'ResourceBinding'),
        resource('', 'v1', 'events', 'Event'),
        resource('events.k8s.io', 'v1', 'events', 'Event'),
        resource('coordination.k8s.io', 'v1', 'leases', 'Lease'),
        resource('', 'v1', 'configmaps', 'ConfigMap'),
        resource('', 'v1', 'secrets', 'Secret'),
        resource('batch', 'v1', 'jobs', 'Job'),
        resource('networking.k8s.io', 'v1', 'ingresses', 'Ingress'),
      ],
      parseSkippedPropagatingApis('v1/Secret;batch;networking.k8s.io/v1/Ingress'),
    );
    expect(found.map((r) => r.resource)).toEqual(['configmaps']);
  });

  it('watches each group and resource once, in the first (server-preferred) version listed', () => {
    const found = propagatableResources(
      [
        resource('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
        resource('autoscaling', 'v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'),
      ],
      parseSkippedPropagatingApis(''),
    );
    expect(found.map((r) => r.version)).toEqual(['v2']);
  });
});

describe('TemplateResources', () => {
  it('maps apiVersion and kind to the watched resource, once', () => {
    const resources = new TemplateResources();
    const deployments = {
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      kind: 'Deployment',
      namespaced: true,
    };
    expect(resources.add(deployments)).toBe(true);
    expect(resources.add({ ...deployments })).toBe(false);
    expect(resources.byApiVersionKind('apps/v1', 'Deployment')).toBe(deployments);
    expect(resources.byGroupVersionKind('apps', 'v1', 'Deployment')).toBe(deployments);
    expect(resources.byApiVersionKind('apps/v1beta1', 'Deployment')).toBeUndefined();
    expect(resources.discovered).toBe(false);
    resources.markDiscovered();
    expect(resources.discovered).toBe(true);
  });
});
