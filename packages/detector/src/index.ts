// The Karmada-compatible ResourceDetector controller (ResourceDetector), and the pure logic it is built from:
// matching, priorities, claims, the desired binding and the write-nothing-when-equal rule, preemption, lazy
// activation and the skip flags.

export type { BuildBindingOptions, DesiredBinding } from './binding-builder.js';
export { buildDesiredBinding } from './binding-builder.js';
export type { BindingWrite } from './binding-update.js';
export {
  mergeSuspension,
  mutateBinding,
  planBindingWrite,
  REPLACED_SPEC_FIELDS,
  RESOURCE_BINDING_ONLY_FIELDS,
} from './binding-update.js';
export type { TemplateClaim } from './claim.js';
export {
  claimMetadata,
  claimStillHeld,
  clusterPropagationPolicyClaimMetadata,
  isClaimedByOtherFeature,
  permanentIdOf,
  propagationPolicyClaimMetadata,
  REMOVE_CLUSTER_PROPAGATION_POLICY_CLAIM,
  REMOVE_PROPAGATION_POLICY_CLAIM,
  readClaim,
  templateClaimChange,
  unclaimChange,
} from './claim.js';
export type { DetectorQueueStatus, ResourceDetectorOptions } from './detector.js';
export {
  DEFAULT_DETECTOR_CONCURRENCY,
  DEFAULT_DISCOVERY_INTERVAL_MS,
  DetectorQueues,
  ResourceDetector,
} from './detector.js';
export type { DetectorFeatureGates } from './detector-context.js';
export type { DiscoveredResource } from './discovery.js';
export { propagatableResources } from './discovery.js';
export {
  BindingOwnerMismatchError,
  DetectorStateError,
  InvalidBindingInputError,
  InvalidFlagError,
  InvalidLabelSelectorError,
  InvalidObjectKeyError,
  MissingPermanentIdError,
  PolicyBeingDeletedError,
  SchedulePriorityError,
  WaitingForDependentOverridesError,
} from './errors.js';
export type { TemplateUpdateAction } from './event-filter.js';
export {
  resourceChangeByKarmada,
  specificationChanged,
  templateEventFilter,
  templateUpdateAction,
} from './event-filter.js';
export { DETECTOR_HANDLER_NAME } from './event-handlers.js';
export type { EventSink, EventSubject, EventType } from './events.js';
export { EventReasons } from './events.js';
export type { ClusterWideKey, TemplateKey } from './keys.js';
export {
  clusterWideKey,
  decodeTemplateKey,
  encodeTemplateKey,
  formatClusterWideKey,
  formatTemplateKey,
} from './keys.js';
export { isLazy, policyDrivenChangeFlag, skipBindingSync } from './lazy-activation.js';
export type { MetadataChange } from './metadata-change.js';
export { applyMetadataChange, changesNothing, NO_CHANGE, withMetadataChange } from './metadata-change.js';
export { metadataMergePatch } from './metadata-patch.js';
export type { PodSpecResources } from './pod-requests.js';
export { podResourceRequest } from './pod-requests.js';
export type { ClaimingPolicy, PolicyCandidates } from './policy-choice.js';
export { explicitPriority, findClaimingPolicy, highestPriorityPolicy } from './policy-choice.js';
export {
  DEFAULT_FAILOVER_GRACE_PERIOD_SECONDS,
  defaultClusterPropagationPolicy,
  defaultPropagationPolicy,
} from './policy-defaults.js';
export type { PreemptionDecision, PreemptionInput, PreemptionSkipReason } from './preemption.js';
export { deprioritizedPeers, preemptionDecision } from './preemption.js';
export {
  formatBinarySI,
  formatDecimalSI,
  InvalidQuantityError,
  integerValue,
  milliValue,
} from './quantity.js';
export type { ReplicaInterpretation, ReplicaOptions } from './replicas.js';
export { interpretReplicas, replicaRequirements } from './replicas.js';
export {
  ImplicitPriority,
  implicitPriority,
  resourceMatchesSelectors,
  resourceSelectorPriority,
  resourceSelectorProblem,
} from './resource-selector.js';
export { semanticallyEqual } from './semantic-equal.js';
export type { GroupVersionKind } from './skipped-apis.js';
export {
  DEFAULT_SKIPPED_GROUP_VERSIONS,
  DEFAULT_SKIPPED_GROUPS,
  DEFAULT_SKIPPED_KINDS,
  parseSkippedPropagatingApis,
  SkippedResourceConfig,
} from './skipped-apis.js';
export {
  compileSkippedNamespaces,
  DEFAULT_SKIPPED_NAMESPACES,
  splitStringSliceFlag,
} from './skipped-namespaces.js';
export type { PolicyLookup, TemplateDecision } from './template-decision.js';
export { decideTemplate } from './template-decision.js';
export type { DetectorWriteClient } from './write-client.js';
