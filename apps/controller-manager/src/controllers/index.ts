// The pure decisions of the scheduler, binding and execution controllers: cached objects in, desired objects
// and decisions out. No Kubernetes I/O happens here.
export type { Binding } from './binding.js';
export {
  bindingFinalizer,
  bindingPermanentId,
  bindingPermanentIdLabel,
  bindingReferenceAnnotations,
  isClusterResourceBinding,
} from './binding.js';
export {
  ClusterField,
  clusterMatchesAffinity,
  fieldSelectorMatches,
  labelSelectorMatches,
} from './cluster-affinity.js';
export type { ConditionDraft } from './conditions.js';
export { conditionChanged, findCondition, setCondition } from './conditions.js';
export type {
  ApplyDecision,
  ManifestOutcome,
  ManifestParseError,
  ManifestParseResult,
  MemberCleanup,
  MemberLookup,
  ParsedManifest,
  WorkDeletionPlan,
  WorkSyncPlan,
} from './execution.js';
export {
  appliedCondition,
  decideApply,
  describeManifest,
  dispatchingCondition,
  isManagedByKarmada,
  parseErrorOutcome,
  parseGroupVersion,
  parseManifests,
  planWorkDeletion,
  planWorkSync,
  skippedOutcome,
} from './execution.js';
export { jsonEqual } from './json.js';
export { pruneServerFields } from './manifest-prune.js';
export { assignByStaticWeight, assignDuplicated } from './replica-assignment.js';
export type { SchedulePatch } from './schedule-writes.js';
export {
  scheduledCondition,
  schedulePatch,
  scheduleStatusUpdate,
  targetClustersEqual,
} from './schedule-writes.js';
export type {
  ScheduleBindingOptions,
  ScheduleFailure,
  ScheduleFailureReason,
  ScheduleInput,
  ScheduleResult,
  ScheduleSuccess,
} from './scheduler.js';
export { isClusterReady, replicaSchedulingTypeOf, schedule, scheduleBinding } from './scheduler.js';
export type { SchedulingDecision, SchedulingSkipReason, SchedulingTrigger } from './scheduling-trigger.js';
export { appliedPlacementValue, schedulingDecision, schedulingNeeded } from './scheduling-trigger.js';
export {
  APPLY_OVERRIDE_POLICY_FAILED,
  aggregateMessage,
  applyOverridePolicyFailedMessage,
  WorkSyncFailedError,
} from './sync-work-failure.js';
export { findUntoleratedTaint, formatTaint, toleratesTaint } from './taint-toleration.js';
export {
  AppliedPlacementAnnotation,
  ManagedAnnotationsAnnotation,
  ManagedLabelsAnnotation,
  ScheduledReason,
  WorkConditionReason,
} from './well-known.js';
export type { DesiredWorksResult, WorkBuildInput } from './work-builder.js';
export {
  desiredWorks,
  mergeWork,
  orphanWorks,
  workBelongsTo,
  workNeedsUpdate,
  workTargetClusters,
} from './work-builder.js';
