import type { IncomingMessage } from 'node:http';
import type { GroupVersionResource, KubeObject, KubeObjectInput } from '@warmstart/informer-cache';
import { describe, expect, it } from 'vitest';
import { bearerToken, DelegatedAuth, SUBJECT_ACCESS_REVIEWS, TOKEN_REVIEWS } from './delegated-auth.js';
import { ReviewCache } from './review-cache.js';

interface User {
  readonly username: string;
  readonly uid?: string;
  readonly groups?: string[];
  readonly extra?: Record<string, string[]>;
}

/** A review API in memory: tokens map to users, users to the paths they may get. */
class FakeReviews {
  readonly sent: { readonly gvr: GroupVersionResource; readonly body: KubeObjectInput }[] = [];
  failing = false;
  #release: (() => void) | undefined;
  #held: Promise<void> | undefined;

  constructor(
    readonly users: Record<string, User>,
    readonly grants: Record<string, readonly string[]>,
  ) {}

  /** Makes reviews wait until release() (to line up concurrent requests). */
  hold(): void {
    this.#held = new Promise((r) => {
      this.#release = r;
    });
  }
  release(): void {
    this.#release?.();
    this.#held = undefined;
  }

  create = async <T extends KubeObject>(gvr: GroupVersionResource, body: KubeObjectInput): Promise<T> => {
    this.sent.push({ gvr, body });
    await this.#held;
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
    const spec = body.spec as Record<string, unknown>;
    if (gvr === TOKEN_REVIEWS) {
      const user = this.users[spec.token as string];
      const status = user
        ? { authenticated: true, user }
        : { authenticated: false, error: 'invalid bearer token, token lookup failed' };
      return { ...body, metadata: {}, status } as unknown as T;
    }
    const path = (spec.nonResourceAttributes as { path: string }).path;
    const allowed = (this.grants[spec.user as string] ?? []).includes(path);
    return { ...body, metadata: {}, status: { allowed } } as unknown as T;
  };

  count(gvr: GroupVersionResource): number {
    return this.sent.filter((s) => s.gvr === gvr).length;
  }
}

