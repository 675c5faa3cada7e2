// Replica interpretation for the built-in workloads (Karmada's default resource interpreter): how many
// replicas a template asks for and what each one needs, so the scheduler can divide and place them.
import type {
  KubeObject,
  NodeClaim,
  NodeSelector,
  ReplicaRequirements,
  StringMap,
  Toleration,
} from '@warmstart/api';
import { type PodSpecResources, podResourceRequest } from './pod-requests.js';

/** The replica count and per-replica requirements to put on a binding. */
export interface ReplicaInterpretation {
  readonly replicas: number;
  readonly replicaRequirements: ReplicaRequirements | undefined;
}

export interface ReplicaOptions {
  /** Karmada's ResourceQuotaEstimate gate (alpha, off by default): also record namespace and priority class. */
  readonly resourceQuotaEstimate?: boolean;
}

interface PodSpec extends PodSpecResources {
  readonly nodeSelector?: StringMap;
  readonly tolerations?: readonly Toleration[];
  readonly priorityClassName?: string;
  readonly affinity?: {
    readonly nodeAffinity?: { readonly requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector };
  };
}

interface PodTemplate {
  readonly metadata?: { readonly namespace?: string };
  readonly spec?: PodSpec;
}

function record(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function int(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : 0;
}

// GenerateNodeClaimByPodSpec: present when there is a node selector (even an empty one), a required node
// affinity, or at least one toleration. Empty maps and lists are omitted on the wire.
function nodeClaim(spec: PodSpec): NodeClaim | undefined {
  const hard = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const tolerations = spec.tolerations ?? [];
  if (spec.nodeSelector === undefined && hard === undefined && tolerations.length === 0) return undefined;
  return {
    ...(hard === undefined ? {} : { hardNodeAffinity: hard }),
    ...(spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0
      ? { nodeSelector: spec.nodeSelector }
      : {}),
    ...(tolerations.length > 0 ? { tolerations } : {}),
  };
}

/** GenerateReplicaRequirements for a pod template. */
export function replicaRequirements(
  template: PodTemplate,
  options: ReplicaOptions = {},
): ReplicaRequirements | undefined {
  const spec = template.spec ?? {};
  const claim = nodeClaim(spec);
  const resourceRequest = podResourceRequest(spec);
  if (claim === undefined && resourceRequest === undefined) return undefined;
  const namespace = options.resourceQuotaEstimate ? (template.metadata?.namespace ?? '') : '';
  const priorityClassName = options.resourceQuotaEstimate ? (spec.priorityClassName ?? '') : '';
  return {
    ...(claim === undefined ? {} : { nodeClaim: claim }),
    ...(resourceRequest === undefined ? {} : { resourceRequest }),
    ...(namespace ? { namespace } : {}),
    ...(priorityClassName ? { priorityClassName } : {}),
  };
}

/**
 * Replicas and requirements for apps/v1 Deployment and StatefulSet (spec.replicas), batch/v1 Job
 * (spec.parallelism) and v1 Pod (always 1); undefined for every other kind, which carries no replicas.
 */
export function interpretReplicas(
  template: KubeObject & { readonly spec?: unknown },
  options: ReplicaOptions = {},
): ReplicaInterpretation | undefined {
  const spec = record(template.spec);
  const podTemplate = record(spec.template) as PodTemplate;
  switch (`${template.apiVersion}/${template.kind}`) {
    case 'apps/v1/Deployment':
    case 'apps/v1/StatefulSet':
      return { replicas: int(spec.replicas), replicaRequirements: replicaRequirements(podTemplate, options) };
    case 'batch/v1/Job':
      return {
        replicas: int(spec.parallelism),
        replicaRequirements: replicaRequirements(podTemplate, options),
      };
    case 'v1/Pod':
      return { replicas: 1, replicaRequirements: replicaRequirements({ spec: spec as PodSpec }, options) };
    default:
      return undefined;
  }
}
