import { describe, expect, it } from 'vitest';
import { type ClassifiedEvent, classify } from '../audit/audit-log.js';
import type { RbacObject } from './rbac.js';
import { grantMatches, grantsOf, requestKey, verbUsage } from './rbac-verbs.js';

function event(
  verb: string,
  requestURI: string,
  ref?: { resource: string; apiGroup?: string; namespace?: string; subresource?: string },
): ClassifiedEvent {
  const base = {
    auditID: `${verb}${requestURI}`,
    stage: 'ResponseComplete',
    verb,
    requestURI,
    user: { username: 'm' },
    requestReceivedTimestamp: '2026-01-01T00:00:00Z',
    stageTimestamp: '2026-01-01T00:00:00Z',
    ...(ref ? { objectRef: ref } : {}),
  };
  return { ...base, class: classify(base), resourceKey: '' };
}

const role: RbacObject[] = [
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'm' },
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['list', 'update'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch', 'update'] },
      { nonResourceURLs: ['/apis', '/apis/*'], verbs: ['get'] },
    ],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'm', namespace: 'ks' },
    rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }],
  },
];

describe('verbUsage', () => {
  it('counts a wildcard grant only for requests no explicit grant covers, and a Role only in its namespace', () => {
    const usage = verbUsage(grantsOf(role), [
      event('list', '/apis/apps/v1/deployments?resourceVersion=0', {
        resource: 'deployments',
        apiGroup: 'apps',
      }),
      event('patch', '/apis/apps/v1/namespaces/a/deployments/x', {
        resource: 'deployments',
        apiGroup: 'apps',
        namespace: 'a',
      }),
      event('update', '/apis/apps/v1/namespaces/a/deployments/x', {
        resource: 'deployments',
        apiGroup: 'apps',
        namespace: 'a',
      }),
      event('list', '/api/v1/namespaces/other/secrets?resourceVersion=0', {
        resource: 'secrets',
        namespace: 'other',
      }),
      event('get', '/apis/apps/v1'),
    ]);
    expect(usage.unused).toEqual([
      'ClusterRole m: update */*',
      'ClusterRole m: get /apis',
      'Role ks/m: list core/secrets',
    ]);
    expect(usage.uncovered).toEqual([]);
  });

  it('reports a request no grant covers', () => {
    const usage = verbUsage(grantsOf(role), [
      event('delete', '/api/v1/namespaces/a/pods/p', { resource: 'pods', namespace: 'a' }),
    ]);
    expect(usage.uncovered).toEqual(['delete core/pods in a']);
  });

  it("matches '*' resources to subresources, as RBAC does", () => {
    const [wild] = grantsOf(role);
    const status = requestKey(
      event('list', '/x', { resource: 'works', apiGroup: 'work.karmada.io', subresource: 'status' }),
    );
    expect(grantMatches(wild!, status)).toBe(true);
  });
});
