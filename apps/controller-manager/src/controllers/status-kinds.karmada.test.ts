// Karmada conformance for the kinds beyond Deployments, transcribed from Karmada's Go tests at commit
// f8fdd02df3760fd9521624f284877fa84e7be6ef (2026-08-21): pkg/resourceinterpreter/default/native
// aggregatestatus_test.go, reflectstatus_test.go and healthy_test.go. Each describe names its Go test; each case
// keeps the Go case's name. Go's expected objects are built with helper.ToUnstructured (typed, omitempty applied),
// written out here as the JSON they encode to.
import type { AggregatedStatusItem, UnstructuredObject } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  REFLECT_HANDLERS,
  ReflectStatusError,
  reflectDaemonSetStatus,
  reflectHorizontalPodAutoscalerStatus,
  reflectJobStatus,
  reflectPodDisruptionBudgetStatus,
  reflectReplicaSetStatus,
  reflectServiceStatus,
  reflectStatefulSetStatus,
  reflectStatus,
} from './reflect-status.js';
import {
  daemonSetHealthy,
  HEALTH_CHECKS,
  ingressHealthy,
  persistentVolumeClaimHealthy,
  podDisruptionBudgetHealthy,
  podHealthy,
  replicaSetHealthy,
  serviceHealthy,
  statefulSetHealthy,
} from './resource-health.js';
import { AGGREGATORS, aggregateTemplateStatus } from './template-status.js';

const GO = 'Karmada f8fdd02';
const NOW = '2026-12-04T18:30:00Z';

const object = (o: Record<string, unknown>): UnstructuredObject =>
  ({ metadata: {}, ...o }) as unknown as UnstructuredObject;
const template = (apiVersion: string, kind: string, status?: Record<string, unknown>, spec?: unknown) =>
  object({ apiVersion, kind, ...(spec ? { spec } : {}), ...(status ? { status } : {}) });
const two = (status: Record<string, unknown>): AggregatedStatusItem[] => [
  { clusterName: 'member1', status, applied: true },
  { clusterName: 'member2', status, applied: true },
];
/** What Karmada writes: the template's new status, or (undefined) the template returned as it was. */
const aggregate = (t: UnstructuredObject, items: AggregatedStatusItem[]) =>
  aggregateTemplateStatus(t, items, NOW);
/** Go returned the object unchanged, or a status equal to the one it had: no write either way. */
const upToDate = (t: UnstructuredObject, items: AggregatedStatusItem[]) => {
  const next = aggregate(t, items);
  return next === undefined || JSON.stringify(next) === JSON.stringify(t.status);
};

describe('aggregatestatus_test.go Test_getAllDefaultAggregateStatusInterpreter', () => {
  it(`${GO}: the thirteen kinds`, () => {
    expect([...AGGREGATORS.keys()].sort()).toEqual(
      [
        'apps/v1/Deployment',
        'apps/v1/ReplicaSet',
        'apps/v1/StatefulSet',
        'batch/v1/Job',
        'v1/Pod',
        'v1/Service',
        'networking.k8s.io/v1/Ingress',
        'batch/v1/CronJob',
        'apps/v1/DaemonSet',
        'v1/PersistentVolume',
        'v1/PersistentVolumeClaim',
        'policy/v1/PodDisruptionBudget',
        'autoscaling/v2/HorizontalPodAutoscaler',
      ].sort(),
    );
  });
});

describe('aggregatestatus_test.go TestAggregateServiceStatus', () => {
  const notLB = [{ clusterName: 'member1', status: {}, applied: true }];
  const lb = [
    { clusterName: 'member1', status: { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } }, applied: true },
  ];
  it.each(['ClusterIP', 'NodePort', 'ExternalName'])(
    `${GO}: ignore update service status when type is %s`,
    (type) => {
      expect(aggregate(template('v1', 'Service', { loadBalancer: {} }, { type }), notLB)).toBeUndefined();
    },
  );
  const newLB = { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } };
  it(`${GO}: update service status when type is LoadBalancer`, () => {
    expect(aggregate(template('v1', 'Service', { loadBalancer: {} }, { type: 'LoadBalancer' }), lb)).toEqual(
      newLB,
    );
  });
  it(`${GO}: ignore update service status as up to date when type is LoadBalancer`, () => {
    expect(upToDate(template('v1', 'Service', newLB, { type: 'LoadBalancer' }), lb)).toBe(true);
  });
});

