// The /events side of the dashboard: server-sent events to every open page. One snapshot is serialized per
// broadcast and written to all clients; bursts of changes are coalesced to at most one broadcast per
// interval, and the last state always goes out. The source is subscribed to only while a page is open.
import type { ServerResponse } from 'node:http';
import type { StatusSource } from './status.js';
import { serialize } from './wire.js';

/** Settings of a StatusStream; createDashboardHandler fills in the defaults. */
export interface StatusStreamOptions {
  readonly source: StatusSource;
  /** At most one broadcast per this many ms. */
  readonly minIntervalMs: number;
  /** A comment line this often keeps proxies and load balancers from closing an idle stream. */
  readonly heartbeatMs: number;
  /** How often to push a fresh snapshot when the source has no onChange. */
  readonly pollIntervalMs: number;
  /** Streams beyond this many are refused, so a loop of reconnecting tabs cannot pile up sockets. */
  readonly maxClients: number;
  /** Told about a snapshot() that threw; the stream skips that broadcast. */
  readonly onError: ((error: unknown) => void) | undefined;
}

/** How long a browser waits before it reconnects a dropped stream (the SSE `retry` field). */
const RETRY_MS = 2_000;

interface Client {
  readonly res: ServerResponse;
  /** A broadcast was skipped because the socket's buffer was full; the latest one goes out at 'drain'. */
  behind: boolean;
}

/** The open event streams of one dashboard handler. */
export class StatusStream {
  readonly #o: StatusStreamOptions;
  readonly #clients = new Set<Client>();
  #unsubscribe: (() => void) | undefined;
  #flushTimer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #poll: NodeJS.Timeout | undefined;
  #lastBroadcastAt = Number.NEGATIVE_INFINITY;
  #latest = '';
  #closed = false;

  constructor(options: StatusStreamOptions) {
    this.#o = options;
  }

  /** Open streams. */
  get size(): number {
    return this.#clients.size;
  }

  /**
   * Answers with an event stream that starts with the current status. A HEAD request gets the headers
   * only. Answers 503 itself when the stream is closed, full, or the snapshot fails.
   */
  open(res: ServerResponse, headers: Readonly<Record<string, string>>, head: boolean): void {
    // A client that went away while authorize() ran would never emit 'close' again: do not register it.
    if (res.destroyed || res.socket?.destroyed === true) return;
    if (this.#closed || this.#clients.size >= this.#o.maxClients) {
      const reason = this.#closed
        ? 'the dashboard is shutting down'
        : `too many open dashboards (${this.#o.maxClients}); close some tabs and reload`;
      res.writeHead(503, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' });
      res.end(`${reason}\n`);
      return;
    }
    const frame = this.#frame();
    if (frame === undefined) {
      res.writeHead(503, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' });
      res.end("the status snapshot failed; see the manager's log\n");
      return;
    }
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      // Reverse proxies (nginx) buffer responses unless told not to; events must arrive as they happen.
      'x-accel-buffering': 'no',
    });
    if (head) {
      res.end();
      return;
    }
    const client: Client = { res, behind: false };
    this.#clients.add(client);
    res.on('close', () => this.#remove(client));
    res.on('drain', () => {
      if (!client.behind) return;
      client.behind = false;
      res.write(this.#latest);
    });
    res.write(`retry: ${RETRY_MS}\n${frame}`);
    if (this.#clients.size === 1) this.#start();
  }

  /** Ends every stream and stops all timers and the subscription. Later open() calls answer 503. */
  close(): void {
    this.#closed = true;
    this.#stop();
    for (const client of this.#clients) client.res.end();
    this.#clients.clear();
  }

  #start(): void {
    const { source } = this.#o;
    if (source.onChange !== undefined) {
      this.#unsubscribe = source.onChange(() => this.#changed());
    } else {
      const every = Math.max(this.#o.pollIntervalMs, this.#o.minIntervalMs);
      this.#poll = setInterval(() => this.#broadcast(), every).unref();
    }
    this.#heartbeat = setInterval(() => this.#beat(), this.#o.heartbeatMs).unref();
  }

  #stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    clearInterval(this.#poll);
    clearInterval(this.#heartbeat);
    clearTimeout(this.#flushTimer);
    this.#poll = this.#heartbeat = this.#flushTimer = undefined;
  }

  #remove(client: Client): void {
    if (this.#clients.delete(client) && this.#clients.size === 0) this.#stop();
  }

  // Leading edge on a timer of 0 ms, so a synchronous burst is one broadcast; later changes wait out the
  // interval, and the snapshot is taken when the timer fires, so the last change is never lost.
  #changed(): void {
    if (this.#closed || this.#flushTimer !== undefined || this.#clients.size === 0) return;
    const wait = Math.max(0, this.#lastBroadcastAt + this.#o.minIntervalMs - performance.now());
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      this.#broadcast();
    }, wait).unref();
  }

  #broadcast(): void {
    if (this.#clients.size === 0) return;
    const frame = this.#frame();
    if (frame === undefined) return;
    this.#lastBroadcastAt = performance.now();
    this.#latest = frame;
    for (const client of this.#clients) this.#write(client, frame);
  }

  #beat(): void {
    for (const client of this.#clients)
      if (!client.res.writableNeedDrain) client.res.write(': heartbeat\n\n');
  }

  #write(client: Client, frame: string): void {
    // A slow reader gets the newest state when it catches up instead of a queue of stale ones.
    if (client.res.writableNeedDrain) client.behind = true;
    else client.res.write(frame);
  }

  #frame(): string | undefined {
    try {
      return `event: status\ndata: ${serialize(this.#o.source.snapshot())}\n\n`;
    } catch (error) {
      this.#o.onError?.(error);
      return undefined;
    }
  }
}
