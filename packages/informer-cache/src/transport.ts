// The one place requests leave the process: keep-alive agent, auth headers, User-Agent, client-side rate limit and
// accounting of every request by verb, resource, source and status code. Reflector, Writer and the fallback
// reader all go through an ApiTransport.
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { RequestAccounting } from './accounting.js';
import { type Clock, realClock } from './clock.js';
import { type ClusterEndpoint, endpointFromKubeConfig, type KubeConfigEndpointOptions } from './endpoint.js';
import { ApiError } from './errors.js';
import type { CacheMetrics } from './metrics.js';
import { type RateLimitOptions, TokenBucket } from './token-bucket.js';
import type { KubeStatus } from './types.js';

/** The source of informer requests in accounting and User-Agents; anything else names a controller. */
export const INFORMER_SOURCE = 'informer';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Kubernetes verbs, as the audit log and apiserver_request_total name them. */
export type KubeVerb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection';

export interface ApiRequest {
  readonly method: HttpMethod;
  readonly verb: KubeVerb;
  /** URL path below the server URL, e.g. `/apis/apps/v1/deployments`. */
  readonly path: string;
  /** Query parameters; undefined values are left out, empty strings are sent (`resourceVersion=`). */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** A JSON-serialisable body, or a string sent as is. */
  readonly body?: unknown | undefined;
  readonly contentType?: string | undefined;
  /** `informer`, or the controller's name: goes into accounting and the User-Agent. */
  readonly source: string;
  /** Accounting label, `group/version/resource`. */
  readonly resource: string;
  readonly signal?: AbortSignal | undefined;
  /** Whole-request deadline for buffered requests; idle deadline (no bytes) for streams. */
  readonly timeoutMs?: number | undefined;
}

export interface ApiResponse<T> {
  readonly code: number;
  readonly body: T;
}

export interface StreamResponse {
  readonly code: number;
  /** The response body as it arrives. Destroy it (or abort the signal) to end the request early. */
  readonly body: IncomingMessage;
}

export interface ApiTransportOptions {
  /** Rate limit of requests from controllers (writes, fallback reads). Default 40 qps, burst 60. */
  readonly rateLimit?: RateLimitOptions | undefined;
  /**
   * Rate limit of informer LISTs. Informer WATCHes are never limited (they are long-running, and API Priority
   * and Fairness charges them on the server). Default: unlimited, so a restart's initial lists are not slowed by
   * the client and do not compete with controllers' writes for tokens.
   */
  readonly informerRateLimit?: RateLimitOptions | undefined;
  readonly accounting?: RequestAccounting | undefined;
  readonly metrics?: CacheMetrics | undefined;
  /** Product token of the User-Agent; default `warmstart/<package version>`. */
  readonly userAgent?: string | undefined;
  /** Deadline of buffered requests. Default 60 s. */
  readonly requestTimeoutMs?: number | undefined;
  /** Sockets kept open per host (watches each hold one). Default unlimited. */
  readonly maxSockets?: number | undefined;
  readonly clock?: Clock | undefined;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { qps: 40, burst: 60 };

let packageVersion: string | undefined;
/** This package's version, for the User-Agent. */
export function version(): string {
  if (packageVersion === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
        version?: string;
      };
      packageVersion = pkg.version ?? '0.0.0';
    } catch {
      packageVersion = '0.0.0';
    }
  }
  return packageVersion;
}

/** Sends requests to one cluster's API server. */
export class ApiTransport {
  readonly accounting: RequestAccounting;
  readonly cluster: string;
  readonly #endpoint: ClusterEndpoint;
  readonly #base: URL;
  readonly #agent: http.Agent;
  readonly #request: typeof http.request;
  readonly #limiter: TokenBucket;
  readonly #informerLimiter: TokenBucket;
  readonly #metrics: CacheMetrics | undefined;
  readonly #product: string;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #userAgents = new Map<string, string>();

  /** Builds a transport for the current context of a client-node KubeConfig. */
  static fromKubeConfig(
    kc: KubeConfig,
    options: ApiTransportOptions & KubeConfigEndpointOptions = {},
  ): ApiTransport {
    return new ApiTransport(endpointFromKubeConfig(kc, options), options);
  }

  constructor(endpoint: ClusterEndpoint, options: ApiTransportOptions = {}) {
    this.#endpoint = endpoint;
    this.cluster = endpoint.name;
    this.#base = new URL(endpoint.server);
    this.#clock = options.clock ?? realClock;
    const agentOptions = {
      keepAlive: true,
      keepAliveMsecs: 30_000,
      maxSockets: options.maxSockets ?? Infinity,
    };
    if (this.#base.protocol === 'https:') {
      // One TLS context for every connection: without it each socket parses the CA bundle and client key again,
      // and a manager starting ~70 informers at once spent 50 ms of one turn of its event loop doing that.
      const secureContext = tls.createSecureContext({
        ca: endpoint.tls.ca,
        cert: endpoint.tls.cert,
        key: endpoint.tls.key,
      });
      this.#agent = new https.Agent({ ...agentOptions, ...endpoint.tls, secureContext });
      this.#request = https.request as typeof http.request;
    } else if (this.#base.protocol === 'http:') {
      this.#agent = new http.Agent(agentOptions);
      this.#request = http.request;
    } else {
      throw new Error(
        `unsupported API server URL "${endpoint.server}": use https:// (or http:// for a local test server)`,
      );
    }
    this.accounting = options.accounting ?? new RequestAccounting();
    this.#metrics = options.metrics;
    this.#limiter = new TokenBucket(options.rateLimit ?? DEFAULT_RATE_LIMIT, this.#clock);
    this.#informerLimiter = new TokenBucket(options.informerRateLimit ?? { qps: 0, burst: 0 }, this.#clock);
    this.#product = options.userAgent ?? `warmstart/${version()}`;
    this.#timeoutMs = options.requestTimeoutMs ?? 60_000;
  }

