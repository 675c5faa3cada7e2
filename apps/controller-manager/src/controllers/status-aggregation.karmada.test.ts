// Karmada conformance for status aggregation, transcribed from Karmada's Go tests at commit
// f8fdd02df3760fd9521624f284877fa84e7be6ef (2026-08-21). Each describe names its Go test; each case keeps the Go
// case's name. Go's expectations are JSON (assert.JSONEq or Go structs marshalled with omitempty), written out here
// as the JSON values Go would produce.
import type { AggregatedStatusItem, ResourceBindingSpec, UnstructuredObject, Work } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  assembleWorkStatus,
  fullyAppliedCondition,
  manifestIndex,
  worksFullyApplied,
} from './aggregate-status.js';
import { reflectDeploymentStatus, reflectWholeStatus } from './reflect-status.js';
import { deploymentHealthy } from './resource-health.js';
import { aggregateTemplateStatus } from './template-status.js';

const GO = 'Karmada f8fdd02';

const obj = (o: Record<string, unknown>): UnstructuredObject =>
  ({ metadata: {}, ...o }) as unknown as UnstructuredObject;

describe('pkg/resourceinterpreter/default/native/reflectstatus_test.go Test_reflectWholeStatus', () => {
  it(`${GO}: object with valid status`, () => {
    expect(reflectWholeStatus(obj({ status: { key: 'value', num: 1 } }))).toEqual({ key: 'value', num: 1 });
  });
  it(`${GO}: object without status`, () => {
    expect(reflectWholeStatus(obj({}))).toBeUndefined();
  });
  it(`${GO}: object with invalid status format`, () => {
    expect(() => reflectWholeStatus(obj({ status: 'invalid' }))).toThrow(/not an object/);
  });
});

describe('pkg/resourceinterpreter/default/native/reflectstatus_test.go Test_reflectDeploymentStatus', () => {
  const valid = () =>
    obj({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'test-deployment',
        namespace: 'test-ns',
        generation: 2,
        annotations: { 'resourcetemplate.karmada.io/generation': '1' },
      },
      status: {
        replicas: 3,
        updatedReplicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        unavailableReplicas: 0,
        observedGeneration: 2,
      },
    }) as UnstructuredObject & { metadata: { annotations: Record<string, string> } };

  it(`${GO}: deployment with valid status and generation annotation`, () => {
    // WrappedDeploymentStatus marshalled: zero fields (unavailableReplicas) are omitempty.
    expect(reflectDeploymentStatus(valid())).toEqual({
      generation: 2,
      resourceTemplateGeneration: 1,
      observedGeneration: 2,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    });
  });
  it(`${GO}: deployment without status field`, () => {
    const { status: _status, ...rest } = valid();
    expect(reflectDeploymentStatus(rest as UnstructuredObject)).toBeUndefined();
  });
  it(`${GO}: deployment with invalid generation annotation`, () => {
    const d = valid();
    d.metadata.annotations['resourcetemplate.karmada.io/generation'] = 'invalid';
    expect(() => reflectDeploymentStatus(d)).toThrow(/"invalid", not an integer/);
  });
  it(`${GO}: deployment without generation annotation`, () => {
    const d = valid();
    delete d.metadata.annotations['resourcetemplate.karmada.io/generation'];
    expect(() => reflectDeploymentStatus(d)).toThrow(/missing/);
  });
});

describe('pkg/resourceinterpreter/default/native/healthy_test.go Test_interpretDeploymentHealth', () => {
  const deployment = (status: Record<string, number>) =>
    obj({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'fake-deployment', generation: 1 },
      spec: { replicas: 3 },
      status,
    });
  it.each([
    {
      name: 'deployment healthy',
      status: { availableReplicas: 3, updatedReplicas: 3, observedGeneration: 1 },
      want: true,
    },
    {
      name: 'generation not equal to observedGeneration',
      status: { availableReplicas: 3, updatedReplicas: 3, observedGeneration: 2 },
      want: false,
    },
    {
      name: 'replicas not equal to updatedReplicas',
      status: { updatedReplicas: 1, observedGeneration: 1 },
      want: false,
    },
    {
      name: 'availableReplicas not equal to updatedReplicas',
      status: { availableReplicas: 0, updatedReplicas: 3, observedGeneration: 1 },
      want: false,
    },
  ])(`${GO}: $name`, ({ status, want }) => {
    expect(deploymentHealthy(deployment(status))).toBe(want);
  });
});

describe('pkg/resourceinterpreter/default/native/aggregatestatus_test.go TestAggregateDeploymentStatus', () => {
  // helper.BuildStatusRawExtension of the map keeps the explicit 0.
  const raw = {
    replicas: 1,
    readyReplicas: 1,
    updatedReplicas: 1,
    availableReplicas: 1,
    unavailableReplicas: 0,
  };
  const items: AggregatedStatusItem[] = [
    { clusterName: 'member1', status: raw, applied: true },
    { clusterName: 'member2', status: raw, applied: true },
  ];
  const oldObj = obj({ apiVersion: 'apps/v1', kind: 'Deployment' });
  const newObj = obj({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    status: { replicas: 2, readyReplicas: 2, updatedReplicas: 2, availableReplicas: 2 },
  });
  it(`${GO}: update deployment status`, () => {
    // helper.ToUnstructured(newDeploy).status: every counter is omitempty, so the zeros are left out.
    expect(aggregateTemplateStatus(oldObj, items)).toEqual(newObj.status);
  });
  it(`${GO}: ignore update deployment status as up to date`, () => {
    expect(aggregateTemplateStatus(newObj, items)).toBeUndefined();
  });
});

