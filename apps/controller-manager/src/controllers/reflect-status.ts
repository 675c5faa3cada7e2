// What the work status controller records of a member object, with the rules of Karmada's default resource
// interpreter (pkg/resourceinterpreter/default/native, reflectstatus.go and healthy.go, at f8fdd02): the status
// it reflects into Work.status.manifestStatuses, and the health it reports. Values are shaped as Go's JSON
// encoding of Karmada's types writes them (zero values left out where the field is `omitempty`), so a status
// Karmada wrote and the one we compute compare equal and a swap-over writes nothing.
import { Annotations, type ResourceHealth, type UnstructuredObject } from '@warmstart/api';
import { isRecord, type JsonObject } from './json.js';

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
  | { readonly kind: 'reflected'; readonly status: JsonObject | undefined }
  /**
   * Karmada has a built-in interpreter for this kind that we have not ported (see the README): nothing is
   * recorded, so a status Karmada wrote is left as it is rather than replaced with a different shape.
   */
  | { readonly kind: 'unsupported' };

// Kinds whose Karmada reflect or health handler is not ported yet: see the controller-manager README.
const UNPORTED = new Set([
  'networking.k8s.io/v1/Ingress',
  'v1/PersistentVolumeClaim',
  'v1/Pod',
  'apps/v1/ReplicaSet',
  'v1/Service',
  'batch/v1/Job',
  'apps/v1/DaemonSet',
  'apps/v1/StatefulSet',
  'policy/v1/PodDisruptionBudget',
  'autoscaling/v2/HorizontalPodAutoscaler',
]);

const DEPLOYMENT = 'apps/v1/Deployment';

function gvk(object: Readonly<UnstructuredObject>): string {
  return `${object.apiVersion}/${object.kind}`;
}

/** ReflectStatus of Karmada's default interpreter. Throws {@link ReflectStatusError} on a malformed status. */
export function reflectStatus(object: Readonly<UnstructuredObject>): ReflectedStatus {
  const id = gvk(object);
  if (id === DEPLOYMENT) return { kind: 'reflected', status: reflectDeploymentStatus(object) };
  if (UNPORTED.has(id)) return { kind: 'unsupported' };
  return { kind: 'reflected', status: reflectWholeStatus(object) };
}

/** The whole `.status`, for kinds without a built-in handler (reflectWholeStatus); undefined when absent. */
export function reflectWholeStatus(object: Readonly<UnstructuredObject>): JsonObject | undefined {
  const status = statusMap(object);
  return status === undefined ? undefined : structuredClone(status);
}

// A Deployment's status fields Karmada keeps (appsv1.DeploymentStatus, all `omitempty`), in its JSON order.
const DEPLOYMENT_FIELDS = [
  'observedGeneration',
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
] as const;

/**
 * reflectDeploymentStatus: the member's generation and the template generation it was applied from
 * (`resourcetemplate.karmada.io/generation`, required), with the six replica counters. Undefined when the object
 * has no status at all, or when every value is zero (nothing collected yet).
 */
export function reflectDeploymentStatus(object: Readonly<UnstructuredObject>): JsonObject | undefined {
  const status = statusMap(object);
  if (status === undefined) return undefined;
  const counters: Record<string, number> = {};
  for (const field of DEPLOYMENT_FIELDS) counters[field] = integerField(object, status, field);
  const annotation = object.metadata.annotations?.[Annotations.ResourceTemplateGeneration] ?? '';
  if (!/^[+-]?\d+$/.test(annotation)) {
    throw new ReflectStatusError(
      object,
      `annotation ${Annotations.ResourceTemplateGeneration} is ${annotation === '' ? 'missing' : `"${annotation}", not an integer`}`,
    );
  }
  const out: JsonObject = {};
  const put = (key: string, value: number) => {
    if (value !== 0) out[key] = value;
  };
  put('generation', object.metadata.generation ?? 0);
  put('resourceTemplateGeneration', Number.parseInt(annotation, 10));
  for (const field of DEPLOYMENT_FIELDS) put(field, counters[field]!);
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Karmada's health of a member object: its kind's built-in check, or Healthy for a kind without one. */
export function interpretHealth(object: Readonly<UnstructuredObject>): ResourceHealth {
  if (gvk(object) !== DEPLOYMENT) return 'Healthy';
  try {
    return deploymentHealthy(object) ? 'Healthy' : 'Unhealthy';
  } catch {
    return 'Unknown';
  }
}

/**
 * interpretDeploymentHealth: healthy when the member's controller has observed the current generation, updated
 * every desired replica, and each updated replica is available.
 */
export function deploymentHealthy(object: Readonly<UnstructuredObject>): boolean {
  const status = statusMap(object) ?? {};
  const spec = (object as JsonObject).spec;
  const field = (key: string) => integerField(object, status, key);
  if (field('observedGeneration') !== (object.metadata.generation ?? 0)) return false;
  const desired = isRecord(spec) ? spec.replicas : undefined;
  if (typeof desired === 'number' && field('updatedReplicas') < desired) return false;
  return field('availableReplicas') >= field('updatedReplicas');
}

function statusMap(object: Readonly<UnstructuredObject>): Readonly<JsonObject> | undefined {
  const status = (object as Readonly<JsonObject>).status;
  if (status === undefined || status === null) return undefined;
  if (!isRecord(status)) throw new ReflectStatusError(object, '.status is not an object');
  return status;
}

function integerField(
  object: Readonly<UnstructuredObject>,
  status: Readonly<JsonObject>,
  key: string,
): number {
  const value = status[key];
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new ReflectStatusError(object, `.status.${key} is ${JSON.stringify(value)}, not an integer`);
  return value;
}
