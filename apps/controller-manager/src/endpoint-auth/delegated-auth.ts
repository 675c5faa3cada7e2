// Bearer-token protection for /metrics and the dashboard, decided by the control plane rather than by us:
// a TokenReview says who the token belongs to, a SubjectAccessReview says whether that user may `get` the
// request's path (a nonResourceURL, as RBAC grants `/metrics` to Prometheus). The manager keeps no user list
// of its own, so revoking access is an RBAC change, as for every other endpoint in the cluster.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { GroupVersionResource, KubeObject, Writer } from '@warmstart/informer-cache';
import type { AuthDecision } from './decision.js';
import { ReviewCache } from './review-cache.js';

export const TOKEN_REVIEWS: GroupVersionResource = {
  group: 'authentication.k8s.io',
  version: 'v1',
  resource: 'tokenreviews',
  namespaced: false,
  kind: 'TokenReview',
};

export const SUBJECT_ACCESS_REVIEWS: GroupVersionResource = {
  group: 'authorization.k8s.io',
  version: 'v1',
  resource: 'subjectaccessreviews',
  namespaced: false,
  kind: 'SubjectAccessReview',
};

/** The one call the reviews need: a create whose answer carries the verdict in its status. */
export type ReviewClient = Pick<Writer, 'create'>;

export interface DelegatedAuthOptions {
  readonly client: ReviewClient;
  /** How long an accepted token or an allowed path is remembered. Default 60 s. */
  readonly allowTtlMs?: number | undefined;
  /** How long a rejected token or a denied path is remembered. Default 10 s. */
  readonly denyTtlMs?: number | undefined;
  /** Remembered outcomes beyond this many evict the least recently used. Default 1,024. */
  readonly maxEntries?: number | undefined;
  /** Each review's timeout. Default 5 s. */
  readonly timeoutMs?: number | undefined;
  /** Audiences the token must be issued for (TokenReview spec.audiences); default the API server's. */
  readonly audiences?: readonly string[] | undefined;
  /** Told when a review could not be made (the request then gets 503). */
  readonly onError?: ((error: unknown) => void) | undefined;
  readonly now?: (() => number) | undefined;
}

interface UserInfo {
  readonly username: string;
  readonly uid?: string | undefined;
  readonly groups?: readonly string[] | undefined;
  readonly extra?: Readonly<Record<string, readonly string[]>> | undefined;
}

type TokenOutcome =
  | { readonly authenticated: true; readonly user: UserInfo }
  | { readonly authenticated: false; readonly error: string };

interface TokenReview extends KubeObject {
  readonly status?: {
    readonly authenticated?: boolean;
    readonly user?: UserInfo;
    readonly error?: string;
  };
}

interface SubjectAccessReview extends KubeObject {
  readonly status?: { readonly allowed?: boolean; readonly denied?: boolean; readonly reason?: string };
}

