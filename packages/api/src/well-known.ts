// Karmada's well-known label, annotation and finalizer keys and reserved namespaces. The strings are wire
// contracts shared with Karmada's own components: they must stay byte-for-byte equal to Karmada's.

/** Labels Karmada reads and writes. */
export const Labels = {
  /** On a PropagationPolicy (its id) and on every template and binding it claims. */
  PropagationPolicyPermanentId: 'propagationpolicy.karmada.io/permanent-id',
  /** On a ClusterPropagationPolicy (its id) and on every template and binding it claims. */
  ClusterPropagationPolicyPermanentId: 'clusterpropagationpolicy.karmada.io/permanent-id',
  /** On a ResourceBinding (its id) and on the Works made from it. */
  ResourceBindingPermanentId: 'resourcebinding.karmada.io/permanent-id',
  /** On a ClusterResourceBinding (its id) and on the Works made from it. */
  ClusterResourceBindingPermanentId: 'clusterresourcebinding.karmada.io/permanent-id',
  /** On a Work (its id). */
  WorkPermanentId: 'work.karmada.io/permanent-id',
  /** Set by another Karmada feature (e.g. MultiClusterService): policies leave such a template alone. */
  ResourceTemplateClaimedBy: 'resourcetemplate.karmada.io/claimed-by',
  /** "true" on every object Karmada created in a member cluster. */
  Managed: 'karmada.io/managed',
  /** A namespace label that the detector's change filter does not treat as Karmada's own. */
  NamespaceSkipAutoPropagation: 'namespace.karmada.io/skip-auto-propagation',
  /**
   * Prefix of the label on an attached binding naming one binding that depends on it: the rest is
   * bindingReferenceKey(namespace, name) of that binding, the value its permanent id.
   */
  DependedByPrefix: 'resourcebinding.karmada.io/depended-by-',
} as const;

/** Annotations Karmada reads and writes. */
export const Annotations = {
  PropagationPolicyNamespace: 'propagationpolicy.karmada.io/namespace',
  PropagationPolicyName: 'propagationpolicy.karmada.io/name',
  ClusterPropagationPolicyName: 'clusterpropagationpolicy.karmada.io/name',
  ResourceBindingNamespace: 'resourcebinding.karmada.io/namespace',
  ResourceBindingName: 'resourcebinding.karmada.io/name',
  ClusterResourceBindingName: 'clusterresourcebinding.karmada.io/name',
  /** On a Work (and a template, which wins): "overwrite" or "abort". */
  WorkConflictResolution: 'work.karmada.io/conflict-resolution',
  AppliedOverrides: 'policy.karmada.io/applied-overrides',
  AppliedClusterOverrides: 'policy.karmada.io/applied-cluster-overrides',
  /** Stamped on a manifest before it goes into a Work. */
  ResourceTemplateUid: 'resourcetemplate.karmada.io/uid',
  ResourceTemplateGeneration: 'resourcetemplate.karmada.io/generation',
  WorkName: 'work.karmada.io/name',
  WorkNamespace: 'work.karmada.io/namespace',
  /** On a binding with propagateDeps: the JSON list of the objects its template depends on. */
  Dependencies: 'resourcebinding.karmada.io/dependencies',
} as const;

/** Values of the work.karmada.io/conflict-resolution annotation. */
export const ConflictResolutionAnnotationValue = {
  Overwrite: 'overwrite',
  Abort: 'abort',
} as const;

/** Finalizers, each owned by the controller that removes it. */
export const Finalizers = {
  PropagationPolicy: 'karmada.io/propagation-policy-controller',
  ClusterPropagationPolicy: 'karmada.io/cluster-propagation-policy-controller',
  ResourceBinding: 'karmada.io/binding-controller',
  ClusterResourceBinding: 'karmada.io/cluster-resource-binding-controller',
  Work: 'karmada.io/execution-controller',
  Cluster: 'karmada.io/cluster-controller',
  /** On a binding with propagateDeps, so its attached bindings are released before it goes. */
  BindingDependenciesDistributor: 'karmada.io/binding-dependencies-distributor',
} as const;

/** Namespaces Karmada reserves for itself. */
export const Namespaces = {
  KarmadaSystem: 'karmada-system',
  KarmadaCluster: 'karmada-cluster',
  /** Prefix of a member cluster's execution namespace, where its Works live. */
  ExecutionSpacePrefix: 'karmada-es-',
} as const;
