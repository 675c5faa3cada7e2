// Typed errors. Each message says what happened, to which resource in which cluster, and what to do about it.
import { gvrToString } from './gvr.js';
import type { GroupVersionResource, KubeStatus } from './types.js';

/** Base class of the errors that concern one resource of one cluster. */
export class ResourceError extends Error {
  /** `group/version/resource`, `core` for the core group. */
  readonly resource: string;
  constructor(
    message: string,
    readonly gvr: GroupVersionResource,
    readonly cluster: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
    this.resource = gvrToString(gvr);
  }
}

/** A read of a resource that has no registered informer (strict mode). The cache never falls back to the API server. */
export class NotCachedError extends ResourceError {
  constructor(gvr: GroupVersionResource, cluster: string) {
    super(
      `${gvrToString(gvr)} is not cached in cluster "${cluster}": no informer is registered for it, and reads never ` +
        'go to the API server. Register the informer up front (manager.forResource(gvr)) before the controller ' +
        "starts, or construct the CacheReader with mode: 'lazy'.",
      gvr,
      cluster,
    );
  }
}

/**
 * A read waited past its deadline for the resource's informer to sync: its absolute deadline, or (`stalledMs`
 * set) its stall deadline, the informer's list having made no progress for that long.
 */
export class CacheSyncTimeoutError extends ResourceError {
  /** Milliseconds without list progress when the stall deadline ended the wait; undefined for a plain deadline. */
  readonly stalledMs: number | undefined;

  constructor(
    gvr: GroupVersionResource,
    cluster: string,
    readonly waitedMs: number,
    readonly progress: string | undefined,
    options?: ErrorOptions & { readonly stalledMs?: number | undefined },
  ) {
    const informer = `the ${gvrToString(gvr)} informer of cluster "${cluster}"`;
    const stalledMs = options?.stalledMs;
    super(
      (stalledMs === undefined
        ? `timed out after ${waitedMs} ms waiting for ${informer} to sync`
        : `${informer} made no progress towards sync for ${stalledMs} ms (the read waited ${waitedMs} ms)`) +
        (progress ? ` (${progress})` : '') +
        (stalledMs === undefined
          ? '. Raise the read deadline if the list is just large, or check the informer in /readyz?verbose.'
          : '. Its list is stuck, not slow: check the informer in /readyz?verbose and the API server.'),
      gvr,
      cluster,
      options,
    );
    this.stalledMs = stalledMs;
  }
}

/** The API server refused the informer's LIST or WATCH (401/403). The informer keeps retrying with backoff. */
export class ForbiddenResourceError extends ResourceError {
  constructor(
    gvr: GroupVersionResource,
    cluster: string,
    readonly code: number,
    readonly serverMessage: string,
  ) {
    const what =
      code === 401
        ? 'the API server rejected the credentials (401 Unauthorized). Check the kubeconfig user'
        : `the API server forbids listing it (403 Forbidden). Grant the manager's user list and watch on ${gvrToString(gvr)}`;
    super(
      `cannot cache ${gvrToString(gvr)} in cluster "${cluster}": ${what}; the informer retries with backoff and ` +
        `syncs once access is granted. Server said: ${serverMessage}`,
      gvr,
      cluster,
    );
  }
}

/** The API server does not serve the resource (404 on list): a CRD that is not installed, or a wrong version. */
export class ResourceNotServedError extends ResourceError {
  constructor(
    gvr: GroupVersionResource,
    cluster: string,
    readonly serverMessage: string,
  ) {
    super(
      `cluster "${cluster}" does not serve ${gvrToString(gvr)} (404 on list): install its CRD or fix the ` +
        `group/version/resource; the informer retries with backoff. Server said: ${serverMessage}`,
      gvr,
      cluster,
    );
  }
}

/** The informer was stopped before it synced; reads waiting on it reject with this. */
export class InformerStoppedError extends ResourceError {
  constructor(gvr: GroupVersionResource, cluster: string) {
    super(
      `the ${gvrToString(gvr)} informer of cluster "${cluster}" was stopped before it synced; ` +
        'reads of it fail until a new informer is registered and started',
      gvr,
      cluster,
    );
  }
}

/** A non-2xx answer from the API server, carrying its Status body. */
export class ApiError extends Error {
  readonly reason: string | undefined;
  constructor(
    /** HTTP status code. */
    readonly code: number,
    readonly verb: string,
    readonly path: string,
    readonly status: KubeStatus | undefined,
  ) {
    super(
      `${verb} ${path} failed with ${code}${status?.reason ? ` ${status.reason}` : ''}: ` +
        `${status?.message ?? 'no message from the server'}`,
    );
    this.name = 'ApiError';
    this.reason = status?.reason;
  }

  get isNotFound(): boolean {
    return this.code === 404;
  }
  get isConflict(): boolean {
    return this.code === 409 && this.reason !== 'AlreadyExists';
  }
  get isAlreadyExists(): boolean {
    return this.code === 409 && this.reason === 'AlreadyExists';
  }
  /** 410 Gone / Expired: a resourceVersion or continue token is too old; relist. */
  get isExpired(): boolean {
    return this.code === 410 || this.reason === 'Expired' || this.reason === 'Gone';
  }
  get isForbidden(): boolean {
    return this.code === 403 || this.code === 401;
  }
}

/** A label selector string or structure that does not parse or is not valid. */
export class InvalidSelectorError extends Error {
  constructor(
    readonly selector: string,
    detail: string,
  ) {
    super(`invalid label selector "${selector}": ${detail}`);
    this.name = 'InvalidSelectorError';
  }
}

/**
 * A structured selector (metav1.LabelSelector, a node or field selector) that Kubernetes would reject, with
 * every problem. Karmada treats such a selector as matching nothing.
 */
export class InvalidLabelSelectorError extends InvalidSelectorError {
  /** One line per problem, in the order the selector was read. */
  readonly problems: readonly string[];

  constructor(selector: string, problems: readonly string[]) {
    super(selector, `${problems.join('; ')}. Fix the selector; until then it matches nothing`);
    this.name = 'InvalidLabelSelectorError';
    this.problems = problems;
  }
}

/** The response body of a LIST or WATCH was not what the API server sends; the reflector retries. */
export class DecodeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(`${message}; the informer retries the request`, options);
    this.name = 'DecodeError';
  }
}
