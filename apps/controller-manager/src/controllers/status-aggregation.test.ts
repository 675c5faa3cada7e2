// Status aggregation beyond Karmada's own tables: the observedGeneration rule of aggregateDeploymentStatus, the
// shape of a recorded manifest status, and a Service's reflected status.
import type { AggregatedStatusItem, UnstructuredObject, Work } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { assembleWorkStatus } from './aggregate-status.js';
import { planManifestStatuses } from './manifest-status.js';
import { reflectStatus } from './reflect-status.js';
import { interpretHealth } from './resource-health.js';
import { aggregateTemplateStatus as aggregateDeploymentStatus } from './template-status.js';

const template = (generation: number, status: Record<string, number> = {}): UnstructuredObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', generation },
    status,
  }) as unknown as UnstructuredObject;

describe('aggregateDeploymentStatus: observedGeneration', () => {
  const current = (replicas: number): AggregatedStatusItem => ({
    clusterName: 'm',
    applied: true,
    status: {
      generation: 2,
      resourceTemplateGeneration: 3,
      observedGeneration: 2,
      replicas,
      updatedReplicas: replicas,
    },
  });
  it('becomes the template generation once every member observed the latest template', () => {
    expect(
      aggregateDeploymentStatus(template(3, { observedGeneration: 2 }), [current(2), current(4)]),
    ).toEqual({
      observedGeneration: 3,
      replicas: 6,
      updatedReplicas: 6,
    });
  });
  it('stays as it was while one member was applied from an older template', () => {
    const behind: AggregatedStatusItem = {
      clusterName: 'm2',
      applied: true,
      status: { generation: 2, resourceTemplateGeneration: 2, observedGeneration: 2, replicas: 1 },
    };
    expect(
      aggregateDeploymentStatus(template(3, { observedGeneration: 2 }), [current(2), behind]),
    ).toMatchObject({
      observedGeneration: 2,
      replicas: 3,
    });
  });
  it("stays as it was while a member's controller has not observed its own generation", () => {
    // Members without a deployment controller (the local e2e members) report generation 1 and no observedGeneration.
    const unobserved: AggregatedStatusItem = {
      clusterName: 'm',
      applied: true,
      status: { generation: 1, resourceTemplateGeneration: 1 },
    };
    expect(aggregateDeploymentStatus(template(1), [unobserved, unobserved])).toBeUndefined();
  });
  it('an item without a status counts against, and adds nothing', () => {
    expect(
      aggregateDeploymentStatus(template(3, { observedGeneration: 1 }), [
        current(2),
        { clusterName: 'x', applied: false, health: 'Unknown' },
      ]),
    ).toMatchObject({ observedGeneration: 1, replicas: 2 });
  });
  it('a malformed member status is an error, not a sum', () => {
    expect(() =>
      aggregateDeploymentStatus(template(1), [{ clusterName: 'm', status: { replicas: 'three' } }]),
    ).toThrow(/status.replicas of cluster m .* not an integer/);
  });
});

