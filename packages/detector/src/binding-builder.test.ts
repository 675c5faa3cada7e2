import { Annotations, Finalizers, Labels } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { buildDesiredBinding } from './binding-builder.js';
import { InvalidBindingInputError, MissingPermanentIdError, SchedulePriorityError } from './errors.js';
import { all, clusterRole, cpp, deployment, pp } from './testing/fixtures.js';

const nginx = deployment('Nginx', {
  uid: 'u-1',
  resourceVersion: '42',
  labels: { app: 'nginx', group: 'g1' },
});
const policy = pp('nginx-pp', [all()]);

describe('buildDesiredBinding', () => {
  it('a PropagationPolicy and a Deployment make a ResourceBinding named <name>-<kind>', () => {
    const desired = buildDesiredBinding(nginx, { kind: 'PropagationPolicy', policy });
    expect(desired.kind).toBe('ResourceBinding');
    expect(desired.claimedBy).toBe('PropagationPolicy');
    expect(desired.binding).toEqual({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: {
        name: 'nginx-deployment',
        namespace: 'default',
        labels: { [Labels.PropagationPolicyPermanentId]: 'pp-id-nginx-pp' },
        annotations: {
          [Annotations.PropagationPolicyNamespace]: 'default',
          [Annotations.PropagationPolicyName]: 'nginx-pp',
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'Nginx',
            uid: 'u-1',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
        finalizers: [Finalizers.ResourceBinding],
      },
      spec: {
        resource: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'default',
          name: 'Nginx',
          uid: 'u-1',
          resourceVersion: '42',
        },
        replicas: 2,
        placement: {},
      },
    });
  });

  it('a ClusterPropagationPolicy on a namespaced template gives a ResourceBinding, not a ClusterResourceBinding', () => {
    const desired = buildDesiredBinding(nginx, {
      kind: 'ClusterPropagationPolicy',
      policy: cpp('global', [all()]),
    });
    expect(desired.kind).toBe('ResourceBinding');
    expect(desired.binding.metadata.namespace).toBe('default');
    expect(desired.binding.metadata.finalizers).toEqual([Finalizers.ResourceBinding]);
    expect(desired.binding.metadata.labels).toEqual({
      [Labels.ClusterPropagationPolicyPermanentId]: 'cpp-id-global',
    });
    expect(desired.binding.metadata.annotations).toEqual({
      [Annotations.ClusterPropagationPolicyName]: 'global',
    });
  });

  it('a cluster-scoped template gives a ClusterResourceBinding', () => {
    const role = clusterRole('system:reader');
    const desired = buildDesiredBinding(role, {
      kind: 'ClusterPropagationPolicy',
      policy: cpp('roles', [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }]),
    });
    expect(desired.kind).toBe('ClusterResourceBinding');
    expect(desired.binding.metadata).not.toHaveProperty('namespace');
    expect(desired.binding.metadata.name).toBe('system.reader-clusterrole');
    expect(desired.binding.metadata.finalizers).toEqual([Finalizers.ClusterResourceBinding]);
    expect(desired.binding.spec.resource).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      name: 'system:reader',
      uid: 'uid-system:reader',
      resourceVersion: '7',
    });
    expect(desired.binding.spec).not.toHaveProperty('replicas');
  });

  it('refuses a PropagationPolicy for a cluster-scoped template', () => {
    expect(() => buildDesiredBinding(clusterRole('r'), { kind: 'PropagationPolicy', policy })).toThrow(
      InvalidBindingInputError,
    );
  });

  it('copies the policy-derived fields and leaves Go zero values out', () => {
    const full = pp('full', [all()], {
      spec: {
        propagateDeps: true,
        schedulerName: 'custom',
        placement: {
          clusterAffinity: { clusterNames: ['m1'] },
          replicaScheduling: { replicaSchedulingType: 'Duplicated' },
        },
        failover: { application: { decisionConditions: { tolerationSeconds: 30 } } },
        conflictResolution: 'Overwrite',
        preserveResourcesOnDeletion: false,
        suspension: { dispatching: true },
      },
    });
    const { spec } = buildDesiredBinding(nginx, { kind: 'PropagationPolicy', policy: full }).binding;
    expect(spec).toMatchObject({
      propagateDeps: true,
      schedulerName: 'custom',
      placement: {
        clusterAffinity: { clusterNames: ['m1'] },
        replicaScheduling: { replicaSchedulingType: 'Duplicated' },
      },
      failover: { application: { decisionConditions: { tolerationSeconds: 30 } } },
      conflictResolution: 'Overwrite',
      // A pointer in Go: an explicit false is kept.
      preserveResourcesOnDeletion: false,
      suspension: { dispatching: true },
    });

    const zero = pp('zero', [all()], { spec: { propagateDeps: false, schedulerName: '' } });
    const scaledToZero = deployment('z', { spec: { replicas: 0, template: {} } });
    const bare = buildDesiredBinding(scaledToZero, { kind: 'PropagationPolicy', policy: zero }).binding.spec;
    expect(Object.keys(bare).sort()).toEqual(['placement', 'resource']);
  });

  it('carries replica requirements for workloads', () => {
    const d = deployment('web', {
      spec: {
        replicas: 3,
        template: { spec: { containers: [{ resources: { requests: { cpu: '200m', memory: '1Gi' } } }] } },
      },
    });
    const { spec } = buildDesiredBinding(d, { kind: 'PropagationPolicy', policy }).binding;
    expect(spec.replicas).toBe(3);
    expect(spec.replicaRequirements).toEqual({ resourceRequest: { cpu: '200m', memory: '1Gi' } });
  });

  it('resolves schedulePriority from a PriorityClass (PriorityBasedScheduling is on by default)', () => {
    const prioritized = pp('p', [all()], {
      spec: { schedulePriority: { priorityClassSource: 'KubePriorityClass', priorityClassName: 'high' } },
    });
    const claiming = { kind: 'PropagationPolicy', policy: prioritized } as const;
    const lookup = (name: string) => (name === 'high' ? 1000 : undefined);
    expect(
      buildDesiredBinding(nginx, claiming, { priorityClassValue: lookup }).binding.spec.schedulePriority,
    ).toEqual({
      priority: 1000,
    });
    expect(() => buildDesiredBinding(nginx, claiming)).toThrow(SchedulePriorityError);
    expect(
      buildDesiredBinding(nginx, claiming, { priorityBasedScheduling: false }).binding.spec,
    ).not.toHaveProperty('schedulePriority');
    const pod = pp('p', [all()], {
      spec: { schedulePriority: { priorityClassSource: 'PodPriorityClass', priorityClassName: 'high' } },
    });
    expect(() =>
      buildDesiredBinding(nginx, { kind: 'PropagationPolicy', policy: pod }, { priorityClassValue: lookup }),
    ).toThrow(/PodPriorityClass is not supported/);
  });

  it('derives workload affinity groups from template labels when the gate is on', () => {
    const grouped = pp('g', [all()], {
      spec: {
        placement: {
          workloadAffinity: {
            affinity: { groupByLabelKey: 'group' },
            antiAffinity: { groupByLabelKey: 'missing' },
          },
        },
      },
    });
    const claiming = { kind: 'PropagationPolicy', policy: grouped } as const;
    expect(
      buildDesiredBinding(nginx, claiming, { workloadAffinity: true }).binding.spec.workloadAffinityGroups,
    ).toEqual({
      affinityGroup: 'group=g1',
    });
    expect(buildDesiredBinding(nginx, claiming).binding.spec).not.toHaveProperty('workloadAffinityGroups');
  });

  it('needs the policy id and the template uid', () => {
    expect(() =>
      buildDesiredBinding(nginx, { kind: 'PropagationPolicy', policy: pp('x', [all()], { id: null }) }),
    ).toThrow(MissingPermanentIdError);
    const noUid = { ...nginx, metadata: { name: 'n', namespace: 'default' } };
    expect(() => buildDesiredBinding(noUid, { kind: 'PropagationPolicy', policy })).toThrow(/has no uid/);
  });
});
