// The /metrics endpoint (--metrics-bind-address) on a server of its own, optionally behind a bearer-token
// check (--metrics-auth=token), so exposing it to a scraper never exposes the probes or the dashboard.
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Server as HttpsServer } from 'node:https';
import { type AuthDecision, refusalStatus } from './endpoint-auth/decision.js';
import type { ManagerMetrics } from './metrics.js';

export interface MetricsServerOptions {
  readonly metrics: ManagerMetrics;
  readonly host: string;
  readonly port: number;
  /** When set, every request must be allowed by it first (401/403/503 otherwise). */
  readonly authorize?: ((req: IncomingMessage) => Promise<AuthDecision>) | undefined;
  /** Makes the server (HTTPS: ServingCertificate.createServer); default plain HTTP. */
  readonly serverFactory?: ((listener: RequestListener) => Server) | undefined;
}

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

function plain(res: ServerResponse, code: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(`${text}\n`);
}

function serveMetrics(metrics: ManagerMetrics, res: ServerResponse): void {
  metrics.registry.metrics().then(
    (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
    (error: unknown) => plain(res, 500, String(error)),
  );
}

async function authorizeThenServe(
  options: MetricsServerOptions & { authorize: (req: IncomingMessage) => Promise<AuthDecision> },
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const decision = await options
    .authorize(req)
    .catch(
      (): AuthDecision => ({ allowed: false, reason: 'unavailable', message: 'the token check failed' }),
    );
  if (decision.allowed) {
    serveMetrics(options.metrics, res);
    return;
  }
  const code = refusalStatus(decision.reason);
  const headers: Record<string, string> =
    code === 401
      ? { 'www-authenticate': 'Bearer realm="warmstart-metrics"' }
      : code === 503
        ? { 'retry-after': '1' }
        : {};
  plain(res, code, decision.message, headers);
}

export function listenMetrics(options: MetricsServerOptions): Promise<MetricsServer> {
  const { authorize } = options;
  const server: Server = (options.serverFactory ?? createServer)((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (authorize === undefined) serveMetrics(options.metrics, res);
    else void authorizeThenServe({ ...options, authorize }, req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const a = server.address();
      const url =
        typeof a === 'object' && a
          ? `${server instanceof HttpsServer ? 'https' : 'http'}://${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}`
          : '';
      resolve({
        url,
        close: () => new Promise<void>((r) => server.close(() => r()).closeAllConnections()),
      });
    });
  });
}
