import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ClusterResourceBinding, ResourceBinding } from './binding.js';
import type { Cluster } from './cluster.js';
import type { CustomResourceDefinition, JSONSchemaProps } from './crd-types.js';
import { crdFileName, crds, crdYaml } from './crds.js';
import type { ClusterPropagationPolicy, PropagationPolicy } from './policy.js';
import type { Work } from './work.js';

const crdDir = new URL('../crds/', import.meta.url);

function schemaOf(kind: string): JSONSchemaProps {
  const crd = crds.find((c) => c.spec.names.kind === kind);
  if (!crd) throw new Error(`no CRD for ${kind}`);
  return crd.spec.versions[0]!.schema.openAPIV3Schema;
}

function at(schema: JSONSchemaProps, path: string): JSONSchemaProps {
  let node = schema;
  for (const part of path.split('.')) {
    const next = part === '[]' ? node.items : node.properties?.[part];
    if (!next) throw new Error(`schema has no ${path} (stopped at ${part})`);
    node = next;
  }
  return node;
}

interface Node {
  readonly path: string;
  readonly schema: JSONSchemaProps;
}

function* walk(schema: JSONSchemaProps, path = ''): Generator<Node> {
  yield { path, schema };
  for (const [key, child] of Object.entries(schema.properties ?? {})) yield* walk(child, `${path}.${key}`);
  if (schema.items) yield* walk(schema.items, `${path}[]`);
  if (schema.additionalProperties) yield* walk(schema.additionalProperties, `${path}{}`);
}

// What the apiserver's pruning would keep of `value`: anything the schema does not declare is dropped.
function prune(schema: JSONSchemaProps, value: unknown): unknown {
  if (schema['x-kubernetes-preserve-unknown-fields'] || value === null || typeof value !== 'object')
    return value;
  if (Array.isArray(value)) return schema.items ? value.map((v) => prune(schema.items!, v)) : value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const declared = schema.properties?.[key] ?? schema.additionalProperties;
    if (declared) out[key] = prune(declared, child);
  }
  return out;
}

/** The API server prunes an object by its CRD schema, except metadata, which it validates as ObjectMeta. */
function pruneObject(schema: JSONSchemaProps, object: { readonly metadata: unknown }): unknown {
  const { metadata, ...rest } = object;
  return { ...(prune(schema, rest) as object), metadata };
}

describe('CRD files on disk', () => {
  it('hold exactly what the TypeScript sources produce (run `pnpm --filter @warmstart/api gen:crds`)', async () => {
    const onDisk = (await readdir(crdDir)).filter((f) => f.endsWith('.yaml')).sort();
    expect(onDisk).toEqual(crds.map(crdFileName).sort());
    for (const crd of crds) {
      const text = await readFile(new URL(crdFileName(crd), crdDir), 'utf8');
      expect(text, crdFileName(crd)).toBe(crdYaml(crd));
    }
  });

  it('parse back (with an independent YAML parser) into the same objects', async () => {
    for (const crd of crds) {
      const text = await readFile(new URL(crdFileName(crd), crdDir), 'utf8');
      expect(parse(text)).toEqual(JSON.parse(JSON.stringify(crd)));
    }
  });
});

describe('CRD identity', () => {
  it.each([
    [
      'PropagationPolicy',
      'policy.karmada.io',
      'v1alpha1',
      'propagationpolicies',
      'Namespaced',
      ['pp'],
      false,
    ],
    [
      'ClusterPropagationPolicy',
      'policy.karmada.io',
      'v1alpha1',
      'clusterpropagationpolicies',
      'Cluster',
      ['cpp'],
      false,
    ],
    ['ResourceBinding', 'work.karmada.io', 'v1alpha2', 'resourcebindings', 'Namespaced', ['rb'], true],
    [
      'ClusterResourceBinding',
      'work.karmada.io',
      'v1alpha2',
      'clusterresourcebindings',
      'Cluster',
      ['crb'],
      true,
    ],
    ['Work', 'work.karmada.io', 'v1alpha1', 'works', 'Namespaced', ['wk'], true],
    ['Cluster', 'cluster.karmada.io', 'v1alpha1', 'clusters', 'Cluster', undefined, true],
  ] as const)('%s: %s/%s %s, %s', (kind, group, version, plural, scope, shortNames, status) => {
    const crd = crds.find((c) => c.spec.names.kind === kind) as CustomResourceDefinition;
    expect(crd.metadata.name).toBe(`${plural}.${group}`);
    expect(crd.spec.group).toBe(group);
    expect(crd.spec.scope).toBe(scope);
    expect(crd.spec.names.plural).toBe(plural);
    expect(crd.spec.names.shortNames).toEqual(shortNames);
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([[version, true, true]]);
    expect(crd.spec.versions[0]!.subresources?.status !== undefined).toBe(status);
  });
});

