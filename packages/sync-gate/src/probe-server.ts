// A ready-made node:http server for the probes, for processes that have no server of their own.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProbeHandler, type ProbeHandlerOptions } from './probes.js';

/** Options for listenProbes: where to listen, plus everything createProbeHandler takes. */
export interface ProbeServerOptions extends ProbeHandlerOptions {
  /** Interface to bind, e.g. "127.0.0.1"; default: every interface, as kubelet probes the pod IP. */
  readonly host?: string | undefined;
  /** Port to bind; 0 picks a free one (see `address`). */
  readonly port: number;
  /** Aborting it closes the server; before listening completes, the call rejects. */
  readonly signal?: AbortSignal | undefined;
}

/** A listening probe server. */
export interface ProbeServer {
  /** The bound address; `address.port` is the real port when 0 was asked for. */
  readonly address: AddressInfo;
  /** "http://host:port" for the bound address. */
  readonly url: string;
  /** Stops listening, drops open connections and stops the handler's lag monitor. Safe to call twice. */
  close(): Promise<void>;
}

/** Creates a node:http server that answers /livez, /healthz and /readyz (404 elsewhere) and listens on host:port. */
export async function listenProbes(options: ProbeServerOptions): Promise<ProbeServer> {
  const handler = createProbeHandler(options);
  const server = createServer((req, res) => {
    if (handler(req, res)) return;
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('not found; probe paths are /livez, /healthz and /readyz\n');
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: options.host, port: options.port, signal: options.signal }, () => {
        server.off('error', reject);
        resolve();
      });
      options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
    });
  } catch (error) {
    handler.close();
    server.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    address,
    url: `http://${host}:${address.port}`,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        handler.close();
        server.close((error) => {
          // Already closed through the signal: closing is done.
          if (error && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') reject(error);
          else resolve();
        });
        // Probe answers are written synchronously, so no request is mid-flight on a kept-alive socket.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
