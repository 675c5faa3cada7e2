// work.karmada.io/v1alpha1 Work: the manifests one member cluster should run, in namespace karmada-es-<cluster>.

import type { ResourceHealth } from './binding.js';
import type { Condition, KubeObject, ObjectMeta } from './meta.js';

/** A full object (apiVersion, kind, metadata, ...) to apply on the member cluster. */
export type Manifest = Readonly<Record<string, unknown>>;

export interface WorkloadTemplate {
  readonly manifests?: readonly Manifest[];
}

export interface WorkSpec {
  readonly workload?: WorkloadTemplate;
  readonly suspendDispatching?: boolean;
  readonly preserveResourcesOnDeletion?: boolean;
}

export interface ResourceIdentifier {
  readonly ordinal: number;
  /** Absent for the core group (`omitempty` in Karmada's type). */
  readonly group?: string;
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  readonly namespace?: string;
  readonly name: string;
}

export interface ManifestStatus {
  readonly identifier: ResourceIdentifier;
  /** The member object's status: free-form. */
  readonly status?: unknown;
  readonly health?: ResourceHealth;
}

export interface WorkStatus {
  readonly conditions?: readonly Condition[];
  readonly manifestStatuses?: readonly ManifestStatus[];
}

export interface Work extends KubeObject {
  readonly apiVersion: 'work.karmada.io/v1alpha1';
  readonly kind: 'Work';
  readonly metadata: ObjectMeta;
  readonly spec: WorkSpec;
  readonly status?: WorkStatus;
}

/** Condition types on a Work's status. */
export const WorkConditionType = {
  Applied: 'Applied',
  Progressing: 'Progressing',
  Available: 'Available',
  Degraded: 'Degraded',
  Dispatching: 'Dispatching',
} as const;
