// What the detector's reconcilers and event handlers share: the write client, the registry of watched resources,
// the waiting list, feature gates, events, logging and the way into the queues.
import type { Logger } from '@warmstart/informer-cache';
import type { BuildBindingOptions } from './binding-builder.js';
import type { TemplateResources } from './discovery.js';
import type { EventSink } from './events.js';
import type { TemplateKey } from './keys.js';
import type { PolicyKind } from './policy-kinds.js';
import type { SpecChanges } from './spec-changes.js';
import type { WaitingList } from './waiting-list.js';
import type { DetectorWriteClient } from './write-client.js';

/** Karmada feature gates that change what the detector does; defaults are Karmada's. */
export interface DetectorFeatureGates {
  /** PolicyPreemption (alpha in Karmada, default false): spec.preemption=Always takes effect. */
  readonly policyPreemption?: boolean | undefined;
  /** PriorityBasedScheduling (beta, default true): copy schedulePriority into bindings. */
  readonly priorityBasedScheduling?: boolean | undefined;
  /** WorkloadAffinity (alpha, default false): derive workloadAffinityGroups. */
  readonly workloadAffinity?: boolean | undefined;
  /** ResourceQuotaEstimate (alpha, default false): namespace and priority class in replica requirements. */
  readonly resourceQuotaEstimate?: boolean | undefined;
}

export type ResolvedGates = Required<{ [K in keyof DetectorFeatureGates]: boolean }>;

export function resolveGates(gates: DetectorFeatureGates = {}): ResolvedGates {
  return {
    policyPreemption: gates.policyPreemption ?? false,
    priorityBasedScheduling: gates.priorityBasedScheduling ?? true,
    workloadAffinity: gates.workloadAffinity ?? false,
    resourceQuotaEstimate: gates.resourceQuotaEstimate ?? false,
  };
}

export interface DetectorContext {
  readonly writer: DetectorWriteClient;
  readonly resources: TemplateResources;
  readonly waiting: WaitingList;
  /** Templates whose specification changed since their binding was written, as this process saw it. */
  readonly specChanges: SpecChanges;
  readonly gates: ResolvedGates;
  /** Binding options that do not depend on a read (gates, replica interpretation). */
  readonly bindingOptions: BuildBindingOptions;
  readonly logger: Logger;
  /** Never throws. */
  readonly emit: EventSink;
  readonly enqueueTemplate: (key: TemplateKey, priority?: number) => void;
  readonly enqueuePolicy: (kind: PolicyKind, key: string, priority?: number) => void;
}
