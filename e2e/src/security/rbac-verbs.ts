// Compares what RBAC grants with what the audit log shows a user doing. Each rule is split into grants of one
// verb on one group/resource; a grant is used when some request needed it. An explicit grant (named group and
// resource) is used by any request it matches; a wildcard grant only by a request that no explicit grant of
// the same verb covers, so "*/* update" shows as unused when every update went to a resource granted by name.
import type { ClassifiedEvent } from '../audit/audit-log.js';
import type { PolicyRule, RbacObject } from './rbac.js';

export interface Grant {
  /** `ClusterRole <name>` or `Role <namespace>/<name>`. */
  readonly source: string;
  /** Namespace a Role's grant is confined to. */
  readonly namespace: string | undefined;
  /** '' for core, '*' for any. */
  readonly group: string;
  /** `resource`, `resource/subresource` or '*'; for non-resource grants the URL pattern. */
  readonly resource: string;
  readonly verb: string;
  readonly nonResource: boolean;
}

export interface RequestKey {
  readonly verb: string;
  readonly group: string;
  /** `resource` or `resource/subresource`; for a non-resource request its path. */
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly nonResource: boolean;
}

export function grantsOf(objects: readonly RbacObject[]): Grant[] {
  const out: Grant[] = [];
  for (const o of objects) {
    if (o.kind !== 'ClusterRole' && o.kind !== 'Role') continue;
    const namespace = o.kind === 'Role' ? o.metadata.namespace : undefined;
    const source =
      o.kind === 'Role' ? `Role ${namespace}/${o.metadata.name}` : `ClusterRole ${o.metadata.name}`;
    for (const rule of o.rules ?? []) out.push(...ruleGrants(rule, source, namespace));
  }
  return out;
}

function ruleGrants(rule: PolicyRule, source: string, namespace: string | undefined): Grant[] {
  const out: Grant[] = [];
  for (const verb of rule.verbs) {
    for (const url of rule.nonResourceURLs ?? []) {
      out.push({ source, namespace, group: '', resource: url, verb, nonResource: true });
    }
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        out.push({ source, namespace, group, resource, verb, nonResource: false });
      }
    }
  }
  return out;
}

export function requestKey(e: ClassifiedEvent): RequestKey {
  const r = e.objectRef;
  if (!r?.resource) {
    return {
      verb: e.verb,
      group: '',
      resource: new URL(e.requestURI, 'https://x').pathname,
      namespace: undefined,
      nonResource: true,
    };
  }
  return {
    verb: e.verb,
    group: r.apiGroup ?? '',
    resource: r.subresource ? `${r.resource}/${r.subresource}` : r.resource,
    namespace: r.namespace || undefined,
    nonResource: false,
  };
}

export const isWildcard = (g: Grant): boolean => !g.nonResource && (g.group === '*' || g.resource === '*');

/** RBAC's matching: '*' matches any group, any resource (subresources too) and any verb. */
export function grantMatches(g: Grant, r: RequestKey): boolean {
  if (g.nonResource !== r.nonResource) return false;
  if (g.verb !== '*' && g.verb !== r.verb) return false;
  if (g.nonResource) {
    return (
      g.resource === r.resource ||
      (g.resource.endsWith('*') && r.resource.startsWith(g.resource.slice(0, -1)))
    );
  }
  if (g.namespace !== undefined && g.namespace !== r.namespace) return false;
  return (g.group === '*' || g.group === r.group) && (g.resource === '*' || g.resource === r.resource);
}

export function describeGrant(g: Grant): string {
  const what = g.nonResource ? g.resource : `${g.group === '' ? 'core' : g.group}/${g.resource}`;
  return `${g.source}: ${g.verb} ${what}`;
}

export function describeRequest(r: RequestKey): string {
  const what = r.nonResource ? r.resource : `${r.group === '' ? 'core' : r.group}/${r.resource}`;
  return `${r.verb} ${what}${r.namespace ? ` in ${r.namespace}` : ''}`;
}

export interface VerbUsage {
  /** Grants no request needed, described. */
  readonly unused: readonly string[];
  /** Requests no grant covers (each would have been a 403), described. */
  readonly uncovered: readonly string[];
  /** `<verb> <group>/<resource>` -> requests, for the report. */
  readonly used: Readonly<Record<string, number>>;
}

export function verbUsage(grants: readonly Grant[], events: readonly ClassifiedEvent[]): VerbUsage {
  const usedGrants = new Set<Grant>();
  const uncovered = new Set<string>();
  const used: Record<string, number> = {};
  const explicit = grants.filter((g) => !isWildcard(g));
  const wildcard = grants.filter(isWildcard);
  for (const e of events) {
    const key = requestKey(e);
    const label = describeRequest({ ...key, namespace: undefined });
    used[label] = (used[label] ?? 0) + 1;
    const byName = explicit.filter((g) => grantMatches(g, key));
    for (const g of byName) usedGrants.add(g);
    const byWildcard = wildcard.filter((g) => grantMatches(g, key));
    if (byName.length === 0) for (const g of byWildcard) usedGrants.add(g);
    if (byName.length === 0 && byWildcard.length === 0) uncovered.add(describeRequest(key));
  }
  return {
    unused: grants.filter((g) => !usedGrants.has(g)).map(describeGrant),
    uncovered: [...uncovered].sort(),
    used,
  };
}