describe('schemas are structural', () => {
  for (const crd of crds) {
    const kind = crd.spec.names.kind;
    const root = crd.spec.versions[0]!.schema.openAPIV3Schema;

    it(`${kind}: every node has a type, and objects declare their fields`, () => {
      for (const { path, schema } of walk(root)) {
        if (schema['x-kubernetes-int-or-string']) {
          expect(schema.type, path).toBeUndefined();
          continue;
        }
        // Any JSON value (apiextensionsv1.JSON, an override's value): no type, kept as it is.
        if (schema['x-kubernetes-preserve-unknown-fields'] === true && schema.type === undefined) continue;
        expect(schema.type, `${path} has no type`).toBeDefined();
        if (schema.type === 'object' && path !== '.metadata') {
          const declares =
            schema.properties !== undefined ||
            schema.additionalProperties !== undefined ||
            schema['x-kubernetes-preserve-unknown-fields'] === true;
          expect(declares, `${path} is an object that declares nothing`).toBe(true);
          expect(schema.properties !== undefined && schema.additionalProperties !== undefined, path).toBe(
            false,
          );
        }
        for (const name of schema.required ?? []) {
          expect(schema.properties?.[name], `${path} requires undeclared ${name}`).toBeDefined();
        }
        if (schema.default !== undefined && schema.enum) expect(schema.enum, path).toContain(schema.default);
      }
    });

    it(`${kind}: metadata is left to the apiserver`, () => {
      expect(root.properties?.metadata).toEqual({ type: 'object' });
    });
  }

  it('keeps unknown fields only where Karmada stores free-form data', () => {
    const preserved = crds.flatMap((crd) =>
      [...walk(crd.spec.versions[0]!.schema.openAPIV3Schema)]
        .filter((n) => n.schema['x-kubernetes-preserve-unknown-fields'])
        .map((n) => `${crd.spec.names.kind}${n.path}`),
    );
    // An override's value is any JSON value, in both policy kinds, in overrideRules[] and the deprecated
    // top-level overriders alike.
    const overrideValues = ['OverridePolicy', 'ClusterOverridePolicy'].flatMap((kind) =>
      ['.spec.overrideRules[].overriders', '.spec.overriders'].flatMap((at) => [
        `${kind}${at}.plaintext[].value`,
        `${kind}${at}.fieldOverrider[].json[].value`,
        `${kind}${at}.fieldOverrider[].yaml[].value`,
      ]),
    );
    expect(preserved.sort()).toEqual(
      [
        ...overrideValues,
        'ClusterResourceBinding.status.aggregatedStatus[].status',
        'ResourceBinding.status.aggregatedStatus[].status',
        'Work.spec.workload.manifests[]',
        'Work.status.manifestStatuses[].status',
      ].sort(),
    );
    expect(at(schemaOf('Work'), 'spec.workload.manifests.[]')['x-kubernetes-embedded-resource']).toBe(true);
  });
});

describe('defaults that Karmada applies', () => {
  it.each([
    ['PropagationPolicy', 'spec.conflictResolution', 'Abort'],
    ['PropagationPolicy', 'spec.preemption', 'Never'],
    ['PropagationPolicy', 'spec.priority', 0],
    ['PropagationPolicy', 'spec.schedulerName', 'default-scheduler'],
    ['PropagationPolicy', 'spec.placement.replicaScheduling.replicaSchedulingType', 'Divided'],
    ['PropagationPolicy', 'spec.placement.spreadConstraints.[].minGroups', 1],
    ['PropagationPolicy', 'spec.failover.application.decisionConditions.tolerationSeconds', 300],
    ['ClusterPropagationPolicy', 'spec.conflictResolution', 'Abort'],
    ['ClusterPropagationPolicy', 'spec.preemption', 'Never'],
    ['ClusterPropagationPolicy', 'spec.priority', 0],
    ['ResourceBinding', 'spec.conflictResolution', 'Abort'],
    ['ResourceBinding', 'spec.placement.replicaScheduling.replicaSchedulingType', 'Divided'],
    ['ClusterResourceBinding', 'spec.conflictResolution', 'Abort'],
  ] as const)('%s %s defaults to %j', (kind, path, value) => {
    expect(at(schemaOf(kind), path).default).toEqual(value);
  });

  it('needs at least one resource selector, as Karmada does', () => {
    expect(at(schemaOf('PropagationPolicy'), 'spec.resourceSelectors').minItems).toBe(1);
    expect(schemaOf('PropagationPolicy').required).toEqual(['spec']);
  });
});

