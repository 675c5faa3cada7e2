// The apiextensions.k8s.io/v1 CustomResourceDefinition shape, limited to what our manifests use.

/** apiextensions.k8s.io/v1 JSONSchemaProps (structural subset). */
export interface JSONSchemaProps {
  readonly type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly description?: string;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, JSONSchemaProps>>;
  readonly additionalProperties?: JSONSchemaProps;
  readonly items?: JSONSchemaProps;
  readonly required?: readonly string[];
  readonly enum?: readonly (string | number)[];
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minProperties?: number;
  readonly pattern?: string;
  readonly anyOf?: readonly JSONSchemaProps[];
  readonly 'x-kubernetes-preserve-unknown-fields'?: true;
  readonly 'x-kubernetes-embedded-resource'?: true;
  readonly 'x-kubernetes-int-or-string'?: true;
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-validations'?: readonly { readonly rule: string; readonly message?: string }[];
}

export interface CustomResourceColumnDefinition {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
  readonly priority?: number;
}

export interface CustomResourceDefinitionVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly schema: { readonly openAPIV3Schema: JSONSchemaProps };
  readonly subresources?: { readonly status?: Readonly<Record<string, never>> };
  readonly additionalPrinterColumns?: readonly CustomResourceColumnDefinition[];
}

export interface CustomResourceDefinitionNames {
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
}

export interface CustomResourceDefinition {
  readonly apiVersion: 'apiextensions.k8s.io/v1';
  readonly kind: 'CustomResourceDefinition';
  readonly metadata: { readonly name: string; readonly labels?: Readonly<Record<string, string>> };
  readonly spec: {
    readonly group: string;
    readonly names: CustomResourceDefinitionNames;
    readonly scope: 'Namespaced' | 'Cluster';
    readonly versions: readonly CustomResourceDefinitionVersion[];
  };
}
