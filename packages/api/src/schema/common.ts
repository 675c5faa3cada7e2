// Building blocks for our structural OpenAPI v3 schemas: Kubernetes' shared types (LabelSelector, Toleration,
// Condition, ...) and small constructors that keep the CRD sources short and uniform.
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
  JSONSchemaProps,
} from '../crd-types.js';

type Props = Readonly<Record<string, JSONSchemaProps>>;

export const str = (description?: string): JSONSchemaProps =>
  description === undefined ? { type: 'string' } : { type: 'string', description };
export const bool = (description?: string): JSONSchemaProps =>
  description === undefined ? { type: 'boolean' } : { type: 'boolean', description };
export const int32 = (description?: string): JSONSchemaProps =>
  description === undefined
    ? { type: 'integer', format: 'int32' }
    : { type: 'integer', format: 'int32', description };
export const int64 = (description?: string): JSONSchemaProps =>
  description === undefined
    ? { type: 'integer', format: 'int64' }
    : { type: 'integer', format: 'int64', description };
export const dateTime = (description?: string): JSONSchemaProps =>
  description === undefined
    ? { type: 'string', format: 'date-time' }
    : { type: 'string', format: 'date-time', description };
export const enumOf = (values: readonly string[], extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'string',
  enum: values,
  ...extra,
});
export const listOf = (items: JSONSchemaProps, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'array',
  items,
  ...extra,
});
export const stringList = (extra: JSONSchemaProps = {}): JSONSchemaProps => listOf({ type: 'string' }, extra);
export const stringMap = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  additionalProperties: { type: 'string' },
  ...extra,
});
export const obj = (
  properties: Props,
  required?: readonly string[],
  extra: JSONSchemaProps = {},
): JSONSchemaProps =>
  required === undefined || required.length === 0
    ? { type: 'object', properties, ...extra }
    : { type: 'object', properties, required, ...extra };
/** A value whose shape is not ours to know (a member object's status, a manifest). */
export const freeForm = (description?: string): JSONSchemaProps => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  'x-kubernetes-preserve-unknown-fields': true,
});

/** resource.Quantity: an integer or a string such as "250m" or "1Gi". */
export const quantity: JSONSchemaProps = {
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  pattern:
    '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
  'x-kubernetes-int-or-string': true,
};

/** corev1.ResourceList. */
export const resourceList = (description?: string): JSONSchemaProps => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  additionalProperties: quantity,
});

const labelSelectorRequirement = obj(
  { key: str(), operator: str(), values: stringList({ 'x-kubernetes-list-type': 'atomic' }) },
  ['key', 'operator'],
);

/** metav1.LabelSelector. */
export const labelSelector = (description?: string): JSONSchemaProps =>
  obj(
    {
      matchExpressions: listOf(labelSelectorRequirement, { 'x-kubernetes-list-type': 'atomic' }),
      matchLabels: stringMap(),
    },
    undefined,
    { 'x-kubernetes-map-type': 'atomic', ...(description === undefined ? {} : { description }) },
  );

/** corev1.NodeSelectorRequirement. */
export const nodeSelectorRequirement = obj(
  {
    key: str(),
    operator: enumOf(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']),
    values: stringList({ 'x-kubernetes-list-type': 'atomic' }),
  },
  ['key', 'operator'],
);

/** corev1.NodeSelector (required node affinity). */
export const nodeSelector = (description?: string): JSONSchemaProps =>
  obj(
    {
      nodeSelectorTerms: listOf(
        obj(
          {
            matchExpressions: listOf(nodeSelectorRequirement, { 'x-kubernetes-list-type': 'atomic' }),
            matchFields: listOf(nodeSelectorRequirement, { 'x-kubernetes-list-type': 'atomic' }),
          },
          undefined,
          { 'x-kubernetes-map-type': 'atomic' },
        ),
        { 'x-kubernetes-list-type': 'atomic' },
      ),
    },
    ['nodeSelectorTerms'],
    { 'x-kubernetes-map-type': 'atomic', ...(description === undefined ? {} : { description }) },
  );

const taintEffect = enumOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

/** corev1.Toleration. */
export const toleration = obj({
  effect: taintEffect,
  key: str(),
  operator: enumOf(['Exists', 'Equal']),
  tolerationSeconds: int64(),
  value: str(),
});

/** corev1.Taint. */
export const taint = obj({ effect: taintEffect, key: str(), timeAdded: dateTime(), value: str() }, [
  'effect',
  'key',
]);

/** metav1.Condition, as CRD-generated schemas describe it. */
export const condition = obj(
  {
    lastTransitionTime: dateTime(),
    message: { type: 'string', maxLength: 32768 },
    observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
    reason: {
      type: 'string',
      maxLength: 1024,
      minLength: 1,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
    },
    status: enumOf(['True', 'False', 'Unknown']),
    type: {
      type: 'string',
      maxLength: 316,
      pattern:
        '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
    },
  },
  ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
);

/** A list of conditions keyed by type. */
export const conditions = (description?: string): JSONSchemaProps =>
  listOf(condition, {
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['type'],
    ...(description === undefined ? {} : { description }),
  });

/** The top-level object schema every CRD version starts from. */
export function rootSchema(
  description: string,
  fields: Props,
  required?: readonly string[],
): JSONSchemaProps {
  return obj({ apiVersion: str(), kind: str(), metadata: { type: 'object' }, ...fields }, required, {
    description,
  });
}

export interface CrdInput {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly scope: 'Namespaced' | 'Cluster';
  readonly version: Omit<CustomResourceDefinitionVersion, 'served' | 'storage'>;
}

/** A single-version CRD in Karmada's `karmada-io` category. */
export function crd(input: CrdInput): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${input.plural}.${input.group}` },
    spec: {
      group: input.group,
      names: {
        kind: input.kind,
        listKind: `${input.kind}List`,
        plural: input.plural,
        singular: input.singular,
        ...(input.shortNames.length > 0 ? { shortNames: input.shortNames } : {}),
        categories: ['karmada-io'],
      },
      scope: input.scope,
      versions: [{ ...input.version, served: true, storage: true }],
    },
  };
}
