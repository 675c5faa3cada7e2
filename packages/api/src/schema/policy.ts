// Schemas for PropagationPolicy and ClusterPropagationPolicy, and the Placement/Failover parts that bindings
// copy verbatim. Defaults are the ones Karmada's CRDs and mutating webhook apply, where a CRD can express them.
import type { CustomResourceDefinition, JSONSchemaProps } from '../crd-types.js';
import {
  bool,
  crd,
  enumOf,
  int32,
  labelSelector,
  listOf,
  nodeSelectorRequirement,
  obj,
  rootSchema,
  str,
  stringList,
  toleration,
} from './common.js';

/** ClusterAffinity's fields, shared with the override policies' targetCluster. */
export const clusterAffinityFields = {
  clusterNames: stringList({ description: 'Clusters to select by name.' }),
  exclude: stringList({ description: 'Clusters to leave out.' }),
  fieldSelector: obj({ matchExpressions: listOf(nodeSelectorRequirement) }, undefined, {
    description: "Selects clusters by the fields 'provider', 'region' or 'zone' (operators In and NotIn).",
  }),
  labelSelector: labelSelector('Selects clusters by label.'),
} as const;

const affinityName: JSONSchemaProps = { type: 'string', minLength: 1, maxLength: 32 };

const stateRules = obj(
  {
    rules: listOf(obj({ aliasLabelName: str(), jsonPath: str() }, ['aliasLabelName', 'jsonPath'])),
  },
  ['rules'],
  { description: 'What to carry over from the failed application (JSONPath into its status) as labels.' },
);

/** spec.placement: shared by both policy kinds and both binding kinds. */
export const placementSchema: JSONSchemaProps = obj(
  {
    clusterAffinities: listOf(
      obj(
        {
          affinityName,
          ...clusterAffinityFields,
          overflowAffinities: listOf(obj({ affinityName, ...clusterAffinityFields }, ['affinityName']), {
            description: 'Further cluster groups to overflow into, in order, when the primary group is full.',
          }),
        },
        ['affinityName'],
      ),
      { description: 'Cluster groups tried in order; cannot be combined with clusterAffinity.' },
    ),
    clusterAffinity: obj(clusterAffinityFields, undefined, {
      description: 'Which clusters may be chosen; cannot be combined with clusterAffinities.',
    }),
    clusterTolerations: listOf(toleration, { description: 'Cluster taints this placement tolerates.' }),
    replicaScheduling: obj(
      {
        replicaDivisionPreference: enumOf(['Aggregated', 'Weighted']),
        replicaSchedulingType: enumOf(['Duplicated', 'Divided'], { default: 'Divided' }),
        weightPreference: obj({
          dynamicWeight: enumOf(['AvailableReplicas']),
          staticWeightList: listOf(
            obj(
              {
                targetCluster: obj(clusterAffinityFields),
                weight: { type: 'integer', format: 'int64', minimum: 1 },
              },
              ['targetCluster', 'weight'],
            ),
          ),
        }),
      },
      undefined,
      { description: 'How replicas are split across the chosen clusters.' },
    ),
    spreadConstraints: listOf(
      obj({
        maxGroups: { type: 'integer' },
        minGroups: { type: 'integer', default: 1 },
        spreadByField: enumOf(['cluster', 'region', 'zone', 'provider']),
        spreadByLabel: str(),
      }),
    ),
    workloadAffinity: obj(
      {
        affinity: obj({ groupByLabelKey: str() }, ['groupByLabelKey']),
        antiAffinity: obj({ groupByLabelKey: str() }, ['groupByLabelKey']),
      },
      undefined,
      { description: 'Co-locate (affinity) or separate (antiAffinity) workloads sharing a label value.' },
    ),
  },
  undefined,
  { description: 'Where the selected resources go.' },
);

