// A TCP proxy on 127.0.0.1 that hands a client the API server's bytes at a fixed rate per connection, as a
// server across a slow link would, and counts what it forwarded. It turns a list that takes a second into one
// that takes long enough to observe (the dashboard filling) or to interrupt (a restart mid-list). TLS passes
// through untouched: the serving certificate is for 127.0.0.1.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface ThrottledProxy {
  /** `https://127.0.0.1:<port>`: put it in a kubeconfig in place of the server. */
  readonly url: string;
  /** Bytes handed to clients so far, over every connection. */
  downstreamBytes(): number;
  close(): void;
}

export async function throttledProxy(target: string, bytesPerSecond: number): Promise<ThrottledProxy> {
  if (!(bytesPerSecond > 0)) throw new RangeError(`bytesPerSecond must be positive, got ${bytesPerSecond}`);
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let forwarded = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      upstream.pause();
      client.write(chunk);
      forwarded += chunk.length;
      setTimeout(() => upstream.resume(), Math.ceil((chunk.length / bytesPerSecond) * 1000));
    });
    const end = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
  return {
    url: `https://127.0.0.1:${address.port}`,
    downstreamBytes: () => forwarded,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}
