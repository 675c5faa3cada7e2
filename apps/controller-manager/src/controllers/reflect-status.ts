// What the work status controller records of a member object's status, with the rules of Karmada's default
// resource interpreter (pkg/resourceinterpreter/default/native/reflectstatus.go and status_type.go, at f8fdd02):
// per kind, the fields kept and the generations they are tagged with; any other kind keeps its whole `.status`.
// Values are shaped as Go's JSON encoding of Karmada's types writes them (zero values left out exactly where the
// Kubernetes field is `omitempty`), so a status Karmada wrote and the one we compute compare equal and a
// swap-over writes nothing.
import { Annotations, type UnstructuredObject } from '@warmstart/api';
import { deepCopy, isRecord, type JsonObject } from './json.js';
import { type FieldSpec, int, obj, objects, put, StatusFieldError, str, time } from './status-fields.js';

/** A member object's status could not be read as its kind's status; the Work records nothing for it. */
export class ReflectStatusError extends Error {
  constructor(object: Readonly<UnstructuredObject>, reason: string) {
    const { namespace, name } = object.metadata;
    super(
      `cannot reflect the status of ${object.kind} ${namespace ? `${namespace}/` : ''}${name}: ${reason}; ` +
        'fix the object on the member (or the annotation Karmada stamps on it); the status is reflected once it reads',
    );
    this.name = 'ReflectStatusError';
  }
}

export type ReflectedStatus =
  /** The status to record (undefined: record the manifest without a status, as Karmada does with nil). */
  { readonly kind: 'reflected'; readonly status: JsonObject | undefined };

type Reflector = (object: Readonly<UnstructuredObject>) => JsonObject | undefined;

/** The kinds with a built-in reflect handler (getAllDefaultReflectStatusInterpreter); the rest keep `.status`. */
export const REFLECT_HANDLERS: ReadonlyMap<string, Reflector> = new Map<string, Reflector>([
  ['apps/v1/Deployment', (o) => reflectDeploymentStatus(o)],
  ['apps/v1/ReplicaSet', (o) => reflectReplicaSetStatus(o)],
  ['v1/Service', (o) => reflectServiceStatus(o)],
  ['networking.k8s.io/v1/Ingress', (o) => reflectWholeStatus(o)],
  ['batch/v1/Job', (o) => reflectJobStatus(o)],
  ['apps/v1/DaemonSet', (o) => reflectDaemonSetStatus(o)],
  ['apps/v1/StatefulSet', (o) => reflectStatefulSetStatus(o)],
  ['policy/v1/PodDisruptionBudget', (o) => reflectPodDisruptionBudgetStatus(o)],
  ['autoscaling/v2/HorizontalPodAutoscaler', (o) => reflectHorizontalPodAutoscalerStatus(o)],
]);

export function gvk(object: Readonly<{ apiVersion: string; kind: string }>): string {
  return `${object.apiVersion}/${object.kind}`;
}

/** ReflectStatus of Karmada's default interpreter. Throws {@link ReflectStatusError} on a malformed status. */
export function reflectStatus(object: Readonly<UnstructuredObject>): ReflectedStatus {
  const handler = REFLECT_HANDLERS.get(gvk(object)) ?? reflectWholeStatus;
  try {
    return { kind: 'reflected', status: handler(object) };
  } catch (error) {
    if (error instanceof StatusFieldError) throw new ReflectStatusError(object, error.message);
    throw error;
  }
}

/** The whole `.status`, for kinds without a built-in handler (reflectWholeStatus); undefined when absent. */
export function reflectWholeStatus(object: Readonly<UnstructuredObject>): JsonObject | undefined {
  const status = statusMap(object);
  return status === undefined ? undefined : deepCopy(status);
}

