// Templates no policy matches yet (Karmada's waitingObjects). A policy that is created or changed looks here for
// templates it now matches and re-queues them. Kept per apiVersion and kind, so a policy only looks at the kinds
// its selectors name.
import type { ResourceSelector } from '@warmstart/api';
import type { ClusterWideKey } from './keys.js';

function kindKey(group: string, version: string, kind: string): string {
  return `${group === '' ? version : `${group}/${version}`}/${kind}`;
}

function objectKey(key: ClusterWideKey): string {
  return `${key.namespace}/${key.name}`;
}

export class WaitingList {
  readonly #byKind = new Map<string, Map<string, ClusterWideKey>>();
  #size = 0;

  add(key: ClusterWideKey): void {
    const kind = kindKey(key.group, key.version, key.kind);
    let objects = this.#byKind.get(kind);
    if (objects === undefined) {
      objects = new Map();
      this.#byKind.set(kind, objects);
    }
    const id = objectKey(key);
    if (objects.has(id)) return;
    objects.set(id, {
      group: key.group,
      version: key.version,
      kind: key.kind,
      namespace: key.namespace,
      name: key.name,
    });
    this.#size++;
  }

  remove(key: ClusterWideKey): void {
    const kind = kindKey(key.group, key.version, key.kind);
    const objects = this.#byKind.get(kind);
    if (objects?.delete(objectKey(key))) {
      this.#size--;
      if (objects.size === 0) this.#byKind.delete(kind);
    }
  }

  has(key: ClusterWideKey): boolean {
    return this.#byKind.get(kindKey(key.group, key.version, key.kind))?.has(objectKey(key)) ?? false;
  }

  get size(): number {
    return this.#size;
  }

  /**
   * The waiting templates of the kinds the selectors name (and, where a selector names a namespace, of that
   * namespace). The caller still checks each against the selectors, with the template's labels.
   */
  candidates(selectors: readonly ResourceSelector[]): ClusterWideKey[] {
    const out = new Map<string, ClusterWideKey>();
    for (const selector of selectors) {
      const objects = this.#byKind.get(`${selector.apiVersion}/${selector.kind}`);
      if (objects === undefined) continue;
      for (const [id, key] of objects) {
        if (selector.namespace && key.namespace !== selector.namespace) continue;
        out.set(`${selector.apiVersion}/${selector.kind}/${id}`, key);
      }
    }
    return [...out.values()];
  }
}
