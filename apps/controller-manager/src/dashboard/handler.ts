// The dashboard as a node:http request handler: GET / (the page), GET /status.json (the snapshot) and
// GET /events (server-sent events). Mount it on any server: `if (!handler(req, res)) next()`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AuthDecision, refusalStatus } from '../endpoint-auth/decision.js';
import { hostName } from './hosts.js';
import { PAGE_CSP, PAGE_HTML } from './page.js';
import type { StatusSource } from './status.js';
import { StatusStream } from './status-stream.js';
import { serialize } from './wire.js';

/** Options for createDashboardHandler. */
export interface DashboardHandlerOptions {
  /** Where the status comes from; the manager implements it. */
  readonly source: StatusSource;
  /** At most one /events update per this many ms, however often the source changes. Default 250. */
  readonly minIntervalMs?: number | undefined;
  /** A comment line on every stream this often. Default 15,000. */
  readonly heartbeatMs?: number | undefined;
  /** When the source has no onChange, /events sends a fresh snapshot this often. Default 1,000. */
  readonly pollIntervalMs?: number | undefined;
  /** Open /events streams beyond this many are refused with 503. Default 64. */
  readonly maxClients?: number | undefined;
  /**
   * Decides whether a request may see anything (e.g. a bearer-token check). A refusing AuthDecision answers
   * 401, 403 or 503 by its reason; plain false answers 401 (no Authorization header sent) or 403. Either way
   * no status is in the answer. Runs after the method and Host checks.
   */
  readonly authorize?: ((req: IncomingMessage) => Promise<boolean | AuthDecision>) | undefined;
  /**
   * Host-header names (port ignored) the dashboard answers; others get 403. Undefined answers any.
   * listenDashboard sets the loopback names when it binds to a loopback address (against DNS rebinding).
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Told when snapshot() or authorize() throws; the request gets a plain error without details. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** A node:http request handler that returns true when it answered the request (the path was its own). */
export interface DashboardHandler {
  (req: IncomingMessage, res: ServerResponse): boolean;
  /** Open /events streams. */
  openStreams(): number;
  /** Ends every open stream and stops all timers; later requests on its paths get 503. Safe to call twice. */
  close(): void;
}

type Route = 'page' | 'status' | 'events';

const STATUS_WORD = { 401: 'unauthorized', 403: 'forbidden', 503: 'unavailable' } as const;

const ROUTES: ReadonlyMap<string, Route> = new Map([
  ['/', 'page'],
  ['/index.html', 'page'],
  ['/status.json', 'status'],
  ['/events', 'events'],
]);

// On every answer: nothing is cached, sniffed, framed or sent on as a referrer.
const COMMON: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...COMMON,
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'content-length': String(Buffer.byteLength(PAGE_HTML)),
};

/**
 * Creates the dashboard handler. It answers GET and HEAD on /, /index.html, /status.json and /events
 * (405 for other methods) and returns false for every other path.
 */
export function createDashboardHandler(options: DashboardHandlerOptions): DashboardHandler {
  const { source, authorize, onError } = options;
  const allowedHosts = options.allowedHosts === undefined ? undefined : new Set(options.allowedHosts);
  const stream = new StatusStream({
    source,
    minIntervalMs: options.minIntervalMs ?? 250,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    maxClients: options.maxClients ?? 64,
    onError,
  });
  let closed = false;

  const serve = (route: Route, req: IncomingMessage, res: ServerResponse): void => {
    if (closed) {
      plain(res, 503, 'the dashboard is shutting down');
      return;
    }
    const head = req.method === 'HEAD';
    switch (route) {
      case 'page':
        res.writeHead(200, PAGE_HEADERS);
        res.end(head ? undefined : PAGE_HTML);
        return;
      case 'status': {
        let body: string;
        try {
          body = `${serialize(source.snapshot())}\n`;
        } catch (error) {
          onError?.(error);
          plain(res, 500, "the status snapshot failed; see the manager's log");
          return;
        }
        res.writeHead(200, {
          ...COMMON,
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
        });
        res.end(head ? undefined : body);
        return;
      }
      case 'events':
        stream.open(res, COMMON, head);
        return;
    }
  };

  const authorizeThenServe = async (
    check: (req: IncomingMessage) => Promise<boolean | AuthDecision>,
    route: Route,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> => {
    let decision: boolean | AuthDecision;
    try {
      decision = await check(req);
    } catch (error) {
      onError?.(error);
      plain(res, 500, "the authorization check failed; see the manager's log");
      return;
    }
    if (decision === true || (typeof decision === 'object' && decision.allowed)) {
      serve(route, req, res);
      return;
    }
    const refusal: Exclude<AuthDecision, { allowed: true }> =
      typeof decision === 'object'
        ? decision
        : req.headers.authorization === undefined
          ? {
              allowed: false,
              reason: 'unauthenticated',
              message: 'send a bearer token in the Authorization header',
            }
          : { allowed: false, reason: 'forbidden', message: 'this token may not read the dashboard' };
    const code = refusalStatus(refusal.reason);
    if (code === 401) res.setHeader('www-authenticate', 'Bearer realm="warmstart-dashboard"');
    if (code === 503) res.setHeader('retry-after', '1');
    plain(res, code, `${STATUS_WORD[code]}: ${refusal.message}`);
  };

  const handler = (req: IncomingMessage, res: ServerResponse): boolean => {
    const route = ROUTES.get(pathOf(req.url));
    if (route === undefined) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      plain(res, 405, `method ${req.method ?? ''} not allowed; the dashboard is read-only (GET or HEAD)`);
      return true;
    }
    if (allowedHosts !== undefined) {
      const host = hostName(req.headers.host);
      if (host === undefined || !allowedHosts.has(host)) {
        plain(
          res,
          403,
          `host ${JSON.stringify(host ?? '')} not allowed; open the dashboard by its bind address`,
        );
        return true;
      }
    }
    if (authorize === undefined) serve(route, req, res);
    else void authorizeThenServe(authorize, route, req, res);
    return true;
  };

  return Object.assign(handler, {
    openStreams: () => stream.size,
    close: () => {
      closed = true;
      stream.close();
    },
  });
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  return q < 0 ? raw : raw.slice(0, q);
}

function plain(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { ...COMMON, 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}
