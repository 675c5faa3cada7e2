// Kubernetes Events the detector reports, through a sink the embedding manager implements (it creates core/v1
// Events with its writer). Reasons are Karmada's where Karmada has one.

/** What an Event is about: enough to fill its involvedObject. */
export interface EventSubject {
  readonly apiVersion?: string | undefined;
  readonly kind?: string | undefined;
  readonly metadata: {
    readonly name?: string | undefined;
    readonly namespace?: string | undefined;
    readonly uid?: string | undefined;
    readonly resourceVersion?: string | undefined;
  };
}

export type EventType = 'Normal' | 'Warning';

/** Records an Event. It must not block: the detector calls it from reconciles and ignores what it throws. */
export type EventSink = (object: EventSubject, type: EventType, reason: string, message: string) => void;

export const EventReasons = {
  /** A policy was applied to a template and its binding written (Karmada's). */
  ApplyPolicySucceed: 'ApplyPolicySucceed',
  ApplyPolicyFailed: 'ApplyPolicyFailed',
  /** A policy with preemption took a template from a weaker policy (Karmada's). */
  PreemptPolicySucceed: 'PreemptPolicySucceed',
  PreemptPolicyFailed: 'PreemptPolicyFailed',
  /**
   * A policy's label selector is invalid. Karmada's validating webhook rejects such a policy; without a webhook
   * the detector reports it and lets the policy match nothing until it is fixed.
   */
  InvalidResourceSelector: 'InvalidResourceSelector',
  /** A policy selects an apiVersion and kind the API server does not serve (or the detector skips). */
  UnknownResourceKind: 'UnknownResourceKind',
  /** A kind an earlier UnknownResourceKind Warning named is now served: that Warning no longer holds. */
  ResourceKindServed: 'ResourceKindServed',
} as const;