describe('aggregatestatus_test.go TestAggregateIngressStatus', () => {
  const items = [
    { clusterName: 'member1', status: { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } }, applied: true },
  ];
  const newIngress = { loadBalancer: { ingress: [{ ip: '8.8.8.8' }] } };
  it(`${GO}: update ingress status`, () => {
    expect(aggregate(template('networking.k8s.io/v1', 'Ingress', { loadBalancer: {} }), items)).toEqual(
      newIngress,
    );
  });
  it(`${GO}: ignore update ingress status as up to date`, () => {
    expect(upToDate(template('networking.k8s.io/v1', 'Ingress', newIngress), items)).toBe(true);
  });
});

describe('aggregatestatus_test.go TestAggregateJobStatus', () => {
  const start = '2026-12-04T18:00:00Z';
  const raw = {
    active: 0,
    succeeded: 1,
    failed: 0,
    startTime: start,
    completionTime: start,
    conditions: [
      { type: 'Complete', status: 'True', lastProbeTime: null, lastTransitionTime: null },
      { type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: null, lastTransitionTime: null },
    ],
  };
  const rawFailed = {
    failed: 1,
    startTime: start,
    completionTime: start,
    conditions: [{ type: 'Failed', status: 'True', lastProbeTime: null, lastTransitionTime: null }],
  };
  const cond = (type: string, reason: string, message: string) => ({
    type,
    status: 'True',
    lastProbeTime: NOW,
    lastTransitionTime: NOW,
    reason,
    message,
  });
  const newJob = {
    conditions: [
      cond('Complete', 'Completed', 'Job completed'),
      cond('SuccessCriteriaMet', 'CompletionsReached', 'All member clusters have met success criteria'),
    ],
    startTime: start,
    completionTime: start,
    succeeded: 2,
  };
  it(`${GO}: update job status without job failed`, () => {
    expect(aggregate(template('batch/v1', 'Job', {}), two(raw))).toEqual(newJob);
  });
  it(`${GO}: update job status with job failed`, () => {
    const items = [
      { clusterName: 'member1', status: raw, applied: true },
      { clusterName: 'member2', status: rawFailed, applied: true },
    ];
    expect(aggregate(template('batch/v1', 'Job', {}), items)).toEqual({
      conditions: [cond('Failed', 'JobFailed', 'Job executed failed in member clusters member2')],
      startTime: start,
      completionTime: start,
      succeeded: 1,
      failed: 1,
    });
  });
  it(`${GO}: ignore update job status as up to date`, () => {
    expect(aggregate(template('batch/v1', 'Job', newJob), two(raw))).toBeUndefined();
  });
});

describe('aggregatestatus_test.go TestAggregateDaemonSetStatus', () => {
  const raw = {
    currentNumberScheduled: 1,
    numberMisscheduled: 0,
    desiredNumberScheduled: 1,
    numberReady: 1,
    updatedNumberScheduled: 1,
    numberAvailable: 1,
    numberUnavailable: 0,
  };
  // ToUnstructured: the first four counters are not omitempty.
  const old = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
  const next = {
    currentNumberScheduled: 2,
    numberMisscheduled: 0,
    desiredNumberScheduled: 2,
    numberReady: 2,
    updatedNumberScheduled: 2,
    numberAvailable: 2,
  };
  it(`${GO}: update daemonSet status`, () => {
    expect(aggregate(template('apps/v1', 'DaemonSet', old), two(raw))).toEqual(next);
  });
  it(`${GO}: ignore update daemonSet status as up to date`, () => {
    expect(upToDate(template('apps/v1', 'DaemonSet', next), two(raw))).toBe(true);
  });
});

describe('aggregatestatus_test.go TestAggregateStatefulSetStatus', () => {
  const raw = { replicas: 1, readyReplicas: 1, currentReplicas: 1, updatedReplicas: 1, availableReplicas: 1 };
  const next = {
    replicas: 2,
    readyReplicas: 2,
    currentReplicas: 2,
    updatedReplicas: 2,
    availableReplicas: 2,
  };
  it(`${GO}: update statefulSet status`, () => {
    expect(
      aggregate(template('apps/v1', 'StatefulSet', { replicas: 0, availableReplicas: 0 }), two(raw)),
    ).toEqual(next);
  });
  it(`${GO}: ignore update statefulSet status as up to date`, () => {
    expect(aggregate(template('apps/v1', 'StatefulSet', next), two(raw))).toBeUndefined();
  });
});

