// The health the work status controller records for a member object, with the rules of Karmada's default
// interpreter (pkg/resourceinterpreter/default/native/healthy.go at f8fdd02, and work_status_controller.go's
// interpretHealth): a kind with a built-in check is Healthy or Unhealthy (Unknown when its status cannot be
// read), any other kind is Healthy.
import type { ResourceHealth, UnstructuredObject } from '@warmstart/api';
import { isRecord, type JsonObject } from './json.js';
import { gvk, statusMap } from './reflect-status.js';
import { int, obj, objects, str } from './status-fields.js';

type HealthCheck = (object: Readonly<UnstructuredObject>) => boolean;

const specReplicas = (object: Readonly<UnstructuredObject>): number | undefined => {
  const spec = (object as Readonly<JsonObject>).spec;
  const replicas = isRecord(spec) ? spec.replicas : undefined;
  if (replicas === undefined || replicas === null) return undefined;
  return int({ replicas }, 'replicas', '.spec.replicas');
};
const status = (object: Readonly<UnstructuredObject>): Readonly<JsonObject> => statusMap(object) ?? {};
const generation = (object: Readonly<UnstructuredObject>): number => object.metadata.generation ?? 0;
const hasAddress = (lb: Readonly<JsonObject> | undefined, path: string): boolean =>
  (lb ? objects(lb, 'ingress', `${path}.ingress`) : []).some(
    (i) => str(i, 'hostname') !== '' || str(i, 'ip') !== '',
  );

/** interpretDeploymentHealth. */
export function deploymentHealthy(object: Readonly<UnstructuredObject>): boolean {
  const s = status(object);
  if (int(s, 'observedGeneration') !== generation(object)) return false;
  const desired = specReplicas(object);
  if (desired !== undefined && int(s, 'updatedReplicas') < desired) return false;
  return int(s, 'availableReplicas') >= int(s, 'updatedReplicas');
}

/** interpretStatefulSetHealth: the same rule as a Deployment's. */
export const statefulSetHealthy: HealthCheck = deploymentHealthy;

/** interpretReplicaSetHealth. */
export function replicaSetHealthy(object: Readonly<UnstructuredObject>): boolean {
  const s = status(object);
  if (int(s, 'observedGeneration') !== generation(object)) return false;
  const desired = specReplicas(object);
  return !(desired !== undefined && int(s, 'availableReplicas') < desired);
}

/** interpretDaemonSetHealth. */
export function daemonSetHealthy(object: Readonly<UnstructuredObject>): boolean {
  const s = status(object);
  if (int(s, 'observedGeneration') !== generation(object)) return false;
  if (int(s, 'updatedNumberScheduled') < int(s, 'desiredNumberScheduled')) return false;
  return int(s, 'numberAvailable') >= int(s, 'updatedNumberScheduled');
}

/** interpretServiceHealth: any type but LoadBalancer is healthy; a LoadBalancer once it has an address. */
export function serviceHealthy(object: Readonly<UnstructuredObject>): boolean {
  const spec = (object as Readonly<JsonObject>).spec;
  if (!isRecord(spec) || spec.type !== 'LoadBalancer') return true;
  return hasAddress(obj(status(object), 'loadBalancer'), '.status.loadBalancer');
}

/** interpretIngressHealth: healthy once the load balancer has an address. */
export function ingressHealthy(object: Readonly<UnstructuredObject>): boolean {
  return hasAddress(obj(status(object), 'loadBalancer'), '.status.loadBalancer');
}

/** interpretPersistentVolumeClaimHealth: Bound. */
export function persistentVolumeClaimHealthy(object: Readonly<UnstructuredObject>): boolean {
  return str(status(object), 'phase') === 'Bound';
}

/** interpretPodHealth: Succeeded, or Running with condition Ready True. */
export function podHealthy(object: Readonly<UnstructuredObject>): boolean {
  const s = status(object);
  const phase = str(s, 'phase');
  if (phase === 'Succeeded') return true;
  const ready = objects(s, 'conditions').find((c) => c.type === 'Ready');
  return phase === 'Running' && ready?.status === 'True';
}

/** interpretPodDisruptionBudgetHealth: at least the desired number of healthy pods. */
export function podDisruptionBudgetHealthy(object: Readonly<UnstructuredObject>): boolean {
  const s = status(object);
  return int(s, 'currentHealthy') >= int(s, 'desiredHealthy');
}

/** The kinds with a built-in health check (getAllDefaultHealthInterpreter). */
export const HEALTH_CHECKS: ReadonlyMap<string, HealthCheck> = new Map<string, HealthCheck>([
  ['apps/v1/Deployment', deploymentHealthy],
  ['apps/v1/StatefulSet', statefulSetHealthy],
  ['apps/v1/ReplicaSet', replicaSetHealthy],
  ['apps/v1/DaemonSet', daemonSetHealthy],
  ['v1/Service', serviceHealthy],
  ['networking.k8s.io/v1/Ingress', ingressHealthy],
  ['v1/PersistentVolumeClaim', persistentVolumeClaimHealthy],
  ['v1/Pod', podHealthy],
  ['policy/v1/PodDisruptionBudget', podDisruptionBudgetHealthy],
]);

/** Karmada's health of a member object: its kind's built-in check, or Healthy for a kind without one. */
export function interpretHealth(object: Readonly<UnstructuredObject>): ResourceHealth {
  const check = HEALTH_CHECKS.get(gvk(object));
  if (check === undefined) return 'Healthy';
  try {
    return check(object) ? 'Healthy' : 'Unhealthy';
  } catch {
    return 'Unknown';
  }
}