// Fully populated objects, typed against our TypeScript API: if a field the type allows were missing from the
// schema, the apiserver would silently prune it; these samples would then not survive prune() unchanged.
const labelSelector = {
  matchLabels: { app: 'web' },
  matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }],
};
const clusterAffinity = {
  labelSelector,
  fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In' as const, values: ['eu'] }] },
  clusterNames: ['member1'],
  exclude: ['member3'],
};
const failover = {
  application: {
    decisionConditions: { tolerationSeconds: 60 },
    purgeMode: 'Gracefully' as const,
    gracePeriodSeconds: 600,
    statePreservation: { rules: [{ aliasLabelName: 'offset', jsonPath: '{.offset}' }] },
  },
  cluster: {
    purgeMode: 'Directly' as const,
    statePreservation: { rules: [{ aliasLabelName: 'offset', jsonPath: '{.offset}' }] },
  },
};
const placement = {
  clusterAffinity,
  clusterAffinities: [
    {
      affinityName: 'primary',
      ...clusterAffinity,
      overflowAffinities: [{ affinityName: 'cloud', clusterNames: ['c'] }],
    },
  ],
  clusterTolerations: [
    { key: 'k', operator: 'Equal' as const, value: 'v', effect: 'NoExecute' as const, tolerationSeconds: 5 },
  ],
  spreadConstraints: [{ spreadByField: 'region' as const, spreadByLabel: 'x', maxGroups: 2, minGroups: 1 }],
  replicaScheduling: {
    replicaSchedulingType: 'Divided' as const,
    replicaDivisionPreference: 'Weighted' as const,
    weightPreference: {
      staticWeightList: [{ targetCluster: clusterAffinity, weight: 2 }],
      dynamicWeight: 'AvailableReplicas' as const,
    },
  },
  workloadAffinity: { affinity: { groupByLabelKey: 'group' }, antiAffinity: { groupByLabelKey: 'ha' } },
};
const spec = {
  resourceSelectors: [
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web', labelSelector },
  ],
  association: false,
  propagateDeps: true,
  placement,
  priority: -3,
  preemption: 'Always' as const,
  dependentOverrides: ['op'],
  schedulerName: 'default-scheduler',
  failover,
  conflictResolution: 'Overwrite' as const,
  activationPreference: 'Lazy' as const,
  suspension: { dispatching: true, dispatchingOnClusters: { clusterNames: ['member1'] } },
  preserveResourcesOnDeletion: true,
  schedulePriority: { priorityClassSource: 'KubePriorityClass' as const, priorityClassName: 'high' },
};
const pp: PropagationPolicy = {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'p' },
  spec,
};
const cpp: ClusterPropagationPolicy = { ...pp, kind: 'ClusterPropagationPolicy' };
const replicaRequirements = {
  nodeClaim: {
    hardNodeAffinity: {
      nodeSelectorTerms: [
        {
          matchExpressions: [{ key: 'zone', operator: 'In' as const, values: ['a'] }],
          matchFields: [{ key: 'metadata.name', operator: 'In' as const, values: ['n'] }],
        },
      ],
    },
    nodeSelector: { disk: 'ssd' },
    tolerations: [{ key: 'k', operator: 'Exists' as const }],
  },
  resourceRequest: { cpu: '250m', memory: '64Mi', 'nvidia.com/gpu': 1 },
  namespace: 'default',
  priorityClassName: 'high',
};
const bindingSpec = {
  resource: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'default',
    name: 'web',
    uid: 'u',
    resourceVersion: '7',
  },
  propagateDeps: true,
  replicaRequirements,
  replicas: 3,
  components: [{ name: 'main', replicas: 3, replicaRequirements }],
  clusters: [{ name: 'member1', replicas: 3, components: [{ name: 'main', replicas: 3 }] }],
  placement,
  gracefulEvictionTasks: [
    {
      fromCluster: 'member2',
      purgeMode: 'Gracefully' as const,
      replicas: 1,
      reason: 'TaintUntolerated',
      message: 'm',
      producer: 'taint-manager',
      gracePeriodSeconds: 600,
      suppressDeletion: false,
      preservedLabelState: { offset: '5' },
      clustersBeforeFailover: ['member2'],
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
  ],
  requiredBy: [
    { namespace: 'default', name: 'other-deployment', clusters: [{ name: 'member1', replicas: 1 }] },
  ],
  schedulerName: 'default-scheduler',
  failover,
  conflictResolution: 'Abort' as const,
  rescheduleTriggeredAt: '2026-01-01T00:00:00Z',
  suspension: { dispatching: false, dispatchingOnClusters: { clusterNames: ['m'] }, scheduling: true },
  preserveResourcesOnDeletion: false,
  schedulePriority: { priority: 1000 },
  workloadAffinityGroups: { affinityGroup: 'group=a', antiAffinityGroup: 'ha=b' },
};
const bindingStatus = {
  schedulerObservedGeneration: 4,
  schedulerObservingAffinityName: 'primary',
  lastScheduledTime: '2026-01-01T00:00:00Z',
  conditions: [
    {
      type: 'Scheduled',
      status: 'True' as const,
      reason: 'Success',
      message: '',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      observedGeneration: 4,
    },
  ],
  aggregatedStatus: [
    {
      clusterName: 'member1',
      status: { readyReplicas: 3, anything: { nested: true } },
      applied: true,
      appliedMessage: '',
      health: 'Healthy' as const,
    },
  ],
};
const rb: ResourceBinding = {
  apiVersion: 'work.karmada.io/v1alpha2',
  kind: 'ResourceBinding',
  metadata: { name: 'b' },
  spec: bindingSpec,
  status: bindingStatus,
};
const crb: ClusterResourceBinding = { ...rb, kind: 'ClusterResourceBinding' };
const work: Work = {
  apiVersion: 'work.karmada.io/v1alpha1',
  kind: 'Work',
  metadata: { name: 'w' },
  spec: {
    workload: {
      manifests: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } }],
    },
    suspendDispatching: true,
    preserveResourcesOnDeletion: true,
  },
  status: {
    conditions: [
      {
        type: 'Applied',
        status: 'True',
        reason: 'AppliedSuccessful',
        message: '',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
    manifestStatuses: [
      {
        identifier: {
          ordinal: 0,
          group: '',
          version: 'v1',
          kind: 'ConfigMap',
          resource: 'configmaps',
          namespace: 'd',
          name: 'c',
        },
        status: { whatever: 1 },
        health: 'Healthy',
      },
    ],
  },
};
const cluster: Cluster = {
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'c' },
  spec: {
    id: 'id',
    syncMode: 'Push',
    apiEndpoint: 'https://127.0.0.1:6443',
    secretRef: { namespace: 'karmada-cluster', name: 'member1' },
    impersonatorSecretRef: { namespace: 'karmada-cluster', name: 'member1-impersonator' },
    insecureSkipTLSVerification: false,
    proxyURL: 'http://proxy',
    proxyHeader: { a: 'b' },
    provider: 'p',
    region: 'r',
    zone: 'z',
    zones: ['z1'],
    taints: [{ key: 'k', value: 'v', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:00Z' }],
    resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: '0', max: '1' }] }],
  },
  status: {
    kubernetesVersion: 'v1.37.2',
    apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'ClusterReady',
        message: 'ok',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
    ],
    nodeSummary: { totalNum: 3, readyNum: 3 },
    resourceSummary: {
      allocatable: { cpu: '8' },
      allocating: { cpu: '1' },
      allocated: { cpu: '2' },
      allocatableModelings: [{ grade: 0, count: 5 }],
    },
    remedyActions: ['TrafficControl'],
  },
};

describe('every field of the TypeScript API survives the schema', () => {
  it.each([
    ['PropagationPolicy', pp],
    ['ClusterPropagationPolicy', cpp],
    ['ResourceBinding', rb],
    ['ClusterResourceBinding', crb],
    ['Work', work],
    ['Cluster', cluster],
  ] as const)('%s', (kind, sample) => {
    expect(pruneObject(schemaOf(kind), sample)).toEqual(sample);
  });

  it('the check can fail: an undeclared field is pruned', () => {
    const withExtra = { ...pp, spec: { ...pp.spec, notAField: 1 } };
    expect(pruneObject(schemaOf('PropagationPolicy'), withExtra)).toEqual(pp);
  });
});