describe('aggregatestatus_test.go TestAggregatePodStatus', () => {
  const at = '2026-12-04T18:10:00Z';
  const running = { running: { startedAt: at } };
  const summary = (ready: boolean, state: unknown) => ({
    name: '',
    state,
    lastState: {},
    ready,
    restartCount: 0,
    image: '',
    imageID: '',
  });
  const full = (ready: boolean, id: string) => ({
    containerID: `containerd://${id}`,
    image: 'nginx:latest',
    imageID: `docker.io/library/import-2022-06-05@sha256:${id}`,
    name: 'busybox-2',
    ready,
    restartCount: 0,
    started: true,
    state: running,
    lastState: {},
  });
  const item = (clusterName: string, status: Record<string, unknown> | undefined): AggregatedStatusItem => ({
    clusterName,
    ...(status ? { status } : {}),
    applied: true,
  });
  const pod = (status?: Record<string, unknown>) => template('v1', 'Pod', status ?? {});
  const items1 = [
    item('member1', { containerStatuses: [full(true, 'a')], phase: 'Running' }),
    item('member2', { containerStatuses: [full(true, 'b')], phase: 'Running' }),
  ];
  const newObj = { phase: 'Running', containerStatuses: [summary(true, running), summary(true, running)] };
  it(`${GO}: update initContainer status`, () => {
    const init = [summary(false, { waiting: { reason: 'PodInitializing' } }), summary(false, running)];
    expect(aggregate(pod(), [item('member1', { initContainerStatuses: init, phase: 'Pending' })])).toEqual({
      phase: 'Pending',
      initContainerStatuses: init,
    });
  });
  it(`${GO}: update pod status`, () => {
    expect(aggregate(pod(), items1)).toEqual(newObj);
  });
  it(`${GO}: ignore update pod status as up to date`, () => {
    expect(upToDate(pod(newObj), items1)).toBe(true);
  });
  it(`${GO}: update pod status as one Pod failed`, () => {
    const items = [
      item('member1', { containerStatuses: [full(true, 'a')], phase: 'Running' }),
      item('member2', { containerStatuses: [full(false, 'b')], phase: 'Pending' }),
    ];
    expect(aggregate(pod(newObj), items)).toEqual({
      phase: 'Pending',
      containerStatuses: [summary(true, running), summary(false, running)],
    });
  });
  const rawRunning = { containerStatuses: [summary(true, running)], phase: 'Running' };
  const terminated = (exitCode: number) => ({
    terminated: { exitCode, startedAt: null, finishedAt: null },
  });
  it(`${GO}: failed pod status (Running + Failed => Failed)`, () => {
    const failed = { containerStatuses: [summary(false, terminated(125))], phase: 'Failed' };
    expect(aggregate(pod(), [item('member1', rawRunning), item('member2', failed)])).toEqual({
      phase: 'Failed',
      containerStatuses: [summary(true, running), summary(false, terminated(125))],
    });
  });
  it(`${GO}: succeeded pod status (Running + Succeeded => Running)`, () => {
    const succeeded = { containerStatuses: [summary(false, terminated(0))], phase: 'Succeeded' };
    expect(aggregate(pod(), [item('member1', rawRunning), item('member2', succeeded)])).toEqual({
      phase: 'Running',
      containerStatuses: [summary(true, running), summary(false, terminated(0))],
    });
  });
  it(`${GO}: pending pod status (Running + nil => Pending)`, () => {
    expect(aggregate(pod(), [item('member1', rawRunning), item('member2', undefined)])).toEqual({
      phase: 'Pending',
      containerStatuses: [summary(true, running)],
    });
  });
});

describe('aggregatestatus_test.go TestAggregatePVCStatus', () => {
  const pair = (a: string, b: string): AggregatedStatusItem[] => [
    { clusterName: 'member1', status: { phase: a }, applied: true },
    { clusterName: 'member2', status: { phase: b }, applied: true },
  ];
  const pvc = (status: Record<string, unknown>) => template('v1', 'PersistentVolumeClaim', status);
  it(`${GO}: update pvc status (Bound + Bound)`, () => {
    expect(aggregate(pvc({}), pair('Bound', 'Bound'))).toEqual({ phase: 'Bound' });
  });
  it(`${GO}: update pvc status (Bound + Lost)`, () => {
    expect(aggregate(pvc({}), pair('Bound', 'Lost'))).toEqual({ phase: 'Lost' });
  });
  it(`${GO}: update pvc status (Bound + Pending)`, () => {
    expect(aggregate(pvc({}), pair('Bound', 'Pending'))).toEqual({ phase: 'Pending' });
  });
  it(`${GO}: ignore update pvc status as up to date`, () => {
    expect(upToDate(pvc({ phase: 'Bound' }), pair('Bound', 'Bound'))).toBe(true);
  });
});

