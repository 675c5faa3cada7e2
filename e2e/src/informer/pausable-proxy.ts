// A TCP proxy on 127.0.0.1 in front of a kube-apiserver that a test can cut and restore. While cut, it drops every
// connection and refuses new ones, so an informer behind it sees nothing of what happens on the server: the gap a
// 410 test needs. TLS passes through untouched (the serving certificate is for 127.0.0.1).
import { connect, createServer, type Server, type Socket } from 'node:net';

export class PausableProxy {
  readonly #server: Server;
  readonly #open = new Set<Socket>();
  #cut = false;
  /** Connections refused while cut. */
  refused = 0;

  private constructor(
    server: Server,
    readonly url: string,
  ) {
    this.#server = server;
  }

  /** Listens on a free port of 127.0.0.1 and forwards to `target` (`https://127.0.0.1:<port>`). */
  static async start(target: string): Promise<PausableProxy> {
    const { hostname, port } = new URL(target);
    let proxy: PausableProxy | undefined;
    const server = createServer((client) => proxy!.#accept(client, hostname, Number(port)));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
    proxy = new PausableProxy(server, `https://127.0.0.1:${address.port}`);
    return proxy;
  }

  get isCut(): boolean {
    return this.#cut;
  }

  /** Drops every open connection and refuses new ones until restore(). */
  cut(): void {
    this.#cut = true;
    for (const socket of this.#open) socket.destroy();
    this.#open.clear();
  }

  restore(): void {
    this.#cut = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket, host: string, port: number): void {
    if (this.#cut) {
      this.refused++;
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.#open.add(a);
      a.pipe(b);
      // Either side failing or closing ends the pair, as a real network path would.
      a.on('error', () => b.destroy());
      a.on('close', () => {
        this.#open.delete(a);
        b.destroy();
      });
    }
  }
}