// The JSON tags of the counters each workload kind keeps (k8s.io/api apps/v1), in the type's field order.
const DEPLOYMENT_FIELDS: readonly FieldSpec[] = [
  ['observedGeneration', true],
  ['replicas', true],
  ['updatedReplicas', true],
  ['readyReplicas', true],
  ['availableReplicas', true],
  ['unavailableReplicas', true],
];
const REPLICA_SET_FIELDS: readonly FieldSpec[] = [
  ['replicas', false],
  ['readyReplicas', true],
  ['availableReplicas', true],
  ['observedGeneration', true],
];
const DAEMON_SET_FIELDS: readonly FieldSpec[] = [
  ['currentNumberScheduled', false],
  ['numberMisscheduled', false],
  ['desiredNumberScheduled', false],
  ['numberReady', false],
  ['observedGeneration', true],
  ['updatedNumberScheduled', true],
  ['numberAvailable', true],
  ['numberUnavailable', true],
];
// Karmada keeps no observedGeneration for a StatefulSet (reflectStatefulSetStatus copies five counters only).
const STATEFUL_SET_FIELDS: readonly FieldSpec[] = [
  ['replicas', false],
  ['readyReplicas', true],
  ['currentReplicas', true],
  ['updatedReplicas', true],
  ['availableReplicas', false],
];

/** The counter fields of each generation-tracked workload kind, as its template's status holds them. */
export const WORKLOAD_FIELDS = {
  Deployment: DEPLOYMENT_FIELDS,
  ReplicaSet: REPLICA_SET_FIELDS,
  DaemonSet: DAEMON_SET_FIELDS,
  StatefulSet: STATEFUL_SET_FIELDS,
} as const;

/**
 * The Wrapped*Status of a workload kind: the member's generation and the template generation it was applied from
 * (`resourcetemplate.karmada.io/generation`, required), with the kind's counters. `emptyIsNil`: Deployments and
 * ReplicaSets record nothing when every value is left out (nothing collected yet).
 */
function reflectWorkload(
  object: Readonly<UnstructuredObject>,
  fields: readonly FieldSpec[],
  emptyIsNil: boolean,
): JsonObject | undefined {
  const status = statusMap(object);
  if (status === undefined) return undefined;
  const counters = fields.map(([name]) => int(status, name));
  const annotation = object.metadata.annotations?.[Annotations.ResourceTemplateGeneration] ?? '';
  if (!/^[+-]?\d+$/.test(annotation)) {
    throw new ReflectStatusError(
      object,
      `annotation ${Annotations.ResourceTemplateGeneration} is ${annotation === '' ? 'missing' : `"${annotation}", not an integer`}`,
    );
  }
  const out: JsonObject = {};
  put(out, ['generation', true], object.metadata.generation ?? 0);
  put(out, ['resourceTemplateGeneration', true], Number.parseInt(annotation, 10));
  fields.forEach((field, i) => {
    put(out, field, counters[i]!);
  });
  return emptyIsNil && Object.keys(out).length === 0 ? undefined : out;
}

/** reflectDeploymentStatus. */
export function reflectDeploymentStatus(object: Readonly<UnstructuredObject>): JsonObject | undefined {
  return reflectWorkload(object, DEPLOYMENT_FIELDS, true);
}

/** reflectReplicaSetStatus (`replicas` is not omitempty, so the result is never empty). */
export function reflectReplicaSetStatus(object: Readonly<UnstructuredObject>): JsonObject | undefined {
  return reflectWorkload(object, REPLICA_SET_FIELDS, true);
}

/** reflectDaemonSetStatus. */
export function reflectDaemonSetStatus(object: Readonly<UnstructuredObject>): JsonObject | undefined {
  return reflectWorkload(object, DAEMON_SET_FIELDS, false);
}

/** reflectStatefulSetStatus. */
export function reflectStatefulSetStatus(object: Readonly<UnstructuredObject>): JsonObject | undefined {
  return reflectWorkload(object, STATEFUL_SET_FIELDS, false);
}

/** reflectServiceStatus: `status.loadBalancer` of a LoadBalancer Service; nothing for any other type. */
export function reflectServiceStatus(object: Readonly<UnstructuredObject>): JsonObject | undefined {
  const spec = (object as Readonly<JsonObject>).spec;
  const type = isRecord(spec) ? spec.type : undefined;
  if (typeof type !== 'string' || type !== 'LoadBalancer') return undefined;
  const status = statusMap(object);
  if (status === undefined) return undefined;
  return { loadBalancer: loadBalancerStatus(obj(status, 'loadBalancer')) };
}