describe('aggregatestatus_test.go TestAggregatePVStatus', () => {
  const pair = (a: unknown, b: string): AggregatedStatusItem[] => [
    { clusterName: 'member1', status: a as Record<string, unknown>, applied: true },
    { clusterName: 'member2', status: { phase: b }, applied: true },
  ];
  const pv = (status: Record<string, unknown>) => template('v1', 'PersistentVolume', status);
  it.each([
    { name: 'update pvc status1', a: { phase: 'Available' }, b: 'Available', want: 'Available' },
    { name: 'update pvc status2', a: { phase: 'Released' }, b: 'Released', want: 'Released' },
    { name: 'update pvc status3', a: { phase: 'Bound' }, b: 'Released', want: 'Bound' },
    // Go builds member1's status from a RawExtension, which encodes with no phase.
    { name: 'update pvc status4', a: {}, b: 'Failed', want: 'Failed' },
    { name: 'update pvc status5', a: { phase: 'Available' }, b: 'Pending', want: 'Pending' },
  ])(`${GO}: $name`, ({ a, b, want }) => {
    expect(aggregate(pv({}), pair(a, b))).toEqual({ phase: want });
  });
  it(`${GO}: ignore update pvc status as up to date`, () => {
    expect(upToDate(pv({ phase: 'Available' }), pair({ phase: 'Available' }, 'Available'))).toBe(true);
  });
});

describe('aggregatestatus_test.go TestAggregatedPodDisruptionBudgetStatus', () => {
  const counts = (n: number) => ({
    disruptionsAllowed: n,
    currentHealthy: n,
    desiredHealthy: n,
    expectedPods: n,
  });
  const pdb = (status: Record<string, unknown>) => template('policy/v1', 'PodDisruptionBudget', status);
  const eviction = '2026-12-04T18:20:00Z';
  const unhealthy = {
    currentHealthy: 0,
    desiredHealthy: 1,
    disruptionsAllowed: 0,
    expectedPods: 1,
    disruptedPods: { 'pod-1234': eviction },
  };
  it(`${GO}: update pdb status`, () => {
    expect(aggregate(pdb(counts(1)), two(counts(1)))).toEqual(counts(2));
  });
  it(`${GO}: update pdb status with disrupted pods`, () => {
    expect(aggregate(pdb(counts(1)), two(unhealthy))).toEqual({
      disruptedPods: { 'member1/pod-1234': eviction, 'member2/pod-1234': eviction },
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 2,
      expectedPods: 2,
    });
  });
  it(`${GO}: ignore update pdb status as up to date`, () => {
    expect(upToDate(pdb(counts(2)), two(counts(1)))).toBe(true);
  });
});

describe('aggregatestatus_test.go Test_aggregateCronJobStatus', () => {
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: 'foo',
    namespace: 'default',
    resourceVersion: '1',
    uid: '1d5db04f-f2e8-4807-b6d4-7b78f402250d',
  };
  it(`${GO}: update cronjob status`, () => {
    const items: AggregatedStatusItem[] = [
      {
        clusterName: 'member1',
        status: { active: [job], lastScheduleTime: '2023-02-08T07:16:00Z', lastSuccessfulTime: null },
        applied: true,
      },
      {
        clusterName: 'member2',
        status: {
          active: [job],
          lastScheduleTime: '2023-02-08T07:17:00Z',
          lastSuccessfulTime: '2023-02-08T07:17:00Z',
        },
        applied: true,
      },
    ];
    expect(aggregate(template('batch/v1', 'CronJob', {}), items)).toEqual({
      active: [job, job],
      lastScheduleTime: '2023-02-08T07:17:00Z',
      lastSuccessfulTime: '2023-02-08T07:17:00Z',
    });
  });
});

