// A node:http server of its own for the dashboard (--dashboard-bind-address), so the status page never
// shares a port, or an exposure decision, with /metrics or the probes.
import { createServer, type RequestListener, type Server } from 'node:http';
import { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DashboardListenError } from './errors.js';
import { createDashboardHandler, type DashboardHandlerOptions } from './handler.js';
import { isLoopback, LOOPBACK_HOSTS } from './hosts.js';

/** Options for listenDashboard: where to listen, plus everything createDashboardHandler takes. */
export interface DashboardServerOptions extends DashboardHandlerOptions {
  /** Interface to bind. Default 127.0.0.1: the page is for an operator on the host or a port-forward. */
  readonly host?: string | undefined;
  /** Port to bind (8090 in the manager); 0 picks a free one (see `url`). */
  readonly port: number;
  /** Makes the server (e.g. an HTTPS one); default plain HTTP. */
  readonly serverFactory?: ((listener: RequestListener) => Server) | undefined;
  /** Aborting it closes the server; before listening completes, the call rejects. */
  readonly signal?: AbortSignal | undefined;
}

/** A listening dashboard. */
export interface DashboardServer {
  /** The bound address; `address.port` is the real port when 0 was asked for. */
  readonly address: AddressInfo;
  /** "http://host:port/" (or https) of the page. */
  readonly url: string;
  /** Ends open event streams, stops listening and drops connections. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Serves the dashboard on host:port (404 on other paths). On a loopback host it answers only requests
 * whose Host header is a loopback name unless `allowedHosts` says otherwise.
 * Rejects with DashboardListenError when the address cannot be bound.
 */
export async function listenDashboard(options: DashboardServerOptions): Promise<DashboardServer> {
  const host = options.host ?? '127.0.0.1';
  const allowedHosts =
    options.allowedHosts ?? (isLoopback(host) ? [...LOOPBACK_HOSTS, host.toLowerCase()] : undefined);
  const handler = createDashboardHandler({ ...options, allowedHosts });
  const server = (options.serverFactory ?? createServer)((req, res) => {
    if (handler(req, res)) return;
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
    res.end('not found; the dashboard serves /, /status.json and /events\n');
  });
  const { signal } = options;
  try {
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const rejectOnAbort = (): void => reject(signal?.reason);
      server.once('error', reject);
      signal?.addEventListener('abort', rejectOnAbort, { once: true });
      server.listen({ host, port: options.port }, () => {
        server.off('error', reject);
        signal?.removeEventListener('abort', rejectOnAbort);
        resolve();
      });
    });
  } catch (error) {
    handler.close();
    server.close();
    if (signal?.aborted && error === signal.reason) throw error;
    throw new DashboardListenError(`${host}:${options.port}`, error);
  }
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve, reject) => {
      signal?.removeEventListener('abort', onAbort);
      handler.close();
      server.close((error) => {
        if (error && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') reject(error);
        else resolve();
      });
      // Ended event streams and idle keep-alive sockets would otherwise hold close() open.
      server.closeAllConnections();
    });
    return closing;
  };
  const onAbort = (): void => void close();
  signal?.addEventListener('abort', onAbort, { once: true });
  const scheme = server instanceof HttpsServer ? 'https' : 'http';
  return { address, url: `${scheme}://${shown}:${address.port}/`, close };
}