/** A LoadBalancerStatus as Go encodes it: `ingress` left out when empty. */
export function loadBalancerStatus(lb: Readonly<JsonObject> | undefined): JsonObject {
  const ingress = lb === undefined ? [] : objects(lb, 'ingress', '.status.loadBalancer.ingress');
  return ingress.length > 0 ? { ingress: deepCopy(ingress) } : {};
}

/** A JobCondition as Go encodes it (its two times are structs: a missing one is written as null). */
export function jobCondition(condition: Readonly<JsonObject>, path: string): JsonObject {
  const out: JsonObject = {
    type: str(condition, 'type', `${path}.type`),
    status: str(condition, 'status', `${path}.status`),
    lastProbeTime: time(condition, 'lastProbeTime', `${path}.lastProbeTime`),
    lastTransitionTime: time(condition, 'lastTransitionTime', `${path}.lastTransitionTime`),
  };
  put(out, ['reason', true], str(condition, 'reason', `${path}.reason`));
  put(out, ['message', true], str(condition, 'message', `${path}.message`));
  return out;
}

/** reflectJobStatus: conditions, start and completion times, and the active/succeeded/failed counts. */
export function reflectJobStatus(object: Readonly<UnstructuredObject>): JsonObject | undefined {
  const status = statusMap(object);
  if (status === undefined) return undefined;
  const out: JsonObject = {};
  const conditions = objects(status, 'conditions').map((c, i) => jobCondition(c, `.status.conditions[${i}]`));
  if (conditions.length > 0) out.conditions = conditions;
  const startTime = time(status, 'startTime');
  if (startTime !== null) out.startTime = startTime;
  const completionTime = time(status, 'completionTime');
  if (completionTime !== null) out.completionTime = completionTime;
  put(out, ['active', true], int(status, 'active'));
  put(out, ['succeeded', true], int(status, 'succeeded'));
  put(out, ['failed', true], int(status, 'failed'));
  return out;
}

/** The PodDisruptionBudgetStatus counters (none omitempty) Karmada keeps, in the type's order. */
export const PDB_FIELDS: readonly FieldSpec[] = [
  ['disruptionsAllowed', false],
  ['currentHealthy', false],
  ['desiredHealthy', false],
  ['expectedPods', false],
];

/** reflectPodDisruptionBudgetStatus: the four counters and the disrupted pods (observedGeneration dropped). */
export function reflectPodDisruptionBudgetStatus(
  object: Readonly<UnstructuredObject>,
): JsonObject | undefined {
  const status = statusMap(object);
  if (status === undefined) return undefined;
  const out: JsonObject = {};
  const disrupted = disruptedPods(status);
  if (Object.keys(disrupted).length > 0) out.disruptedPods = disrupted;
  for (const field of PDB_FIELDS) put(out, field, int(status, field[0]));
  return out;
}

/** `status.disruptedPods` (pod name to eviction time), checked. */
export function disruptedPods(status: Readonly<JsonObject>): Record<string, string | null> {
  const map = obj(status, 'disruptedPods') ?? {};
  const out: Record<string, string | null> = {};
  for (const key of Object.keys(map)) out[key] = time(map, key, `.status.disruptedPods.${key}`);
  return out;
}

/**
 * reflectHorizontalPodAutoscalerStatus: current and desired replicas. `currentMetrics` is not omitempty in
 * autoscaling/v2, so Go writes it as null.
 */
export function reflectHorizontalPodAutoscalerStatus(
  object: Readonly<UnstructuredObject>,
): JsonObject | undefined {
  const status = statusMap(object);
  if (status === undefined) return undefined;
  const out: JsonObject = {};
  put(out, ['currentReplicas', true], int(status, 'currentReplicas'));
  put(out, ['desiredReplicas', false], int(status, 'desiredReplicas'));
  out.currentMetrics = null;
  return out;
}

export function statusMap(object: Readonly<UnstructuredObject>): Readonly<JsonObject> | undefined {
  const status = (object as Readonly<JsonObject>).status;
  if (status === undefined || status === null) return undefined;
  if (!isRecord(status)) throw new StatusFieldError('.status', status, 'an object');
  return status;
}