describe('planManifestStatuses', () => {
  const work = (manifests: Record<string, unknown>[]): Work => ({
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: { name: 'w', namespace: 'karmada-es-m1' },
    spec: { workload: { manifests } },
  });
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
  };
  const member = {
    ...deployment,
    metadata: {
      ...deployment.metadata,
      generation: 1,
      annotations: { 'resourcetemplate.karmada.io/generation': '1' },
    },
    spec: { replicas: 2 },
    status: {},
  };

  it('records the identifier as Karmada does (resource empty) with the reflected status and health', () => {
    const plan = planManifestStatuses(work([deployment]), () => member as unknown as UnstructuredObject);
    expect(plan.errors).toEqual([]);
    expect(plan.statuses).toEqual([
      {
        identifier: {
          ordinal: 0,
          group: 'apps',
          version: 'v1',
          kind: 'Deployment',
          resource: '',
          namespace: 'default',
          name: 'web',
        },
        status: { generation: 1, resourceTemplateGeneration: 1 },
        health: 'Unhealthy',
      },
    ]);
  });
  it('leaves out the group for the core group, and records a whole status for a kind without a handler', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } };
    const plan = planManifestStatuses(work([cm]), () => cm as unknown as UnstructuredObject);
    expect(plan.statuses).toEqual([
      {
        identifier: {
          ordinal: 0,
          version: 'v1',
          kind: 'ConfigMap',
          resource: '',
          namespace: 'default',
          name: 'c',
        },
        health: 'Healthy',
      },
    ]);
  });
  it('records nothing for an object the member does not have yet', () => {
    expect(planManifestStatuses(work([deployment]), () => undefined).statuses).toBeUndefined();
  });
  it('reports a member object whose status cannot be reflected, and records nothing for it', () => {
    const bad = { ...member, metadata: { ...member.metadata, annotations: {} } };
    const plan = planManifestStatuses(work([deployment]), () => bad as unknown as UnstructuredObject);
    expect(plan.statuses).toBeUndefined();
    expect(plan.errors[0]?.message).toMatch(/resourcetemplate.karmada.io\/generation is missing/);
  });
  it('records nothing for a Service that is not a LoadBalancer, and only the load balancer of one that is', () => {
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { type: 'LoadBalancer' },
    };
    expect(reflectStatus(svc as unknown as UnstructuredObject)).toEqual({
      kind: 'reflected',
      status: undefined,
    });
    const clusterIP = { ...svc, spec: { type: 'ClusterIP' }, status: { loadBalancer: {} } };
    expect(reflectStatus(clusterIP as unknown as UnstructuredObject).status).toBeUndefined();
    const lb = {
      ...svc,
      status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] }, conditions: [{ type: 'x' }] },
    };
    expect(reflectStatus(lb as unknown as UnstructuredObject).status).toEqual({
      loadBalancer: { ingress: [{ ip: '10.0.0.1' }] },
    });
  });
  it('the recorded status flows into the binding as Karmada assembles it', () => {
    const plan = planManifestStatuses(work([deployment]), () => member as unknown as UnstructuredObject);
    const applied: Work = {
      ...work([deployment]),
      status: {
        conditions: [
          {
            type: 'Applied',
            status: 'True',
            reason: 'AppliedSuccessful',
            message: '',
            lastTransitionTime: 'x',
          },
        ],
        manifestStatuses: plan.statuses ?? [],
      },
    };
    expect(
      assembleWorkStatus([applied], {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'default',
        name: 'web',
      }),
    ).toEqual([
      {
        clusterName: 'm1',
        status: { generation: 1, resourceTemplateGeneration: 1 },
        applied: true,
        health: 'Unhealthy',
      },
    ]);
    expect(interpretHealth(member as unknown as UnstructuredObject)).toBe('Unhealthy');
  });
});

describe('aggregateTemplateStatus: rules kept as Karmada has them', () => {
  const sts = (generation: number, status: Record<string, unknown>): UnstructuredObject =>
    ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's', namespace: 'default', generation },
      status,
    }) as unknown as UnstructuredObject;
  it("a StatefulSet's observedGeneration moves only when no member reports a generation (Karmada compares the member's own)", () => {
    // The reflected StatefulSet status carries no observedGeneration, so a member at generation 1 never counts.
    const member = { generation: 1, resourceTemplateGeneration: 5, replicas: 1, availableReplicas: 1 };
    expect(
      aggregateDeploymentStatus(sts(5, { observedGeneration: 4, replicas: 0, availableReplicas: 0 }), [
        { clusterName: 'm', status: member },
      ]),
    ).toEqual({ observedGeneration: 4, replicas: 1, availableReplicas: 1 });
  });
  it('a finished Job template is never changed again', () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'default' },
      status: { conditions: [{ type: 'Complete', status: 'True' }], succeeded: 1 },
    } as unknown as UnstructuredObject;
    expect(aggregateDeploymentStatus(job, [{ clusterName: 'm', status: { active: 3 } }])).toBeUndefined();
  });
  it('a kind Karmada does not aggregate gives nothing', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c' },
    } as unknown as UnstructuredObject;
    expect(aggregateDeploymentStatus(cm, [{ clusterName: 'm', status: {} }])).toBeUndefined();
  });
  it('a malformed member status of another kind is a typed error naming the cluster', () => {
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's', namespace: 'default' },
      spec: { type: 'LoadBalancer' },
    } as unknown as UnstructuredObject;
    expect(() =>
      aggregateDeploymentStatus(svc, [{ clusterName: 'm2', status: { loadBalancer: { ingress: 'x' } } }]),
    ).toThrow(/cannot aggregate the status of Service default\/s: status.loadBalancer.ingress of cluster m2/);
  });
});
