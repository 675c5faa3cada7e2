// work.karmada.io/v1alpha2 ResourceBinding and ClusterResourceBinding: one per claimed resource template,
// written by the detector (spec from the policy and the template), the scheduler (spec.clusters) and the
// binding controllers (status). Karmada also serves v1alpha1 through a conversion webhook; we serve v1alpha2 only.
import type {
  Condition,
  KubeObject,
  NodeSelector,
  ObjectMeta,
  ResourceList,
  StringMap,
  Toleration,
} from './meta.js';
import type {
  ConflictResolution,
  FailoverBehavior,
  Placement,
  Suspension as PolicySuspension,
  PurgeMode,
} from './policy.js';

/** Points at the resource template; uid and resourceVersion change the binding's generation on every edit. */
export interface ObjectReference {
  readonly apiVersion: string;
  readonly kind: string;
  /** Empty for cluster-scoped templates. */
  readonly namespace?: string;
  readonly name: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
}

export interface NodeClaim {
  readonly hardNodeAffinity?: NodeSelector;
  readonly nodeSelector?: StringMap;
  readonly tolerations?: readonly Toleration[];
}

export interface ReplicaRequirements {
  readonly nodeClaim?: NodeClaim;
  readonly resourceRequest?: ResourceList;
  readonly namespace?: string;
  readonly priorityClassName?: string;
}

/** One pod template of a workload that has several (MultiplePodTemplatesScheduling). */
export interface Component {
  readonly name: string;
  readonly replicas: number;
  readonly replicaRequirements?: ReplicaRequirements;
}

export interface ComponentReplicas {
  readonly name: string;
  readonly replicas?: number;
}

export interface TargetCluster {
  readonly name: string;
  readonly replicas?: number;
  readonly components?: readonly ComponentReplicas[];
}

export interface GracefulEvictionTask {
  readonly fromCluster: string;
  readonly purgeMode?: PurgeMode;
  readonly replicas?: number;
  readonly reason: string;
  readonly message?: string;
  readonly producer: string;
  readonly gracePeriodSeconds?: number;
  readonly suppressDeletion?: boolean;
  readonly preservedLabelState?: StringMap;
  readonly clustersBeforeFailover?: readonly string[];
  readonly creationTimestamp?: string;
}

export interface BindingSnapshot {
  readonly namespace?: string;
  readonly name: string;
  readonly clusters?: readonly TargetCluster[];
}

/** The policy's suspension plus the binding's own scheduling switch, which policy changes never touch. */
export interface BindingSuspension extends PolicySuspension {
  readonly scheduling?: boolean;
}

export interface BindingSchedulePriority {
  readonly priority?: number;
}

/** "<groupByLabelKey>=<label value>" per affinity kind, derived from placement.workloadAffinity. */
export interface WorkloadAffinityGroups {
  readonly affinityGroup?: string;
  readonly antiAffinityGroup?: string;
}

export interface ResourceBindingSpec {
  readonly resource: ObjectReference;
  readonly propagateDeps?: boolean;
  readonly replicaRequirements?: ReplicaRequirements;
  readonly replicas?: number;
  readonly components?: readonly Component[];
  readonly clusters?: readonly TargetCluster[];
  readonly placement?: Placement;
  readonly gracefulEvictionTasks?: readonly GracefulEvictionTask[];
  readonly requiredBy?: readonly BindingSnapshot[];
  readonly schedulerName?: string;
  readonly failover?: FailoverBehavior;
  readonly conflictResolution?: ConflictResolution;
  readonly rescheduleTriggeredAt?: string;
  readonly suspension?: BindingSuspension;
  readonly preserveResourcesOnDeletion?: boolean;
  readonly schedulePriority?: BindingSchedulePriority;
  readonly workloadAffinityGroups?: WorkloadAffinityGroups;
}

export type ResourceHealth = 'Healthy' | 'Unhealthy' | 'Unknown';

export interface AggregatedStatusItem {
  readonly clusterName: string;
  /** The member object's status as the interpreter reflected it: free-form. */
  readonly status?: unknown;
  readonly applied?: boolean;
  readonly appliedMessage?: string;
  readonly health?: ResourceHealth;
}

export interface ResourceBindingStatus {
  readonly schedulerObservedGeneration?: number;
  readonly schedulerObservingAffinityName?: string;
  readonly lastScheduledTime?: string;
  readonly conditions?: readonly Condition[];
  readonly aggregatedStatus?: readonly AggregatedStatusItem[];
}

export interface ResourceBinding extends KubeObject {
  readonly apiVersion: 'work.karmada.io/v1alpha2';
  readonly kind: 'ResourceBinding';
  readonly metadata: ObjectMeta;
  readonly spec: ResourceBindingSpec;
  readonly status?: ResourceBindingStatus;
}

export interface ClusterResourceBinding extends KubeObject {
  readonly apiVersion: 'work.karmada.io/v1alpha2';
  readonly kind: 'ClusterResourceBinding';
  readonly metadata: ObjectMeta;
  readonly spec: ResourceBindingSpec;
  readonly status?: ResourceBindingStatus;
}

/** Condition types on a binding's status. */
export const BindingConditionType = {
  Scheduled: 'Scheduled',
  FullyApplied: 'FullyApplied',
} as const;
