// Which resources the detector watches (Karmada's discoverResources + GetDeletableResources + gvrDisabled), and
// the registry that maps a template's apiVersion and kind back to the resource its informer serves.
import type { GroupVersionResource } from '@warmstart/api';
import type { DiscoveredResource } from '@warmstart/informer-cache';
import type { SkippedResourceConfig } from './skipped-apis.js';

/** One resource of the API server's discovery documents (informer-cache's discovery client lists them). */
export type { DiscoveredResource };

const REQUIRED_VERBS = ['list', 'watch', 'delete'] as const;

function apiVersion(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/**
 * The resources a detector watches, from one discovery pass: those whose verbs include list, watch and delete,
 * minus subresources and whatever the skip configuration disables (Karmada's own groups, events, leases and the
 * --skipped-propagating-apis entries). `discovered` should list the server-preferred version of each resource
 * first (client-go's ServerPreferredResources); later versions of a group and resource already seen are dropped,
 * so a kind served by two versions is watched once.
 */
export function propagatableResources(
  discovered: readonly DiscoveredResource[],
  skipped: SkippedResourceConfig,
): GroupVersionResource[] {
  const seen = new Set<string>();
  const out: GroupVersionResource[] = [];
  for (const r of discovered) {
    if (r.resource.includes('/')) continue;
    if (!REQUIRED_VERBS.every((verb) => r.verbs.includes(verb))) continue;
    const groupResource = `${r.group}/${r.resource}`;
    if (seen.has(groupResource)) continue;
    seen.add(groupResource);
    if (skipped.resourceDisabled(r, [r.kind])) continue;
    out.push(
      Object.freeze({
        group: r.group,
        version: r.version,
        resource: r.resource,
        kind: r.kind,
        namespaced: r.namespaced,
      }),
    );
  }
  return out;
}

/** The template resources watched so far. Informers are never removed, so neither are entries. */
export class TemplateResources {
  readonly #byApiVersionKind = new Map<string, GroupVersionResource>();
  #discovered = false;

  /** Adds a resource; returns false when a resource of the same apiVersion and kind is already there. */
  add(gvr: GroupVersionResource): boolean {
    const key = `${apiVersion(gvr.group, gvr.version)}/${gvr.kind}`;
    if (this.#byApiVersionKind.has(key)) return false;
    this.#byApiVersionKind.set(key, gvr);
    return true;
  }

  /** Records that a discovery pass has succeeded, so an unknown kind really is unknown. */
  markDiscovered(): void {
    this.#discovered = true;
  }

  get discovered(): boolean {
    return this.#discovered;
  }

  /** The resource that serves `apiVersion` + `kind` (exact strings, as Karmada's selectors compare them). */
  byApiVersionKind(apiVersionText: string, kind: string): GroupVersionResource | undefined {
    return this.#byApiVersionKind.get(`${apiVersionText}/${kind}`);
  }

  byGroupVersionKind(group: string, version: string, kind: string): GroupVersionResource | undefined {
    return this.byApiVersionKind(apiVersion(group, version), kind);
  }

  get size(): number {
    return this.#byApiVersionKind.size;
  }

  all(): GroupVersionResource[] {
    return [...this.#byApiVersionKind.values()];
  }
}
