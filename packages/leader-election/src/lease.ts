// The slice of coordination.k8s.io/v1 Lease that leader election reads and writes.

export interface LeaseSpec {
  readonly holderIdentity?: string | undefined;
  readonly leaseDurationSeconds?: number | undefined;
  /** RFC 3339 with microseconds (MicroTime). */
  readonly acquireTime?: string | undefined;
  readonly renewTime?: string | undefined;
  readonly leaseTransitions?: number | undefined;
}

export interface Lease {
  readonly apiVersion: 'coordination.k8s.io/v1';
  readonly kind: 'Lease';
  readonly metadata: {
    readonly name: string;
    readonly namespace: string;
    readonly resourceVersion?: string | undefined;
    readonly labels?: Readonly<Record<string, string>> | undefined;
  };
  readonly spec?: LeaseSpec | undefined;
}

/**
 * What the elector needs from Kubernetes. `current()` comes from an informer cache (a watch on the one
 * Lease), never from a GET; `create` and `update` are writes, `update` with the cached resourceVersion as
 * precondition. A write that loses a race must throw an error carrying HTTP status 409 (see isConflict).
 */
export interface LeaseClient {
  /** The Lease as last seen by the cache, or undefined when it does not exist (or the cache has not synced). */
  current(): Readonly<Lease> | undefined;
  /** Resolves once the cache has synced, so `current() === undefined` really means "absent". */
  waitForSync(signal: AbortSignal): Promise<void>;
  create(lease: Lease, signal: AbortSignal): Promise<Readonly<Lease>>;
  update(lease: Lease, signal: AbortSignal): Promise<Readonly<Lease>>;
}

/** True for an optimistic-concurrency loss (HTTP 409) or a create that found the Lease already there. */
export function isConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { statusCode?: unknown; status?: unknown; code?: unknown };
  return e.statusCode === 409 || e.status === 409 || e.code === 409;
}

/** Kubernetes MicroTime: RFC 3339 with exactly six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
