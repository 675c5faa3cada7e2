// policy.karmada.io/v1alpha1 OverridePolicy and ClusterOverridePolicy: per-cluster changes to the objects a
// binding sends to its members. Field names and meanings are Karmada's (pkg/apis/policy/v1alpha1/override_types.go).
import type { KubeObject, ObjectMeta, StringMap } from './meta.js';
import type { ClusterAffinity, ResourceSelector } from './policy.js';

/** A JSON-patch style operation. */
export type OverriderOperator = 'add' | 'remove' | 'replace';
export type ImageComponent = 'Registry' | 'Repository' | 'Tag';

/** A JSON patch operation on the object (RFC 6902, add/remove/replace). */
export interface PlaintextOverrider {
  readonly path: string;
  readonly operator: OverriderOperator;
  /** Any JSON value; ignored by remove. */
  readonly value?: unknown;
}

export interface ImagePredicate {
  /** JSON pointer to the image field, e.g. /spec/template/spec/containers/0/image. */
  readonly path: string;
}

/** Changes one component of container images: of the pod template's containers, or the one at predicate.path. */
export interface ImageOverrider {
  readonly predicate?: ImagePredicate;
  readonly component: ImageComponent;
  readonly operator: OverriderOperator;
  readonly value?: string;
}

/** Adds to or removes from the command or args of the named container. */
export interface CommandArgsOverrider {
  readonly containerName: string;
  readonly operator: OverriderOperator;
  readonly value?: readonly string[];
}

/** Adds, replaces or removes labels or annotations. */
export interface LabelAnnotationOverrider {
  readonly operator: OverriderOperator;
  readonly value: StringMap;
}

/** A patch operation inside a field that holds JSON or YAML text. */
export interface FieldPatchOperation {
  readonly subPath: string;
  readonly operator: OverriderOperator;
  readonly value?: unknown;
}

/** Patches JSON or YAML held as text in the field at fieldPath (a ConfigMap's data entry, say). */
export interface FieldOverrider {
  readonly fieldPath: string;
  readonly json?: readonly FieldPatchOperation[];
  readonly yaml?: readonly FieldPatchOperation[];
}

/** What to change; applied in this order: image, command, args, labels, annotations, field, plaintext. */
export interface Overriders {
  readonly plaintext?: readonly PlaintextOverrider[];
  readonly imageOverrider?: readonly ImageOverrider[];
  readonly commandOverrider?: readonly CommandArgsOverrider[];
  readonly argsOverrider?: readonly CommandArgsOverrider[];
  readonly labelsOverrider?: readonly LabelAnnotationOverrider[];
  readonly annotationsOverrider?: readonly LabelAnnotationOverrider[];
  readonly fieldOverrider?: readonly FieldOverrider[];
}

/** Overriders for the clusters targetCluster selects (all clusters when absent). */
export interface RuleWithCluster {
  readonly targetCluster?: ClusterAffinity;
  readonly overriders: Overriders;
}

export interface OverrideSpec {
  /** Absent or empty: every resource (in the policy's namespace, for an OverridePolicy). */
  readonly resourceSelectors?: readonly ResourceSelector[];
  readonly overrideRules?: readonly RuleWithCluster[];
  /** Deprecated: use overrideRules. Read only when overrideRules is empty. */
  readonly targetCluster?: ClusterAffinity;
  /** Deprecated: use overrideRules. Read only when overrideRules is empty. */
  readonly overriders?: Overriders;
}

export interface OverridePolicy extends KubeObject {
  readonly apiVersion: 'policy.karmada.io/v1alpha1';
  readonly kind: 'OverridePolicy';
  readonly metadata: ObjectMeta;
  readonly spec: OverrideSpec;
}

export interface ClusterOverridePolicy extends KubeObject {
  readonly apiVersion: 'policy.karmada.io/v1alpha1';
  readonly kind: 'ClusterOverridePolicy';
  readonly metadata: ObjectMeta;
  readonly spec: OverrideSpec;
}