/** Bearer token of an Authorization header, or undefined when there is none. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

export class DelegatedAuth {
  readonly #client: ReviewClient;
  readonly #allowTtlMs: number;
  readonly #denyTtlMs: number;
  readonly #timeoutMs: number;
  readonly #audiences: readonly string[] | undefined;
  readonly #onError: ((error: unknown) => void) | undefined;
  // Keyed by a hash of the token, so the memory of past scrapes holds no credential.
  readonly #tokens: ReviewCache<TokenOutcome>;
  readonly #access: ReviewCache<boolean>;
  // One review in flight per key: a dashboard opening three requests at once costs one review, not three.
  readonly #inflight = new Map<string, Promise<unknown>>();
  #reviews = 0;

  constructor(options: DelegatedAuthOptions) {
    const now = options.now ?? Date.now;
    const maxEntries = options.maxEntries ?? 1024;
    this.#client = options.client;
    this.#allowTtlMs = options.allowTtlMs ?? 60_000;
    this.#denyTtlMs = options.denyTtlMs ?? 10_000;
    this.#timeoutMs = options.timeoutMs ?? 5_000;
    this.#audiences = options.audiences;
    this.#onError = options.onError;
    this.#tokens = new ReviewCache({ maxEntries, now });
    this.#access = new ReviewCache({ maxEntries, now });
  }

  /** TokenReviews and SubjectAccessReviews sent so far (cache hits send none). */
  get reviews(): number {
    return this.#reviews;
  }

  /** Whether the request's bearer token may `get` `path` (default: the request's own path). */
  async authorize(req: IncomingMessage, path = pathOf(req.url)): Promise<AuthDecision> {
    const token = bearerToken(req);
    if (token === undefined) {
      return {
        allowed: false,
        reason: 'unauthenticated',
        message: 'send a bearer token in the Authorization header (Authorization: Bearer <token>)',
      };
    }
    const tokenKey = digest(token);
    let identity: TokenOutcome;
    try {
      identity = await this.#once(`token:${tokenKey}`, () => this.#reviewToken(tokenKey, token));
    } catch (error) {
      return this.#unavailable(error);
    }
    if (!identity.authenticated) {
      return { allowed: false, reason: 'unauthenticated', message: identity.error };
    }
    const { user } = identity;
    const accessKey = `${tokenKey}\u0000get\u0000${path}`;
    let allowed: boolean;
    try {
      allowed = await this.#once(`access:${accessKey}`, () => this.#reviewAccess(accessKey, user, path));
    } catch (error) {
      return this.#unavailable(error);
    }
    if (allowed) return { allowed: true, user: user.username };
    return {
      allowed: false,
      reason: 'forbidden',
      message: `user ${JSON.stringify(user.username)} may not get ${path}; grant it with an RBAC rule on nonResourceURLs ["${path}"], verb "get"`,
    };
  }

  #unavailable(error: unknown): AuthDecision {
    this.#onError?.(error);
    return {
      allowed: false,
      reason: 'unavailable',
      message: 'the API server could not check the token just now; retry shortly',
    };
  }

  async #once<T>(key: string, run: () => Promise<T>): Promise<T> {
    const pending = this.#inflight.get(key);
    if (pending !== undefined) return pending as Promise<T>;
    const started = run().finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, started);
    return started;
  }

  async #reviewToken(key: string, token: string): Promise<TokenOutcome> {
    const cached = this.#tokens.get(key);
    if (cached !== undefined) return cached;
    this.#reviews++;
    const review = await this.#client.create<TokenReview>(
      TOKEN_REVIEWS,
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        metadata: {},
        spec: { token, ...(this.#audiences ? { audiences: [...this.#audiences] } : {}) },
      },
      { timeoutMs: this.#timeoutMs },
    );
    const status = review.status;
    const outcome: TokenOutcome =
      status?.authenticated === true && status.user?.username
        ? { authenticated: true, user: status.user }
        : {
            authenticated: false,
            // The server's own wording (expired, wrong audience) helps; it never contains the token.
            error: `the API server did not accept the bearer token${status?.error ? `: ${status.error}` : ''}`,
          };
    this.#tokens.set(key, outcome, outcome.authenticated ? this.#allowTtlMs : this.#denyTtlMs);
    return outcome;
  }

  async #reviewAccess(key: string, user: UserInfo, path: string): Promise<boolean> {
    const cached = this.#access.get(key);
    if (cached !== undefined) return cached;
    this.#reviews++;
    const review = await this.#client.create<SubjectAccessReview>(
      SUBJECT_ACCESS_REVIEWS,
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        metadata: {},
        spec: {
          user: user.username,
          ...(user.uid ? { uid: user.uid } : {}),
          ...(user.groups ? { groups: [...user.groups] } : {}),
          ...(user.extra ? { extra: user.extra } : {}),
          nonResourceAttributes: { path, verb: 'get' },
        },
      },
      { timeoutMs: this.#timeoutMs },
    );
    const allowed = review.status?.allowed === true && review.status.denied !== true;
    this.#access.set(key, allowed, allowed ? this.#allowTtlMs : this.#denyTtlMs);
    return allowed;
  }
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  return q < 0 ? raw : raw.slice(0, q);
}