/** spec.failover: shared by both policy kinds and both binding kinds. */
export const failoverSchema: JSONSchemaProps = obj(
  {
    application: obj(
      {
        decisionConditions: obj({ tolerationSeconds: { ...int32(), default: 300 } }),
        gracePeriodSeconds: int32(),
        purgeMode: enumOf(['Directly', 'Gracefully', 'Never', 'Immediately', 'Graciously'], {
          default: 'Gracefully',
        }),
        statePreservation: stateRules,
      },
      ['decisionConditions'],
    ),
    cluster: obj({
      purgeMode: enumOf(['Directly', 'Gracefully'], { default: 'Gracefully' }),
      statePreservation: stateRules,
    }),
  },
  undefined,
  { description: 'How Karmada moves the application away from a failing cluster or application.' },
);

export const conflictResolutionSchema: JSONSchemaProps = enumOf(['Abort', 'Overwrite'], { default: 'Abort' });

export const policySuspensionFields = {
  dispatching: bool('Stop dispatching to every cluster.'),
  dispatchingOnClusters: obj({ clusterNames: stringList() }, undefined, {
    description: 'Stop dispatching to these clusters only.',
  }),
} as const;

/** A ResourceSelector, shared with the override policies. */
export const resourceSelector = obj(
  {
    apiVersion: str(),
    kind: str(),
    labelSelector: labelSelector('Ignored when name is set.'),
    name: str(),
    namespace: str(),
  },
  ['apiVersion', 'kind'],
);

const propagationSpec = obj(
  {
    activationPreference: enumOf(['Lazy'], {
      description: 'Lazy: a policy change reaches a template only when the template itself changes.',
    }),
    association: bool('Deprecated: use propagateDeps.'),
    conflictResolution: conflictResolutionSchema,
    dependentOverrides: stringList({
      description: 'OverridePolicies that must exist before this policy takes effect.',
    }),
    failover: failoverSchema,
    placement: placementSchema,
    preemption: enumOf(['Always', 'Never'], { default: 'Never' }),
    preserveResourcesOnDeletion: bool(),
    priority: { ...int32('Explicit priority; higher wins. May be negative.'), default: 0 },
    propagateDeps: bool(),
    resourceSelectors: listOf(resourceSelector, { minItems: 1 }),
    schedulePriority: obj(
      {
        priorityClassName: str(),
        priorityClassSource: enumOf(['KubePriorityClass', 'PodPriorityClass', 'FederatedPriorityClass']),
      },
      ['priorityClassName', 'priorityClassSource'],
    ),
    schedulerName: { ...str(), default: 'default-scheduler' },
    suspension: obj(policySuspensionFields),
  },
  ['resourceSelectors'],
);

const printerColumns = [
  { jsonPath: '.spec.conflictResolution', name: 'CONFLICT-RESOLUTION', type: 'string' },
  { jsonPath: '.spec.priority', name: 'PRIORITY', type: 'string' },
  { jsonPath: '.metadata.creationTimestamp', name: 'AGE', type: 'date' },
] as const;

export const propagationPolicyCrd: CustomResourceDefinition = crd({
  group: 'policy.karmada.io',
  kind: 'PropagationPolicy',
  plural: 'propagationpolicies',
  singular: 'propagationpolicy',
  shortNames: ['pp'],
  scope: 'Namespaced',
  version: {
    name: 'v1alpha1',
    schema: {
      openAPIV3Schema: rootSchema(
        'Propagates the resource templates it selects in its namespace to member clusters.',
        { spec: propagationSpec },
        ['spec'],
      ),
    },
    additionalPrinterColumns: printerColumns,
  },
});

export const clusterPropagationPolicyCrd: CustomResourceDefinition = crd({
  group: 'policy.karmada.io',
  kind: 'ClusterPropagationPolicy',
  plural: 'clusterpropagationpolicies',
  singular: 'clusterpropagationpolicy',
  shortNames: ['cpp'],
  scope: 'Cluster',
  version: {
    name: 'v1alpha1',
    schema: {
      openAPIV3Schema: rootSchema(
        'Propagates the resource templates it selects, cluster-scoped or in any namespace, to member clusters.',
        { spec: propagationSpec },
        ['spec'],
      ),
    },
    additionalPrinterColumns: printerColumns,
  },
});
