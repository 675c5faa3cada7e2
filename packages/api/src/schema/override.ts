// Schemas for OverridePolicy and ClusterOverridePolicy (Karmada's override_types.go): per-cluster changes to the
// objects a binding sends to members. A JSON value (plaintext, field patches) is kept as it is.
import type { CustomResourceDefinition, JSONSchemaProps } from '../crd-types.js';
import { crd, enumOf, listOf, obj, rootSchema, str, stringList, stringMap } from './common.js';
import { clusterAffinityFields, resourceSelector } from './policy.js';

const operator = enumOf(['add', 'remove', 'replace']);
/** apiextensionsv1.JSON: any JSON value. */
const anyJson: JSONSchemaProps = { 'x-kubernetes-preserve-unknown-fields': true };

const patchOperation = (pathField: 'path' | 'subPath'): JSONSchemaProps =>
  obj({ [pathField]: str(), operator, value: anyJson }, [pathField, 'operator']);

const commandArgs = obj({ containerName: str(), operator: enumOf(['add', 'remove']), value: stringList() }, [
  'containerName',
  'operator',
]);

const labelAnnotation = obj({ operator, value: stringMap() }, ['operator']);

const overriders = obj(
  {
    annotationsOverrider: listOf(labelAnnotation),
    argsOverrider: listOf(commandArgs),
    commandOverrider: listOf(commandArgs),
    fieldOverrider: listOf(
      obj(
        {
          fieldPath: str(),
          json: listOf(patchOperation('subPath')),
          yaml: listOf(patchOperation('subPath')),
        },
        ['fieldPath'],
      ),
    ),
    imageOverrider: listOf(
      obj(
        {
          component: enumOf(['Registry', 'Repository', 'Tag']),
          operator,
          predicate: obj({ path: str() }, ['path']),
          value: str(),
        },
        ['component', 'operator'],
      ),
    ),
    labelsOverrider: listOf(labelAnnotation),
    plaintext: listOf(patchOperation('path')),
  },
  undefined,
  { description: 'Applied in this order: image, command, args, labels, annotations, field, plaintext.' },
);

const targetCluster = obj(clusterAffinityFields, undefined, {
  description: 'The clusters the overriders apply to; all clusters when absent.',
});

const overrideSpec = obj({
  overrideRules: listOf(obj({ overriders, targetCluster }, ['overriders'])),
  overriders: { ...overriders, description: 'Deprecated: use overrideRules.' },
  resourceSelectors: listOf(resourceSelector, {
    description:
      'The resources to override; every resource (in the namespace, for an OverridePolicy) when empty.',
  }),
  targetCluster: { ...targetCluster, description: 'Deprecated: use overrideRules.' },
});

const printerColumns = [{ jsonPath: '.metadata.creationTimestamp', name: 'AGE', type: 'date' }] as const;

export const overridePolicyCrd: CustomResourceDefinition = crd({
  group: 'policy.karmada.io',
  kind: 'OverridePolicy',
  plural: 'overridepolicies',
  singular: 'overridepolicy',
  shortNames: ['op'],
  scope: 'Namespaced',
  version: {
    name: 'v1alpha1',
    schema: {
      openAPIV3Schema: rootSchema(
        'Overrides fields of the resources it selects in its namespace, per member cluster.',
        { spec: overrideSpec },
        ['spec'],
      ),
    },
    additionalPrinterColumns: printerColumns,
  },
});

export const clusterOverridePolicyCrd: CustomResourceDefinition = crd({
  group: 'policy.karmada.io',
  kind: 'ClusterOverridePolicy',
  plural: 'clusteroverridepolicies',
  singular: 'clusteroverridepolicy',
  shortNames: ['cop'],
  scope: 'Cluster',
  version: {
    name: 'v1alpha1',
    schema: {
      openAPIV3Schema: rootSchema(
        'Overrides fields of the resources it selects, cluster-scoped or in any namespace, per member cluster.',
        { spec: overrideSpec },
        ['spec'],
      ),
    },
    additionalPrinterColumns: printerColumns,
  },
});
