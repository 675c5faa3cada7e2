// HTTP and server-sent-event clients for the dashboard's tests, on node:http so the test controls the Host
// header and can drop a connection. Deadlines use node:timers, which fake timers leave alone.
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { clearTimeout, setTimeout } from 'node:timers';

export interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request; resolves with the whole answer. */
export function fetchText(
  url: string,
  init: { method?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: init.method ?? 'GET',
        headers: init.headers,
        signal: AbortSignal.timeout(init.timeoutMs ?? 5_000),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
  readonly retry: number | undefined;
}

/** An open /events stream, parsed as it arrives. */
export class EventStream {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  readonly ended: Promise<void>;
  #buffer = '';
  #waiters = new Set<() => void>();
  #endedFlag = false;

  private constructor(
    readonly response: IncomingMessage,
    readonly destroy: () => void,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.#feed(chunk));
    this.ended = new Promise((resolve) => {
      const done = (): void => {
        this.#endedFlag = true;
        this.#notify();
        resolve();
      };
      response.on('end', done);
      response.on('close', done);
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        resolve(new EventStream(res, () => req.destroy()));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Status events' parsed data, in order. */
  statuses<T>(): T[] {
    return this.events.filter((e) => e.event === 'status').map((e) => JSON.parse(e.data) as T);
  }

  /** Resolves once `predicate` holds; rejects after timeoutMs or when the stream ends first. */
  waitFor(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (predicate()) finish();
        else if (this.#endedFlag) finish(new Error(`stream ended before ${what}`));
      };
      const finish = (error?: Error): void => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(
        () => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
        timeoutMs,
      );
      this.#waiters.add(check);
    });
  }

  #feed(chunk: string): void {
    this.#buffer += chunk;
    let end = this.#buffer.indexOf('\n\n');
    while (end >= 0) {
      this.#block(this.#buffer.slice(0, end));
      this.#buffer = this.#buffer.slice(end + 2);
      end = this.#buffer.indexOf('\n\n');
    }
    this.#notify();
  }

  #block(block: string): void {
    let event: string | undefined;
    let retry: number | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
      else if (line.startsWith('retry: ')) retry = Number(line.slice(7));
    }
    if (data.length > 0) this.events.push({ event, data: data.join('\n'), retry });
  }

  #notify(): void {
    for (const check of [...this.#waiters]) check();
  }
}

/** `promise`, or a rejection naming `what` after timeoutMs. */
export function within<T>(promise: Promise<T>, what: string, timeoutMs = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
