// Karmada wire strings the controllers need that @warmstart/api does not carry (yet). They must stay
// byte-for-byte equal to Karmada's; move them to @warmstart/api when its owner takes them.

/** On a binding: the JSON of the placement the scheduler last scheduled with (pkg/util/constants.go). */
export const AppliedPlacementAnnotation = 'policy.karmada.io/applied-placement';

/** On a manifest: the sorted, comma-joined keys of its annotations, so a later update can tell which to drop. */
export const ManagedAnnotationsAnnotation = 'resourcetemplate.karmada.io/managed-annotations';

/** On a manifest: the sorted, comma-joined keys of its labels. */
export const ManagedLabelsAnnotation = 'resourcetemplate.karmada.io/managed-labels';

/** Scheduled-condition reasons on a binding (pkg/apis/work/v1alpha2/binding_types.go). */
export const ScheduledReason = {
  Success: 'Success',
  NoClusterFit: 'NoClusterFit',
  SchedulerError: 'SchedulerError',
} as const;

/** Karmada's Normal Event (pkg/events) sent with each Dispatching condition written, carrying its message. */
export const WorkDispatchingEventReason = 'WorkDispatching';

/** Applied- and Dispatching-condition reasons on a Work (pkg/controllers/execution). */
export const WorkConditionReason = {
  AppliedSuccessful: 'AppliedSuccessful',
  AppliedFailed: 'AppliedFailed',
  Dispatching: 'Dispatching',
  SuspendDispatching: 'SuspendDispatching',
} as const;
