// Schemas for ResourceBinding and ClusterResourceBinding (work.karmada.io/v1alpha2, the storage version).
import type { CustomResourceDefinition, JSONSchemaProps } from '../crd-types.js';
import {
  bool,
  conditions,
  crd,
  dateTime,
  enumOf,
  freeForm,
  int32,
  int64,
  listOf,
  nodeSelector,
  obj,
  resourceList,
  rootSchema,
  str,
  stringList,
  stringMap,
  toleration,
} from './common.js';
import {
  conflictResolutionSchema,
  failoverSchema,
  placementSchema,
  policySuspensionFields,
} from './policy.js';

const replicaRequirements = obj(
  {
    namespace: str(),
    nodeClaim: obj({
      hardNodeAffinity: nodeSelector(),
      nodeSelector: stringMap(),
      tolerations: listOf(toleration),
    }),
    priorityClassName: str(),
    resourceRequest: resourceList('What one replica requests.'),
  },
  undefined,
  { description: 'What each replica needs from a cluster.' },
);

const targetCluster = obj(
  {
    components: listOf(obj({ name: str(), replicas: int32() }, ['name'])),
    name: str(),
    replicas: int32(),
  },
  ['name'],
);

const bindingSpec = obj(
  {
    clusters: listOf(targetCluster, {
      description: 'Written by the scheduler; the detector never touches it.',
    }),
    components: listOf(obj({ name: str(), replicaRequirements, replicas: int32() }, ['name', 'replicas'])),
    conflictResolution: conflictResolutionSchema,
    failover: failoverSchema,
    gracefulEvictionTasks: listOf(
      obj(
        {
          clustersBeforeFailover: stringList(),
          creationTimestamp: dateTime(),
          fromCluster: str(),
          gracePeriodSeconds: int32(),
          message: { type: 'string', maxLength: 1024 },
          preservedLabelState: stringMap(),
          producer: str(),
          purgeMode: enumOf(['Directly', 'Gracefully', 'Never', 'Immediately', 'Graciously']),
          reason: {
            type: 'string',
            maxLength: 32,
            minLength: 1,
            pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
          },
          replicas: int32(),
          suppressDeletion: bool(),
        },
        ['fromCluster', 'producer', 'reason'],
      ),
    ),
    placement: placementSchema,
    preserveResourcesOnDeletion: bool(),
    propagateDeps: bool(),
    replicaRequirements,
    replicas: int32(),
    requiredBy: listOf(obj({ clusters: listOf(targetCluster), name: str(), namespace: str() }, ['name'])),
    rescheduleTriggeredAt: dateTime(),
    resource: obj(
      {
        apiVersion: str(),
        kind: str(),
        name: str(),
        namespace: str(),
        resourceVersion: str(),
        uid: str(),
      },
      ['apiVersion', 'kind', 'name'],
      { description: 'The resource template this binding propagates.' },
    ),
    schedulePriority: obj({ priority: int32() }),
    schedulerName: str(),
    suspension: obj({ ...policySuspensionFields, scheduling: bool('Stop scheduling this binding.') }),
    workloadAffinityGroups: obj({ affinityGroup: str(), antiAffinityGroup: str() }),
  },
  ['resource'],
);

const bindingStatus: JSONSchemaProps = obj({
  aggregatedStatus: listOf(
    obj(
      {
        applied: bool(),
        appliedMessage: str(),
        clusterName: str(),
        health: enumOf(['Healthy', 'Unhealthy', 'Unknown']),
        status: freeForm("The member object's status as the resource interpreter reflected it."),
      },
      ['clusterName'],
    ),
  ),
  conditions: conditions(),
  lastScheduledTime: dateTime(),
  schedulerObservedGeneration: int64(),
  schedulerObservingAffinityName: str(),
});

const printerColumns = [
  { jsonPath: '.status.conditions[?(@.type=="Scheduled")].status', name: 'Scheduled', type: 'string' },
  { jsonPath: '.status.conditions[?(@.type=="FullyApplied")].status', name: 'FullyApplied', type: 'string' },
  { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
] as const;

function bindingVersion(description: string) {
  return {
    name: 'v1alpha2',
    schema: {
      openAPIV3Schema: rootSchema(description, { spec: bindingSpec, status: bindingStatus }, ['spec']),
    },
    subresources: { status: {} },
    additionalPrinterColumns: printerColumns,
  };
}

export const resourceBindingCrd: CustomResourceDefinition = crd({
  group: 'work.karmada.io',
  kind: 'ResourceBinding',
  plural: 'resourcebindings',
  singular: 'resourcebinding',
  shortNames: ['rb'],
  scope: 'Namespaced',
  version: bindingVersion('Binds one namespaced resource template to the policy that claimed it.'),
});

export const clusterResourceBindingCrd: CustomResourceDefinition = crd({
  group: 'work.karmada.io',
  kind: 'ClusterResourceBinding',
  plural: 'clusterresourcebindings',
  singular: 'clusterresourcebinding',
  shortNames: ['crb'],
  scope: 'Cluster',
  version: bindingVersion('Binds one cluster-scoped resource template to the policy that claimed it.'),
});
