// Which templates changed their specification since their binding was last written, as far as this process saw.
//
// A binding records its template's resourceVersion (spec.resource.resourceVersion), and that version also moves
// when only the template's status changes — which status aggregation does for every propagated Deployment. The
// detector ignores status-only updates while it runs (Karmada's SpecificationChanged filter), so such bindings
// name an older version. Karmada rewrites all of them on its next start; we do not: after a restart no update
// event was seen, so a binding that differs from the desired one only in that recorded version is left alone.
// A specification change made while the manager was down still reaches the members, because the binding
// controller rebuilds every Work from the template on its own start; and any other difference in the binding
// (replicas, placement, claim) writes the whole binding, the current version included.
import { type ClusterWideKey, formatClusterWideKey } from './keys.js';

export class SpecChanges {
  readonly #pending = new Set<string>();

  /** An update event that passed the specification filter, or a template that newly passed the event filter. */
  record(key: ClusterWideKey): void {
    this.#pending.add(formatClusterWideKey(key));
  }

  has(key: ClusterWideKey): boolean {
    return this.#pending.has(formatClusterWideKey(key));
  }

  /** The template's binding is now what it should be (or there is no template any more). */
  settle(key: ClusterWideKey): void {
    this.#pending.delete(formatClusterWideKey(key));
  }

  get size(): number {
    return this.#pending.size;
  }
}