function request(authorization?: string, url = '/metrics'): IncomingMessage {
  return { url, headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
}

function setup(now = { t: 0 }) {
  const reviews = new FakeReviews(
    {
      'prom-token': {
        username: 'system:serviceaccount:monitoring:prometheus',
        uid: 'u-1',
        groups: ['system:serviceaccounts', 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/pod-name': ['prometheus-0'] },
      },
      'other-token': { username: 'alice' },
    },
    { 'system:serviceaccount:monitoring:prometheus': ['/metrics'] },
  );
  const errors: unknown[] = [];
  const auth = new DelegatedAuth({
    client: reviews,
    allowTtlMs: 60_000,
    denyTtlMs: 10_000,
    now: () => now.t,
    onError: (e) => errors.push(e),
  });
  return { reviews, auth, now, errors };
}

describe('bearerToken', () => {
  it('takes the token of a Bearer header, whatever the scheme case, and nothing else', () => {
    expect(bearerToken(request('Bearer abc.def'))).toBe('abc.def');
    expect(bearerToken(request('bearer  abc '))).toBe('abc');
    expect(bearerToken(request('Basic YWxpY2U6cHc='))).toBeUndefined();
    expect(bearerToken(request('Bearer a b'))).toBeUndefined();
    expect(bearerToken(request('Bearer '))).toBeUndefined();
    expect(bearerToken(request())).toBeUndefined();
  });
});

describe('DelegatedAuth', () => {
  it('refuses a request without a token as unauthenticated, without asking the server', async () => {
    const { auth, reviews } = setup();
    const d = await auth.authorize(request());
    expect(d).toMatchObject({ allowed: false, reason: 'unauthenticated' });
    expect(reviews.sent).toHaveLength(0);
  });

  it("allows a user RBAC grants the path to, sending the token's whole identity in the access review", async () => {
    const { auth, reviews } = setup();
    expect(await auth.authorize(request('Bearer prom-token'))).toEqual({
      allowed: true,
      user: 'system:serviceaccount:monitoring:prometheus',
    });
    const sar = reviews.sent.find((s) => s.gvr === SUBJECT_ACCESS_REVIEWS);
    expect(sar?.body.spec).toEqual({
      user: 'system:serviceaccount:monitoring:prometheus',
      uid: 'u-1',
      groups: ['system:serviceaccounts', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/pod-name': ['prometheus-0'] },
      nonResourceAttributes: { path: '/metrics', verb: 'get' },
    });
  });

  it('asks about the path without its query string', async () => {
    const { auth, reviews } = setup();
    await auth.authorize(request('Bearer prom-token', '/metrics?name[]=x'));
    const sar = reviews.sent.find((s) => s.gvr === SUBJECT_ACCESS_REVIEWS);
    expect(sar?.body.spec).toMatchObject({ nonResourceAttributes: { path: '/metrics' } });
  });

  it('refuses a valid token whose user has no grant as forbidden, naming the user, the path and the fix', async () => {
    const { auth } = setup();
    const d = await auth.authorize(request('Bearer other-token'));
    expect(d).toMatchObject({ allowed: false, reason: 'forbidden' });
    expect(d.allowed === false && d.message).toMatch(/"alice" may not get \/metrics.*nonResourceURLs/);
  });

  it("refuses a token the server rejects as unauthenticated, with the server's reason and never the token", async () => {
    const { auth, reviews } = setup();
    const d = await auth.authorize(request('Bearer forged-secret-value'));
    expect(d).toMatchObject({ allowed: false, reason: 'unauthenticated' });
    expect(d.allowed === false && d.message).toMatch(/token lookup failed/);
    expect(JSON.stringify(d)).not.toContain('forged-secret-value');
    expect(reviews.count(SUBJECT_ACCESS_REVIEWS)).toBe(0);
  });

  it('remembers an allowed token for the allow TTL and reviews it again after', async () => {
    const { auth, reviews, now } = setup();
    for (let i = 0; i < 5; i++)
      expect((await auth.authorize(request('Bearer prom-token'))).allowed).toBe(true);
    expect(reviews.sent).toHaveLength(2);
    now.t = 59_999;
    await auth.authorize(request('Bearer prom-token'));
    expect(reviews.sent).toHaveLength(2);
    now.t = 60_000;
    await auth.authorize(request('Bearer prom-token'));
    expect(reviews.sent).toHaveLength(4);
    expect(auth.reviews).toBe(4);
  });

  it('remembers a rejected token and a denied path for the shorter deny TTL', async () => {
    const { auth, reviews, now } = setup();
    await auth.authorize(request('Bearer forged'));
    await auth.authorize(request('Bearer other-token'));
    expect(reviews.sent).toHaveLength(3);
    await auth.authorize(request('Bearer forged'));
    await auth.authorize(request('Bearer other-token'));
    expect(reviews.sent).toHaveLength(3);
    now.t = 10_000;
    await auth.authorize(request('Bearer forged'));
    expect(reviews.sent).toHaveLength(4);
    await auth.authorize(request('Bearer other-token'));
    // The token itself is still remembered as valid (allow TTL); only its denied access is asked again.
    expect(reviews.count(TOKEN_REVIEWS)).toBe(3);
    expect(reviews.count(SUBJECT_ACCESS_REVIEWS)).toBe(2);
  });

  it('reviews each path of one token separately', async () => {
    const { auth, reviews } = setup();
    expect((await auth.authorize(request('Bearer prom-token', '/metrics'))).allowed).toBe(true);
    expect(await auth.authorize(request('Bearer prom-token', '/status.json'))).toMatchObject({
      reason: 'forbidden',
    });
    expect(reviews.count(TOKEN_REVIEWS)).toBe(1);
    expect(reviews.count(SUBJECT_ACCESS_REVIEWS)).toBe(2);
  });

  it('answers unavailable when the server cannot be asked, tells onError, and remembers nothing', async () => {
    const { auth, reviews, errors } = setup();
    reviews.failing = true;
    expect(await auth.authorize(request('Bearer prom-token'))).toMatchObject({
      allowed: false,
      reason: 'unavailable',
    });
    expect(errors).toHaveLength(1);
    reviews.failing = false;
    expect((await auth.authorize(request('Bearer prom-token'))).allowed).toBe(true);
    expect(reviews.count(TOKEN_REVIEWS)).toBe(2);
  });

  it('sends one review for concurrent requests with the same token', async () => {
    const { auth, reviews } = setup();
    reviews.hold();
    const pending = Array.from({ length: 10 }, () => auth.authorize(request('Bearer prom-token')));
    await Promise.resolve();
    reviews.release();
    const decisions = await Promise.all(pending);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(reviews.sent).toHaveLength(2);
  });
});

describe('ReviewCache', () => {
  it('evicts the least recently used entry beyond its bound', () => {
    const cache = new ReviewCache<number>({ maxEntries: 2, now: () => 0 });
    cache.set('a', 1, 1000);
    cache.set('b', 2, 1000);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3, 1000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('drops an entry when it expires and stores nothing for a TTL of 0', () => {
    const clock = { t: 0 };
    const cache = new ReviewCache<string>({ maxEntries: 4, now: () => clock.t });
    cache.set('a', 'x', 5);
    cache.set('b', 'y', 0);
    expect(cache.get('b')).toBeUndefined();
    clock.t = 5;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => new ReviewCache({ maxEntries: 0, now: Date.now })).toThrow(RangeError);
  });
});