describe('pkg/util/helper/workstatus_test.go TestAssembleWorkStatus', () => {
  const baseManifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'test-deployment', namespace: 'test-ns' },
  };
  const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'test-ns', name: 'test-deployment' };
  const createWork = (status?: Work['status'], manifest: unknown = baseManifest): Work => ({
    apiVersion: 'work.karmada.io/v1alpha1',
    kind: 'Work',
    metadata: { name: 'test-work', namespace: 'karmada-es-member1' },
    spec: { workload: { manifests: [manifest as Record<string, unknown>] } },
    ...(status ? { status } : {}),
  });
  const condition = (status: 'True' | 'False' | 'Unknown', message = '') => ({
    type: 'Applied',
    status,
    reason: '',
    message,
    lastTransitionTime: '2024-01-01T00:00:00Z',
  });

  it(`${GO}: empty work list`, () => {
    expect(assembleWorkStatus([], ref)).toEqual([]);
  });
  it(`${GO}: work with invalid manifest`, () => {
    expect(() => assembleWorkStatus([createWork(undefined, 'invalid json')], ref)).toThrow(
      /not a JSON object/,
    );
  });
  it(`${GO}: work being deleted`, () => {
    const w = createWork();
    const deleting = { ...w, metadata: { ...w.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } };
    expect(assembleWorkStatus([deleting], ref)).toEqual([]);
  });
  it(`${GO}: work applied successfully with health status`, () => {
    const w = createWork({
      conditions: [condition('True')],
      manifestStatuses: [
        {
          identifier: {
            ordinal: 0,
            group: 'apps',
            version: 'v1',
            kind: 'Deployment',
            resource: '',
            namespace: 'test-ns',
            name: 'test-deployment',
          },
          status: { replicas: 3 },
          health: 'Healthy',
        },
      ],
    });
    expect(assembleWorkStatus([w], ref)).toEqual([
      { clusterName: 'member1', status: { replicas: 3 }, applied: true, health: 'Healthy' },
    ]);
  });
  it(`${GO}: work not applied with error message`, () => {
    const w = createWork({ conditions: [condition('False', 'Failed to apply')] });
    expect(assembleWorkStatus([w], ref)).toEqual([
      { clusterName: 'member1', appliedMessage: 'Failed to apply', health: 'Unknown' },
    ]);
  });
  it(`${GO}: work with unknown condition status`, () => {
    const w = createWork({ conditions: [condition('Unknown', 'Status unknown')] });
    expect(assembleWorkStatus([w], ref)).toEqual([
      { clusterName: 'member1', appliedMessage: 'Status unknown', health: 'Unknown' },
    ]);
  });
});

describe('pkg/util/helper/workstatus_test.go TestGenerateFullyAppliedCondition', () => {
  const spec = { clusters: [{ name: 'cluster1' }, { name: 'cluster2' }] } as unknown as ResourceBindingSpec;
  const statuses: AggregatedStatusItem[] = [
    { clusterName: 'cluster1', applied: true, health: 'Healthy' },
    { clusterName: 'cluster2', applied: true, health: 'Unknown' },
  ];
  it(`${GO}: fully applied statuses`, () => {
    expect(fullyAppliedCondition(spec, statuses)).toEqual({
      type: 'FullyApplied',
      status: 'True',
      reason: 'FullyAppliedSuccess',
      message: 'All works have been successfully applied',
    });
  });
  it(`${GO}: partially applied statuses`, () => {
    expect(fullyAppliedCondition(spec, statuses.slice(0, 1))).toEqual({
      type: 'FullyApplied',
      status: 'False',
      reason: 'FullyAppliedFailed',
      message: 'Failed to apply all works, see status.aggregatedStatus for details',
    });
  });
});

describe('pkg/util/helper/workstatus_test.go TestWorksFullyApplied', () => {
  const m = (clusterName: string, applied: boolean): AggregatedStatusItem => ({ clusterName, applied });
  it.each([
    { name: 'no cluster', items: [m('member1', true)], targets: [], want: false },
    { name: 'no aggregatedStatuses', items: [], targets: ['member1'], want: false },
    {
      name: 'cluster size is not equal to aggregatedStatuses',
      items: [m('member1', true)],
      targets: ['member1', 'member2'],
      want: false,
    },
    {
      name: 'aggregatedStatuses is equal to clusterNames and all applied',
      items: [m('member1', true), m('member2', true)],
      targets: ['member1', 'member2'],
      want: true,
    },
    {
      name: 'aggregatedStatuses is equal to clusterNames but not all applied',
      items: [m('member1', true), m('member2', false)],
      targets: ['member1', 'member2'],
      want: false,
    },
    {
      name: 'target clusters not match expected status',
      items: [m('member1', true)],
      targets: ['member2'],
      want: false,
    },
  ])(`${GO}: $name`, ({ items, targets, want }) => {
    expect(worksFullyApplied(items, new Set(targets))).toBe(want);
  });
});

describe('pkg/util/helper/workstatus_test.go TestGetManifestIndex', () => {
  const manifests = [
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'test-service', namespace: 'test-namespace' } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'test-deployment', namespace: 'test-namespace' },
    },
  ];
  it(`${GO}: Service`, () => {
    expect(
      manifestIndex(manifests, {
        apiVersion: 'v1',
        kind: 'Service',
        namespace: 'test-namespace',
        name: 'test-service',
      }),
    ).toBe(0);
  });
  it(`${GO}: Deployment`, () => {
    expect(
      manifestIndex(manifests, {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'test-namespace',
        name: 'test-deployment',
      }),
    ).toBe(1);
  });
  it(`${GO}: No match`, () => {
    expect(manifestIndex(manifests, { apiVersion: '', kind: '', name: '' })).toBe(-1);
  });
});
