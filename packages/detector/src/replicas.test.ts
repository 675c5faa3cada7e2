import { describe, expect, it } from 'vitest';
import { podResourceRequest } from './pod-requests.js';
import { interpretReplicas, replicaRequirements } from './replicas.js';

const workload = (apiVersion: string, kind: string, spec: unknown) => ({
  apiVersion,
  kind,
  metadata: { name: 'w', namespace: 'default' },
  spec,
});

const podSpec = {
  containers: [
    { name: 'a', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
    // Requests default to limits per container.
    { name: 'b', resources: { limits: { cpu: '250m', memory: '128Mi', 'nvidia.com/gpu': 1 } } },
  ],
  // The pod needs at least what its largest init container needs.
  initContainers: [{ name: 'init', resources: { requests: { cpu: '500m' } } }],
  overhead: { cpu: '10m' },
};

describe('podResourceRequest', () => {
  it('sums containers, takes the init maximum, adds overhead, in canonical form', () => {
    expect(podResourceRequest(podSpec)).toEqual({ cpu: '510m', memory: '192Mi', 'nvidia.com/gpu': '1' });
  });

  it('keeps a container request over its limit', () => {
    expect(
      podResourceRequest({
        containers: [{ resources: { requests: { cpu: '1' }, limits: { cpu: '2', memory: '1Gi' } } }],
      }),
    ).toEqual({ cpu: '1', memory: '1Gi' });
  });

  it('counts hugepages in binary units, extended resources and pods in decimal, and drops unknown names', () => {
    expect(
      podResourceRequest({
        containers: [
          {
            resources: {
              requests: {
                'hugepages-2Mi': '4Mi',
                'ephemeral-storage': '1G',
                'example.com/foo': '3',
                pods: '2',
                unknown: '5',
                'requests.example.com/bar': '1',
              },
            },
          },
        ],
      }),
    ).toEqual({
      'ephemeral-storage': '1000000000',
      'example.com/foo': '3',
      'hugepages-2Mi': '4Mi',
      pods: '2',
    });
  });

  it('returns undefined when nothing countable is requested', () => {
    expect(podResourceRequest({ containers: [{ name: 'x' }] })).toBeUndefined();
    expect(podResourceRequest({ containers: [{ resources: { requests: { cpu: '0' } } }] })).toBeUndefined();
  });
});

describe('replicaRequirements', () => {
  it('includes a node claim built from selector, tolerations and required node affinity', () => {
    const hard = {
      nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['a'] }] }],
    };
    expect(
      replicaRequirements({
        spec: {
          nodeSelector: { disk: 'ssd' },
          tolerations: [{ key: 'k', operator: 'Exists' }],
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: hard } },
        },
      }),
    ).toEqual({
      nodeClaim: {
        hardNodeAffinity: hard,
        nodeSelector: { disk: 'ssd' },
        tolerations: [{ key: 'k', operator: 'Exists' }],
      },
    });
  });

  it("an empty node selector still makes a (empty) node claim, as Go's non-nil map does", () => {
    expect(replicaRequirements({ spec: { nodeSelector: {} } })).toEqual({ nodeClaim: {} });
  });

  it('is undefined when there is neither a node claim nor a request', () => {
    expect(replicaRequirements({ spec: { tolerations: [] } })).toBeUndefined();
  });

  it('records namespace and priority class only with the ResourceQuotaEstimate gate', () => {
    const template = {
      metadata: { namespace: 'ns' },
      spec: { priorityClassName: 'high', nodeSelector: { a: 'b' } },
    };
    expect(replicaRequirements(template)).toEqual({ nodeClaim: { nodeSelector: { a: 'b' } } });
    expect(replicaRequirements(template, { resourceQuotaEstimate: true })).toEqual({
      nodeClaim: { nodeSelector: { a: 'b' } },
      namespace: 'ns',
      priorityClassName: 'high',
    });
  });
});

describe('interpretReplicas', () => {
  const template = { spec: podSpec };

  it.each([
    ['apps/v1', 'Deployment', { replicas: 3, template }, 3],
    ['apps/v1', 'StatefulSet', { replicas: 5, template }, 5],
    ['batch/v1', 'Job', { parallelism: 4, completions: 10, template }, 4],
    ['apps/v1', 'Deployment', { template }, 0],
    ['batch/v1', 'Job', { template }, 0],
  ])('%s %s', (apiVersion, kind, spec, replicas) => {
    const result = interpretReplicas(workload(apiVersion, kind, spec));
    expect(result?.replicas).toBe(replicas);
    expect(result?.replicaRequirements?.resourceRequest).toEqual({
      cpu: '510m',
      memory: '192Mi',
      'nvidia.com/gpu': '1',
    });
  });

  it('a Pod is always one replica', () => {
    expect(interpretReplicas(workload('v1', 'Pod', podSpec))?.replicas).toBe(1);
  });

  it.each([
    ['apps/v1', 'DaemonSet'],
    ['apps/v1beta1', 'Deployment'],
    ['v1', 'ConfigMap'],
    ['example.com/v1', 'Deployment'],
  ])('%s %s has no replicas', (apiVersion, kind) => {
    expect(interpretReplicas(workload(apiVersion, kind, { replicas: 3, template }))).toBeUndefined();
  });
});
