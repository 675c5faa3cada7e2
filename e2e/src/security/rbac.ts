// RBAC set-up for the security tests, run as the admin: a ClusterRole that grants everything but one resource
// (RBAC only adds, so "all but configmaps" is spelled out from discovery), and deploy/20-rbac.yaml applied with
// its subjects pointed at a test user instead of the in-cluster ServiceAccount.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { ClusterInfo } from '../cluster/provider.js';
import { adminCall } from '../ha/workload.js';

export interface PolicyRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly verbs: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

export interface RbacObject {
  readonly apiVersion: string;
  readonly kind: 'ClusterRole' | 'ClusterRoleBinding' | 'Role' | 'RoleBinding' | string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly rules?: readonly PolicyRule[];
  readonly roleRef?: unknown;
  readonly subjects?: readonly unknown[];
}

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

/**
 * A ClusterRole granting every verb on every resource the host serves except `resource` of the core group
 * (its subresources included), and every non-resource URL.
 */
export async function clusterRoleWithoutCore(
  host: ClusterInfo,
  name: string,
  resource: string,
): Promise<RbacObject> {
  const core = (await adminCall(host, 'GET', '/api/v1')) as { resources: { name: string }[] };
  const groups = (await adminCall(host, 'GET', '/apis')) as { groups: { name: string }[] };
  const coreResources = core.resources
    .map((r) => r.name)
    .filter((n) => n !== resource && !n.startsWith(`${resource}/`));
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name },
    rules: [
      { apiGroups: [''], resources: coreResources, verbs: ['*'] },
      { apiGroups: groups.groups.map((g) => g.name), resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ],
  };
}

const userSubject = (user: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user });

/** Creates the objects in order (roles before their bindings), each through its own collection. */
export async function applyRbac(host: ClusterInfo, objects: readonly RbacObject[]): Promise<void> {
  for (const o of objects) {
    const plural = `${o.kind.toLowerCase()}s`;
    const path = o.metadata.namespace
      ? `${RBAC}/namespaces/${o.metadata.namespace}/${plural}`
      : `${RBAC}/${plural}`;
    await adminCall(host, 'POST', path, o, [201]);
  }
}

export function clusterRoleBinding(name: string, role: string, user: string): RbacObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [userSubject(user)],
  };
}

export const DEPLOY_RBAC = fileURLToPath(new URL('../../../deploy/20-rbac.yaml', import.meta.url));

/** deploy/20-rbac.yaml as shipped. */
export function loadDeployRbac(path = DEPLOY_RBAC): RbacObject[] {
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((d) => d.toJS() as RbacObject | null)
    .filter((o): o is RbacObject => o?.kind !== undefined);
}

/** The same objects with every binding's subjects replaced by `user`. */
export function bindTo(objects: readonly RbacObject[], user: string): RbacObject[] {
  return objects.map((o) =>
    o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding' ? { ...o, subjects: [userSubject(user)] } : o,
  );
}
