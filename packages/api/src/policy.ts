// policy.karmada.io/v1alpha1 PropagationPolicy and ClusterPropagationPolicy: which resource templates go to
// which member clusters. Field names and meanings are Karmada's (pkg/apis/policy/v1alpha1/propagation_types.go).
import type { KubeObject, LabelSelector, NodeSelectorRequirement, ObjectMeta, Toleration } from './meta.js';

export type PreemptionBehavior = 'Always' | 'Never';
export type ConflictResolution = 'Abort' | 'Overwrite';
export type ActivationPreference = 'Lazy';
export type ReplicaSchedulingType = 'Duplicated' | 'Divided';
export type ReplicaDivisionPreference = 'Aggregated' | 'Weighted';
export type DynamicWeightFactor = 'AvailableReplicas';
export type SpreadFieldValue = 'cluster' | 'region' | 'zone' | 'provider';
/** Directly/Gracefully are current; Immediately/Graciously are Karmada's deprecated spellings, still accepted. */
export type PurgeMode = 'Directly' | 'Gracefully' | 'Never' | 'Immediately' | 'Graciously';
export type PriorityClassSource = 'KubePriorityClass' | 'PodPriorityClass' | 'FederatedPriorityClass';

/** Selects resource templates. With a name set, labelSelector is ignored. */
export interface ResourceSelector {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly labelSelector?: LabelSelector;
}

export interface FieldSelector {
  readonly matchExpressions?: readonly NodeSelectorRequirement[];
}

export interface ClusterAffinity {
  readonly labelSelector?: LabelSelector;
  readonly fieldSelector?: FieldSelector;
  readonly clusterNames?: readonly string[];
  readonly exclude?: readonly string[];
}

/** A further tier of clusters the scheduler may overflow into when the primary group is full. */
export interface OverflowClusterAffinity extends ClusterAffinity {
  readonly affinityName: string;
}

export interface ClusterAffinityTerm extends ClusterAffinity {
  readonly affinityName: string;
  readonly overflowAffinities?: readonly OverflowClusterAffinity[];
}

export interface SpreadConstraint {
  readonly spreadByField?: SpreadFieldValue;
  readonly spreadByLabel?: string;
  readonly maxGroups?: number;
  readonly minGroups?: number;
}

export interface StaticClusterWeight {
  readonly targetCluster: ClusterAffinity;
  readonly weight: number;
}

export interface ClusterPreferences {
  readonly staticWeightList?: readonly StaticClusterWeight[];
  readonly dynamicWeight?: DynamicWeightFactor;
}

export interface ReplicaSchedulingStrategy {
  readonly replicaSchedulingType?: ReplicaSchedulingType;
  readonly replicaDivisionPreference?: ReplicaDivisionPreference;
  readonly weightPreference?: ClusterPreferences;
}

/** Groups workloads by the value of a label on the template. */
export interface WorkloadAffinityTerm {
  readonly groupByLabelKey: string;
}

export interface WorkloadAffinity {
  readonly affinity?: WorkloadAffinityTerm;
  readonly antiAffinity?: WorkloadAffinityTerm;
}

export interface Placement {
  readonly clusterAffinity?: ClusterAffinity;
  readonly clusterAffinities?: readonly ClusterAffinityTerm[];
  readonly clusterTolerations?: readonly Toleration[];
  readonly spreadConstraints?: readonly SpreadConstraint[];
  readonly replicaScheduling?: ReplicaSchedulingStrategy;
  readonly workloadAffinity?: WorkloadAffinity;
}

export interface StatePreservationRule {
  readonly aliasLabelName: string;
  readonly jsonPath: string;
}

export interface StatePreservation {
  readonly rules: readonly StatePreservationRule[];
}

export interface DecisionConditions {
  readonly tolerationSeconds?: number;
}

export interface ApplicationFailoverBehavior {
  readonly decisionConditions: DecisionConditions;
  readonly purgeMode?: PurgeMode;
  readonly gracePeriodSeconds?: number;
  readonly statePreservation?: StatePreservation;
}

export interface ClusterFailoverBehavior {
  readonly purgeMode?: PurgeMode;
  readonly statePreservation?: StatePreservation;
}

export interface FailoverBehavior {
  readonly application?: ApplicationFailoverBehavior;
  readonly cluster?: ClusterFailoverBehavior;
}

export interface SuspendClusters {
  readonly clusterNames?: readonly string[];
}

export interface Suspension {
  readonly dispatching?: boolean;
  readonly dispatchingOnClusters?: SuspendClusters;
}

export interface SchedulePriority {
  /** Only KubePriorityClass is implemented by Karmada; the others are reserved. */
  readonly priorityClassSource: PriorityClassSource;
  readonly priorityClassName: string;
}

/** The spec shared by PropagationPolicy and ClusterPropagationPolicy. Neither kind has a status. */
export interface PropagationSpec {
  readonly resourceSelectors: readonly ResourceSelector[];
  /** Deprecated by Karmada in favour of propagateDeps; kept so it survives a round trip. */
  readonly association?: boolean;
  readonly propagateDeps?: boolean;
  readonly placement?: Placement;
  /** Explicit priority; absent means 0. Negative values are allowed. */
  readonly priority?: number;
  readonly preemption?: PreemptionBehavior;
  readonly dependentOverrides?: readonly string[];
  readonly schedulerName?: string;
  readonly failover?: FailoverBehavior;
  readonly conflictResolution?: ConflictResolution;
  readonly activationPreference?: ActivationPreference;
  readonly suspension?: Suspension;
  readonly preserveResourcesOnDeletion?: boolean;
  readonly schedulePriority?: SchedulePriority;
}

export interface PropagationPolicy extends KubeObject {
  readonly apiVersion: 'policy.karmada.io/v1alpha1';
  readonly kind: 'PropagationPolicy';
  readonly metadata: ObjectMeta;
  readonly spec: PropagationSpec;
}

export interface ClusterPropagationPolicy extends KubeObject {
  readonly apiVersion: 'policy.karmada.io/v1alpha1';
  readonly kind: 'ClusterPropagationPolicy';
  readonly metadata: ObjectMeta;
  readonly spec: PropagationSpec;
}