  /** The User-Agent sent for a source: `warmstart/<version> (<source>)`. */
  userAgent(source: string): string {
    let ua = this.#userAgents.get(source);
    if (ua === undefined) {
      ua = `${this.#product} (${source})`;
      this.#userAgents.set(source, ua);
    }
    return ua;
  }

  /** Sends a request and buffers the JSON answer. Non-2xx answers throw ApiError with the server's Status. */
  async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    const timeout = AbortSignal.timeout(req.timeoutMs ?? this.#timeoutMs);
    const signal = req.signal === undefined ? timeout : AbortSignal.any([req.signal, timeout]);
    const started = this.#clock.now();
    const res = await this.#send(req, signal, undefined);
    let text: string;
    try {
      text = await readText(res);
    } finally {
      this.#completed(req, res.statusCode ?? 0, started);
    }
    const code = res.statusCode ?? 0;
    if (code < 200 || code >= 300) throw new ApiError(code, req.method, req.path, parseStatus(text));
    return { code, body: (text === '' ? undefined : JSON.parse(text)) as T };
  }

  /**
   * Sends a request whose answer is consumed as a stream (LIST bodies, WATCH event streams). Non-2xx answers are
   * read in full and thrown as ApiError. The request stays accounted once; its duration ends with the stream.
   */
  async stream(req: ApiRequest): Promise<StreamResponse> {
    const started = this.#clock.now();
    const res = await this.#send(req, req.signal, req.timeoutMs);
    const code = res.statusCode ?? 0;
    if (code < 200 || code >= 300) {
      let text = '';
      try {
        text = await readText(res);
      } finally {
        this.#completed(req, code, started);
      }
      throw new ApiError(code, req.method, req.path, parseStatus(text));
    }
    res.once('close', () => this.#completed(req, code, started));
    return { code, body: res };
  }

  /** Closes idle keep-alive sockets. Open requests are ended by their signals. */
  close(): void {
    this.#agent.destroy();
  }

  async #send(req: ApiRequest, signal: AbortSignal | undefined, idleTimeoutMs: number | undefined) {
    const limiter = this.#limiterFor(req);
    if (!limiter.unlimited) {
      const waited = await limiter.acquire(signal);
      if (waited > 0) {
        this.#metrics?.rateLimited?.(
          { cluster: this.cluster, verb: req.verb, resource: req.resource, source: req.source },
          waited,
        );
      }
    }
    const url = new URL(
      this.#base.pathname === '/' ? req.path : `${this.#base.pathname}${req.path}`,
      this.#base,
    );
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined) url.searchParams.append(k, String(v));
    const auth = await this.#endpoint.headers();
    const headers: Record<string, string> = {
      ...auth,
      Accept: 'application/json',
      'User-Agent': this.userAgent(req.source),
    };
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const started = this.#clock.now();
    return new Promise<IncomingMessage>((resolve, reject) => {
      let responded = false;
      const request = this.#request(
        url,
        { method: req.method, headers, agent: this.#agent, signal },
        (res) => {
          responded = true;
          if (res.statusCode === 401) this.#endpoint.invalidate?.();
          resolve(res);
        },
      );
      if (idleTimeoutMs !== undefined) {
        request.setTimeout(idleTimeoutMs, () =>
          request.destroy(
            new Error(`no data from the API server for ${idleTimeoutMs} ms on ${req.verb} ${req.path}`),
          ),
        );
      }
      request.on('error', (error) => {
        // After the response arrived, errors surface on the body stream and the caller accounts the request.
        if (responded) return;
        this.#completed(req, 0, started);
        reject(error);
      });
      request.end(payload);
    });
  }

  #limiterFor(req: ApiRequest): TokenBucket {
    if (req.source !== INFORMER_SOURCE) return this.#limiter;
    if (req.verb === 'watch') return UNLIMITED;
    return this.#informerLimiter;
  }

  #completed(req: ApiRequest, code: number, started: number): void {
    const labels = {
      cluster: this.cluster,
      verb: req.verb,
      resource: req.resource,
      source: req.source,
      code,
    };
    this.accounting.record(labels);
    this.#metrics?.requestCompleted?.(labels, this.#clock.now() - started);
  }
}

const UNLIMITED = new TokenBucket({ qps: 0, burst: 0 });

async function readText(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseStatus(text: string): KubeStatus | undefined {
  if (text === '') return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === 'object') return parsed as KubeStatus;
  } catch {
    // Not JSON (a proxy's HTML error page): keep the start of it as the message.
  }
  return { message: text.slice(0, 500) };
}
