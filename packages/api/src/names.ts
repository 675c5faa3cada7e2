// Karmada's name formulas (pkg/util/names). Objects named by these are looked up by name across restarts and
// across implementations, so every formula must match Karmada's exactly, quirks included.
import { deepHashString, safeEncodeString } from './hash.js';
import { Namespaces } from './well-known.js';

/** A name formula was given an input it cannot turn into a valid name. */
export class InvalidNameInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidNameInputError';
  }
}

// RBAC objects and similar may carry ':' in their names, which a CRD object name (a DNS subdomain) cannot.
function replaceColons(name: string): string {
  return name.includes(':') ? name.replaceAll(':', '.') : name;
}

/**
 * The name of the ResourceBinding (or ClusterResourceBinding) for a template: lower(`<name>-<kind>`), with
 * ':' in the name replaced by '.'. Deployment "Nginx" -> "nginx-deployment". There is no hash suffix.
 */
export function bindingName(kind: string, name: string): string {
  return `${replaceColons(name)}-${kind}`.toLowerCase();
}

/**
 * The name of the Work that carries a template to one cluster: `<lower(name)>-<hash>`, where the hash is
 * SafeEncodeString(decimal(fnv32a(lower(`<namespace>-<name>-<kind>`)))) — `<name>-<kind>` when cluster-scoped.
 */
export function workName(kind: string, name: string, namespace: string | undefined): string {
  const lowerName = replaceColons(name).toLowerCase();
  const hashed = (namespace ? `${namespace}-${lowerName}-${kind}` : `${lowerName}-${kind}`).toLowerCase();
  return `${lowerName}-${safeEncodeString(String(deepHashString(hashed)))}`;
}

/** A short key for a binding: SafeEncodeString(decimal(fnv32a(`<namespace>/<name>`, or `<name>`))). */
export function bindingReferenceKey(namespace: string | undefined, name: string): string {
  return safeEncodeString(String(deepHashString(namespace ? `${namespace}/${name}` : name)));
}

/** The execution namespace of a member cluster: `karmada-es-<cluster>`. */
export function executionNamespace(clusterName: string): string {
  if (clusterName === '') {
    throw new InvalidNameInputError('cannot name the execution namespace of a cluster with an empty name');
  }
  return Namespaces.ExecutionSpacePrefix + clusterName;
}

/** The member cluster an execution namespace belongs to, or undefined when `namespace` is not one. */
export function clusterNameFromExecutionNamespace(namespace: string): string | undefined {
  return namespace.startsWith(Namespaces.ExecutionSpacePrefix)
    ? namespace.slice(Namespaces.ExecutionSpacePrefix.length)
    : undefined;
}

/** True for karmada-system, karmada-cluster and every karmada-es-* namespace. */
export function isReservedNamespace(namespace: string): boolean {
  return (
    namespace === Namespaces.KarmadaSystem ||
    namespace === Namespaces.KarmadaCluster ||
    namespace.startsWith(Namespaces.ExecutionSpacePrefix)
  );
}
