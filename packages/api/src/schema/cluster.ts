// Schema for Cluster (cluster.karmada.io/v1alpha1). Karmada serves Cluster from an aggregated API server;
// a CRD with the same group, version and fields lets a plain kube-apiserver stand in for it.
import type { CustomResourceDefinition } from '../crd-types.js';
import {
  bool,
  conditions,
  crd,
  enumOf,
  int32,
  listOf,
  obj,
  quantity,
  resourceList,
  rootSchema,
  str,
  stringList,
  stringMap,
  taint,
} from './common.js';

const secretRef = obj({ name: str(), namespace: str() }, ['name', 'namespace']);

const clusterSpec = obj(
  {
    apiEndpoint: str("URL of the member cluster's API server."),
    id: str(),
    impersonatorSecretRef: secretRef,
    insecureSkipTLSVerification: bool(),
    provider: str(),
    proxyHeader: stringMap(),
    proxyURL: str(),
    region: str(),
    resourceModels: listOf(
      obj(
        {
          grade: { type: 'integer', minimum: 0 },
          ranges: listOf(obj({ max: quantity, min: quantity, name: str() }, ['max', 'min', 'name'])),
        },
        ['grade', 'ranges'],
      ),
    ),
    secretRef: { ...secretRef, description: 'Secret with the keys "token" and "caBundle".' },
    syncMode: enumOf(['Push', 'Pull']),
    taints: listOf(taint),
    zone: str(),
    zones: stringList(),
  },
  ['syncMode'],
);

const clusterStatus = obj({
  apiEnablements: listOf(
    obj(
      {
        groupVersion: str(),
        resources: listOf(obj({ kind: str(), name: str() }, ['kind', 'name'])),
      },
      ['groupVersion'],
    ),
  ),
  conditions: conditions(),
  kubernetesVersion: str(),
  nodeSummary: obj({ readyNum: int32(), totalNum: int32() }),
  remedyActions: stringList(),
  resourceSummary: obj({
    allocatable: resourceList(),
    allocatableModelings: listOf(
      obj({ count: { type: 'integer' }, grade: { type: 'integer', minimum: 0 } }, ['count', 'grade']),
    ),
    allocated: resourceList(),
    allocating: resourceList(),
  }),
});

export const clusterCrd: CustomResourceDefinition = crd({
  group: 'cluster.karmada.io',
  kind: 'Cluster',
  plural: 'clusters',
  singular: 'cluster',
  shortNames: [],
  scope: 'Cluster',
  version: {
    name: 'v1alpha1',
    schema: {
      openAPIV3Schema: rootSchema(
        'A member cluster and how to reach it.',
        { spec: clusterSpec, status: clusterStatus },
        ['spec'],
      ),
    },
    subresources: { status: {} },
    additionalPrinterColumns: [
      { jsonPath: '.status.kubernetesVersion', name: 'VERSION', type: 'string' },
      { jsonPath: '.spec.syncMode', name: 'MODE', type: 'string' },
      { jsonPath: '.status.conditions[?(@.type=="Ready")].status', name: 'READY', type: 'string' },
      { jsonPath: '.metadata.creationTimestamp', name: 'AGE', type: 'date' },
    ],
  },
});
