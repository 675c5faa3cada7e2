// Typed errors of the detector's pure logic. Each message says what was wrong and what to do about it.

/** A metav1.LabelSelector that Kubernetes would reject (informer-cache's; Karmada treats it as a mismatch). */
export { InvalidLabelSelectorError } from '@warmstart/informer-cache';

/** A policy lacks the permanent-id label that Karmada's mutating webhook sets on create. */
export class MissingPermanentIdError extends Error {
  constructor(kind: string, name: string) {
    super(
      `${kind} ${name} has no permanent-id label; Karmada's mutating webhook sets it on create. ` +
        'Create policies through the defaulting step (or set the label to a UUID) before they can claim templates.',
    );
    this.name = 'MissingPermanentIdError';
  }
}

/** The existing binding belongs to another object with the same kind and name (issue #2090). */
export class BindingOwnerMismatchError extends Error {
  constructor(bindingName: string, ownerUid: string, templateUid: string | undefined) {
    super(
      `binding ${bindingName} is controlled by uid ${ownerUid}, not by the template (uid ${templateUid ?? '<none>'}); ` +
        'it belongs to a deleted predecessor. Retry after the garbage collector has removed it.',
    );
    this.name = 'BindingOwnerMismatchError';
  }
}

/** A template and a policy that cannot produce a binding (e.g. a PropagationPolicy and a cluster-scoped object). */
export class InvalidBindingInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidBindingInputError';
  }
}

/** A policy's schedulePriority cannot be resolved into a number. */
export class SchedulePriorityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchedulePriorityError';
  }
}

/** A --skipped-propagating-apis or --skipped-propagating-namespaces value that cannot be parsed. */
export class InvalidFlagError extends Error {
  readonly flag: string;

  constructor(flag: string, message: string) {
    super(`invalid --${flag}: ${message}`);
    this.name = 'InvalidFlagError';
    this.flag = flag;
  }
}

/** An object without the apiVersion, kind or name a queue key needs. */
export class InvalidObjectKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidObjectKeyError';
  }
}

/** A template's claiming policy is being deleted; the template is retried until the policy is gone. */
export class PolicyBeingDeletedError extends Error {
  constructor(policy: string) {
    super(
      `${policy} is being deleted; the template is retried until the policy's finalizer is removed, ` +
        'then it is matched against the remaining policies',
    );
    this.name = 'PolicyBeingDeletedError';
  }
}

/** A policy names dependentOverrides that do not exist yet. */
export class WaitingForDependentOverridesError extends Error {
  constructor(policy: string) {
    super(`${policy} waits for the override policies named in spec.dependentOverrides; create them`);
    this.name = 'WaitingForDependentOverridesError';
  }
}

/** A ResourceDetector method was called in the wrong state (e.g. start after stop). */
export class DetectorStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DetectorStateError';
  }
}
