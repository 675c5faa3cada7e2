// Schema for Work (work.karmada.io/v1alpha1): the manifests for one member cluster.
import type { CustomResourceDefinition } from '../crd-types.js';
import { bool, conditions, crd, enumOf, freeForm, listOf, obj, rootSchema, str } from './common.js';

const workSpec = obj({
  preserveResourcesOnDeletion: bool('Leave the member objects in place when this Work is deleted.'),
  suspendDispatching: bool('Stop applying the manifests to the member cluster.'),
  workload: obj({
    manifests: listOf(
      {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
      },
      { description: 'Whole objects to apply to the member cluster, as they should appear there.' },
    ),
  }),
});

const workStatus = obj({
  conditions: conditions(),
  manifestStatuses: listOf(
    obj(
      {
        health: enumOf(['Healthy', 'Unhealthy', 'Unknown']),
        identifier: obj(
          {
            group: str(),
            kind: str(),
            name: str(),
            namespace: str(),
            ordinal: { type: 'integer' },
            resource: str(),
            version: str(),
          },
          ['kind', 'name', 'ordinal', 'resource', 'version'],
        ),
        status: freeForm("The member object's status."),
      },
      ['identifier'],
    ),
  ),
});

export const workCrd: CustomResourceDefinition = crd({
  group: 'work.karmada.io',
  kind: 'Work',
  plural: 'works',
  singular: 'work',
  shortNames: ['wk'],
  scope: 'Namespaced',
  version: {
    name: 'v1alpha1',
    schema: {
      openAPIV3Schema: rootSchema(
        "The objects one member cluster should run; lives in that cluster's execution namespace.",
        { spec: workSpec, status: workStatus },
        ['spec'],
      ),
    },
    subresources: { status: {} },
    additionalPrinterColumns: [
      { jsonPath: '.spec.workload.manifests[*].kind', name: 'Workload-Kind', type: 'string' },
      { jsonPath: '.status.conditions[?(@.type=="Applied")].status', name: 'Applied', type: 'string' },
      { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
    ],
  },
});