describe('aggregatestatus_test.go Test_aggregateHorizontalPodAutoscalerStatus', () => {
  const items: AggregatedStatusItem[] = [
    { clusterName: 'member1', status: { currentReplicas: 2, desiredReplicas: 2 }, applied: true },
    { clusterName: 'member2', status: { currentReplicas: 4, desiredReplicas: 4 }, applied: true },
    { clusterName: 'member3', applied: true },
  ];
  const hpa = (status: Record<string, unknown>) =>
    template('autoscaling/v2', 'HorizontalPodAutoscaler', status);
  const expected = { currentReplicas: 6, desiredReplicas: 6, currentMetrics: null };
  it(`${GO}: update hpa status`, () => {
    expect(aggregate(hpa({ desiredReplicas: 0, currentMetrics: null }), items)).toEqual(expected);
  });
  it(`${GO}: hpa status update to dates`, () => {
    expect(upToDate(hpa(expected), items)).toBe(true);
  });
});

describe('reflectstatus_test.go Test_getAllDefaultReflectStatusInterpreter', () => {
  it(`${GO}: the nine kinds with a handler, none for any other`, () => {
    expect([...REFLECT_HANDLERS.keys()].sort()).toEqual(
      [
        'apps/v1/Deployment',
        'apps/v1/ReplicaSet',
        'v1/Service',
        'networking.k8s.io/v1/Ingress',
        'batch/v1/Job',
        'apps/v1/DaemonSet',
        'apps/v1/StatefulSet',
        'policy/v1/PodDisruptionBudget',
        'autoscaling/v2/HorizontalPodAutoscaler',
      ].sort(),
    );
  });
});

