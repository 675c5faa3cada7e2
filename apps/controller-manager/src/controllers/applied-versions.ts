// The execution controller's version record (Karmada's objectwatcher VersionRecord): per member cluster and
// object, the resourceVersion our last apply produced (and the one it replaced). A member event carrying the
// recorded version is our own write coming back; any other version is someone else's change. Kept in memory
// only: after a restart the record is rebuilt by comparing each object with its manifest, without a write.

export interface AppliedVersion {
  /** The member object's resourceVersion after our apply (or when we last found it matching its manifest). */
  readonly resourceVersion: string;
  /** The version our apply replaced: a cache still showing it has not caught up with our write yet. */
  readonly replaced: string | undefined;
}

export class AppliedVersions {
  readonly #clusters = new Map<string, Map<string, AppliedVersion>>();

  /** The key of a member object: `<group>/<resource>/<namespace>/<name>` (any version: one object). */
  static key(
    gvr: { readonly group: string; readonly resource: string },
    namespace: string | undefined,
    name: string,
  ): string {
    return `${gvr.group}/${gvr.resource}/${namespace ?? ''}/${name}`;
  }

  get(cluster: string, key: string): AppliedVersion | undefined {
    return this.#clusters.get(cluster)?.get(key);
  }

  record(cluster: string, key: string, resourceVersion: string, replaced?: string): void {
    let objects = this.#clusters.get(cluster);
    if (objects === undefined) {
      objects = new Map();
      this.#clusters.set(cluster, objects);
    }
    objects.set(key, { resourceVersion, replaced });
  }

  /**
   * Whether a cached member object is in the state we last wrote or saw matching: its resourceVersion is the
   * recorded one, or the one our last apply replaced (the cache lags behind our write; its event will follow).
   */
  isCurrent(cluster: string, key: string, resourceVersion: string | undefined): boolean {
    const v = this.get(cluster, key);
    return v !== undefined && (resourceVersion === v.resourceVersion || resourceVersion === v.replaced);
  }

  forget(cluster: string, key: string): void {
    this.#clusters.get(cluster)?.delete(key);
  }

  forgetCluster(cluster: string): void {
    this.#clusters.delete(cluster);
  }
}