describe('reflectstatus_test.go Test_reflectPodDisruptionBudgetStatus', () => {
  const now = '2026-12-04T18:25:00Z';
  it(`${GO}: PDB with valid status`, () => {
    const status = {
      currentHealthy: 2,
      desiredHealthy: 3,
      disruptionsAllowed: 1,
      expectedPods: 3,
      disruptedPods: { pod1: now },
    };
    expect(reflectPodDisruptionBudgetStatus(template('policy/v1', 'PodDisruptionBudget', status))).toEqual(
      status,
    );
  });
  it(`${GO}: PDB without status`, () => {
    expect(reflectPodDisruptionBudgetStatus(template('policy/v1', 'PodDisruptionBudget'))).toBeUndefined();
  });
  it(`${GO}: PDB with invalid status format`, () => {
    expect(() =>
      reflectStatus(object({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', status: 'invalid' })),
    ).toThrow(/not an object/);
  });
});

describe('reflectstatus_test.go Test_reflectHorizontalPodAutoscalerStatus', () => {
  it(`${GO}: HPA with valid status`, () => {
    const hpa = template('autoscaling/v2', 'HorizontalPodAutoscaler', {
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: null,
    });
    expect(reflectHorizontalPodAutoscalerStatus(hpa)).toEqual({
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: null,
    });
  });
  it(`${GO}: HPA without status`, () => {
    expect(
      reflectHorizontalPodAutoscalerStatus(template('autoscaling/v2', 'HorizontalPodAutoscaler')),
    ).toBeUndefined();
  });
  it(`${GO}: HPA with invalid status format`, () => {
    const hpa = object({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', status: 'invalid' });
    expect(() => reflectHorizontalPodAutoscalerStatus(hpa)).toThrow(/not an object/);
    expect(() => reflectStatus(hpa)).toThrow(ReflectStatusError);
  });
});

describe('reflectstatus_test.go Test_reflectServiceStatus', () => {
  it(`${GO}: non-LoadBalancer service should return nil`, () => {
    expect(reflectServiceStatus(object({ spec: { type: 'ClusterIP' } }))).toBeUndefined();
  });
  it(`${GO}: LoadBalancer service without status should return nil`, () => {
    expect(reflectServiceStatus(object({ spec: { type: 'LoadBalancer' } }))).toBeUndefined();
  });
  it(`${GO}: LoadBalancer service with status should return status`, () => {
    const status = { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } };
    expect(reflectServiceStatus(object({ spec: { type: 'LoadBalancer' }, status }))).toEqual(status);
  });
  it(`${GO}: invalid status format should return error`, () => {
    expect(() =>
      reflectServiceStatus(object({ spec: { type: 'LoadBalancer' }, status: 'invalid' })),
    ).toThrow();
  });
});

describe('reflectstatus_test.go Test_reflectJobStatus', () => {
  const t = '2026-12-04T18:26:00Z';
  const condition = {
    type: 'Complete',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: null,
    reason: 'JobComplete',
    message: 'Job completed successfully',
  };
  const status = { active: 1, succeeded: 2, completionTime: t, startTime: t, conditions: [condition] };
  const job = (s?: unknown) =>
    object({ apiVersion: 'batch/v1', kind: 'Job', ...(s !== undefined ? { status: s } : {}) });
  it(`${GO}: job with all status fields`, () => {
    expect(reflectJobStatus(job(status))).toEqual(status);
  });
  it(`${GO}: job without status`, () => {
    expect(reflectJobStatus(job())).toBeUndefined();
  });
  it(`${GO}: job with invalid status type`, () => {
    expect(() => reflectJobStatus(job({ active: 'invalid' }))).toThrow(/not an integer/);
  });
  it(`${GO}: job with empty conditions`, () => {
    const { conditions: _c, ...rest } = status;
    expect(reflectJobStatus(job({ ...rest, conditions: [] }))).toEqual(rest);
  });
  it(`${GO}: job with only active status`, () => {
    expect(reflectJobStatus(job({ active: 1, startTime: t }))).toEqual({ active: 1, startTime: t });
  });
  it(`${GO}: job with failed status`, () => {
    // Go sets active and succeeded to 0; both are omitempty, so neither the object nor the result holds them.
    const failed = {
      failed: 1,
      completionTime: t,
      startTime: t,
      conditions: [{ ...condition, type: 'Failed', reason: 'JobFailed', message: 'Job failed due to error' }],
    };
    expect(reflectJobStatus(job(failed))).toEqual(failed);
    expect(reflectJobStatus(job({ ...failed, active: 0, succeeded: 0 }))).toEqual(failed);
  });
  it(`${GO}: job with invalid status field`, () => {
    expect(() => reflectJobStatus(job('invalid'))).toThrow(/not an object/);
  });
  it(`${GO}: job with nil completion time`, () => {
    const { completionTime: _c, ...rest } = status;
    expect(reflectJobStatus(job(rest))).toEqual(rest);
  });
  it(`${GO}: job with nil start time`, () => {
    const { startTime: _s, ...rest } = status;
    expect(reflectJobStatus(job(rest))).toEqual(rest);
  });
});

describe('healthy_test.go: StatefulSet, ReplicaSet, DaemonSet, Service, Ingress, PVC, Pod, PDB', () => {
  const workload = (kind: string, status: Record<string, number>, replicas?: number) =>
    object({
      apiVersion: 'apps/v1',
      kind,
      metadata: { name: 'fake', generation: 1 },
      ...(replicas !== undefined ? { spec: { replicas } } : {}),
      status,
    });
  it.each([
    {
      name: 'statefulSet healthy',
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
      status: { availableReplicas: 1, updatedReplicas: 3, observedGeneration: 1 },
      want: false,
    },
  ])(`${GO}: Test_interpretStatefulSetHealth $name`, ({ status, want }) => {
    expect(statefulSetHealthy(workload('StatefulSet', status, 3))).toBe(want);
  });
  it.each([
    { name: 'replicaSet healthy', status: { availableReplicas: 3, observedGeneration: 1 }, want: true },
    {
      name: 'generation not equal to observedGeneration',
      status: { availableReplicas: 3, observedGeneration: 2 },
      want: false,
    },
    {
      name: 'replicas not equal to availableReplicas',
      status: { availableReplicas: 2, observedGeneration: 2 },
      want: false,
    },
  ])(`${GO}: Test_interpretReplicaSetHealth $name`, ({ status, want }) => {
    expect(replicaSetHealthy(workload('ReplicaSet', status, 3))).toBe(want);
  });
  it.each([
    { name: 'daemonSet healthy', generation: 1, status: { observedGeneration: 1 }, want: true },
    {
      name: 'generation not equal to observedGeneration',
      generation: 1,
      status: { observedGeneration: 2 },
      want: false,
    },
    {
      name: 'updatedNumberScheduled < desiredNumberScheduled',
      generation: 0,
      status: { updatedNumberScheduled: 3, desiredNumberScheduled: 5 },
      want: false,
    },
    {
      name: 'numberAvailable < updatedNumberScheduled',
      generation: 0,
      status: { updatedNumberScheduled: 5, numberAvailable: 3 },
      want: false,
    },
  ])(`${GO}: Test_interpretDaemonSetHealth $name`, ({ generation, status, want }) => {
    expect(daemonSetHealthy(object({ metadata: { generation }, status }))).toBe(want);
  });
  const lb = (ingress: unknown[]) => ({ loadBalancer: { ingress } });
  it.each([
    { name: 'service healthy', type: 'LoadBalancer', status: lb([{ ip: 'localhost' }]), want: true },
    { name: 'not loadBalancer type', type: 'NodePort', status: lb([{ ip: 'localhost' }]), want: true },
    { name: 'status.loadBalancer.ingress list is empty', type: 'LoadBalancer', status: lb([]), want: false },
  ])(`${GO}: Test_interpretServiceHealth $name`, ({ type, status, want }) => {
    expect(serviceHealthy(object({ spec: { type }, status }))).toBe(want);
  });
  it.each([
    { name: 'ingress healthy', status: lb([{ ip: 'localhost' }]), want: true },
    { name: 'status.loadBalancer.ingress list is empty', status: lb([]), want: false },
  ])(`${GO}: Test_interpretIngressHealth $name`, ({ status, want }) => {
    expect(ingressHealthy(object({ status }))).toBe(want);
  });
  it.each([
    { name: 'persistentVolumeClaim healthy', phase: 'Bound', want: true },
    { name: 'status.phase not equals to Bound', phase: 'Pending', want: false },
  ])(`${GO}: Test_interpretPersistentVolumeClaimHealth $name`, ({ phase, want }) => {
    expect(persistentVolumeClaimHealthy(object({ status: { phase } }))).toBe(want);
  });
  const ready = (status: string) => [{ type: 'Ready', status }];
  it.each([
    { name: 'service type pod healthy', status: { phase: 'Running', conditions: ready('True') }, want: true },
    { name: 'job type pod healthy', status: { phase: 'Succeeded' }, want: true },
    {
      name: 'pod condition ready false',
      status: { phase: 'Running', conditions: ready('False') },
      want: false,
    },
    {
      name: 'pod phase not running and not succeeded',
      status: { phase: 'Pending', conditions: ready('True') },
      want: false,
    },
    { name: 'condition or phase nil', status: {}, want: false },
  ])(`${GO}: Test_interpretPodHealth $name`, ({ status, want }) => {
    expect(podHealthy(object({ status }))).toBe(want);
  });
  it.each([
    { name: 'podDisruptionBudget healthy', status: { desiredHealthy: 2, currentHealthy: 3 }, want: true },
    {
      name: 'podDisruptionBudget healthy when desired healthy equals to current healthy pods',
      status: { desiredHealthy: 2, currentHealthy: 2 },
      want: true,
    },
    {
      name: 'podDisruptionBudget does not allow further disruption when number of healthy pods is less than desired',
      status: { desiredHealthy: 3, currentHealthy: 2 },
      want: false,
    },
  ])(`${GO}: Test_interpretPodDisruptionBudgetHealth $name`, ({ status, want }) => {
    expect(podDisruptionBudgetHealthy(object({ status }))).toBe(want);
  });
  it(`${GO}: Test_getAllDefaultHealthInterpreter`, () => {
    // Go checks the length and that each of these nine kinds has an entry.
    expect([...HEALTH_CHECKS.keys()].sort()).toEqual(
      [
        'apps/v1/Deployment',
        'apps/v1/StatefulSet',
        'apps/v1/ReplicaSet',
        'apps/v1/DaemonSet',
        'v1/Service',
        'networking.k8s.io/v1/Ingress',
        'v1/PersistentVolumeClaim',
        'v1/Pod',
        'policy/v1/PodDisruptionBudget',
      ].sort(),
    );
  });
});

const ANNOTATION = 'resourcetemplate.karmada.io/generation';
const workloadObject = (
  kind: string,
  status: unknown,
  // null: left out (undefined would take the default).
  annotation: string | null = '1',
  generation: number | null = 2,
) =>
  object({
    apiVersion: 'apps/v1',
    kind,
    metadata: {
      name: `test-${kind.toLowerCase()}`,
      namespace: 'test-ns',
      ...(generation !== null ? { generation } : {}),
      ...(annotation !== null ? { annotations: { [ANNOTATION]: annotation } } : {}),
    },
    ...(status !== undefined ? { status } : {}),
  });

describe('reflectstatus_test.go Test_reflectReplicaSetStatus', () => {
  const status = { replicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 2 };
  it(`${GO}: replicaset with valid status and generation annotation`, () => {
    expect(reflectReplicaSetStatus(workloadObject('ReplicaSet', status))).toEqual({
      generation: 2,
      resourceTemplateGeneration: 1,
      ...status,
    });
  });
  it(`${GO}: replicaset without status field`, () => {
    expect(reflectReplicaSetStatus(workloadObject('ReplicaSet', undefined))).toBeUndefined();
  });
  it(`${GO}: replicaset with invalid generation annotation`, () => {
    expect(() => reflectReplicaSetStatus(workloadObject('ReplicaSet', status, 'invalid'))).toThrow(
      /not an integer/,
    );
  });
  it(`${GO}: replicaset without generation annotation`, () => {
    expect(() => reflectReplicaSetStatus(workloadObject('ReplicaSet', status, null))).toThrow(/missing/);
  });
});

describe('reflectstatus_test.go Test_reflectIngressStatus', () => {
  const status = { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } };
  const ingress = (s?: unknown) =>
    object({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      ...(s !== undefined ? { status: s } : {}),
    });
  it(`${GO}: ingress with valid status`, () => {
    expect(reflectStatus(ingress(status)).status).toEqual(status);
  });
  it(`${GO}: ingress without status`, () => {
    expect(reflectStatus(ingress()).status).toBeUndefined();
  });
  it(`${GO}: ingress with invalid status`, () => {
    expect(() => reflectStatus(ingress('invalid'))).toThrow(/not an object/);
  });
});

describe('reflectstatus_test.go Test_reflectDaemonSetStatus', () => {
  const status = {
    currentNumberScheduled: 3,
    desiredNumberScheduled: 3,
    numberAvailable: 3,
    numberMisscheduled: 0,
    numberReady: 3,
    updatedNumberScheduled: 3,
    observedGeneration: 2,
  };
  it(`${GO}: daemonset with valid status and generation annotation`, () => {
    // numberMisscheduled is not omitempty: Go writes the 0.
    expect(reflectDaemonSetStatus(workloadObject('DaemonSet', status))).toEqual({
      generation: 2,
      resourceTemplateGeneration: 1,
      ...status,
    });
  });
  it(`${GO}: daemonset without status field`, () => {
    expect(reflectDaemonSetStatus(workloadObject('DaemonSet', undefined, '1', 1))).toBeUndefined();
  });
  it(`${GO}: daemonset with invalid generation annotation`, () => {
    const s = { currentNumberScheduled: 1, numberReady: 1 };
    expect(() => reflectDaemonSetStatus(workloadObject('DaemonSet', s, 'invalid', 1))).toThrow(
      /not an integer/,
    );
  });
  it(`${GO}: daemonset with invalid status format`, () => {
    expect(() => reflectStatus(workloadObject('DaemonSet', 'invalid', '1', null))).toThrow(/not an object/);
  });
  it(`${GO}: daemonset without generation annotation`, () => {
    const s = { currentNumberScheduled: 1 };
    expect(() => reflectDaemonSetStatus(workloadObject('DaemonSet', s, null, null))).toThrow(/missing/);
  });
});

describe('reflectstatus_test.go Test_reflectStatefulSetStatus', () => {
  it(`${GO}: statefulset with valid status and generation annotation`, () => {
    const status = {
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
    };
    expect(reflectStatefulSetStatus(workloadObject('StatefulSet', status))).toEqual({
      generation: 2,
      resourceTemplateGeneration: 1,
      ...status,
    });
  });
  it(`${GO}: statefulset without status field`, () => {
    expect(reflectStatefulSetStatus(workloadObject('StatefulSet', undefined, '1', 1))).toBeUndefined();
  });
  it(`${GO}: statefulset with invalid status format`, () => {
    expect(() => reflectStatus(workloadObject('StatefulSet', 'invalid', '1', null))).toThrow(/not an object/);
  });
  it(`${GO}: statefulset with partial status fields`, () => {
    // availableReplicas is not omitempty: Go writes the 0.
    const status = { replicas: 2, readyReplicas: 1, currentReplicas: 1 };
    expect(reflectStatefulSetStatus(workloadObject('StatefulSet', status))).toEqual({
      generation: 2,
      resourceTemplateGeneration: 1,
      ...status,
      availableReplicas: 0,
    });
  });
  it(`${GO}: statefulset with no annotations`, () => {
    const status = { replicas: 1, readyReplicas: 1, currentReplicas: 1 };
    expect(() => reflectStatefulSetStatus(workloadObject('StatefulSet', status, null, null))).toThrow(
      /missing/,
    );
  });
});
