// What it costs to answer /readyz?verbose with 1,000 gates registered: in-process (handler only, no
// socket) and over HTTP on 127.0.0.1 with keep-alive. The gates are in the mix a restart shows: most open,
// some listing with progress text, a few failed, plus the all-caches aggregate over all of them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createProbeHandler, listenProbes, Readiness } from '@warmstart/sync-gate';
import { ms, quantile, us } from './stats.ts';

const GATES = 1_000;
const HANDLER_CALLS = 5_000;
const HTTP_REQUESTS = 1_000;

function registry(): Readiness {
  const readiness = new Readiness();
  const all = readiness.allOf('all-caches');
  for (let i = 0; i < GATES; i++) {
    const gate = readiness.gate(`informer:member-${Math.floor(i / 50)}/apps/v1/resource-${i}`);
    all.add(gate);
    if (i % 20 === 0) gate.fail(new Error(`resource-${i} is forbidden: User "warmstart" cannot list it`));
    else if (i % 4 === 0) gate.setProgress(`listed ${(i * 41).toLocaleString('en-US')} objects`);
    else gate.open();
  }
  return readiness;
}

// The handler writes synchronously, so a minimal stand-in for req/res measures exactly its own work.
function fakeExchange(url: string): { req: IncomingMessage; res: ServerResponse; bytes: () => number } {
  let bytes = 0;
  const res = {
    writeHead() {
      return res;
    },
    end(body?: string) {
      bytes = body?.length ?? 0;
      return res;
    },
  };
  const req = { url, method: 'GET' };
  return {
    // Bench stand-ins with only the fields the probe handler touches, not whole Node http objects.
    req: req as unknown as IncomingMessage,
    res: res as unknown as ServerResponse,
    bytes: () => bytes,
  };
}

/** Runs the bench and prints the in-process and HTTP figures. */
export async function benchReadyz(): Promise<void> {
  const readiness = registry();
  const lag = { lagMs: () => 0 };
  console.log(`/readyz?verbose with ${GATES.toLocaleString('en-US')} gates + all-caches aggregate`);

  const handler = createProbeHandler({ readiness, eventLoopLag: lag });
  const exchange = fakeExchange('/readyz?verbose');
  for (let i = 0; i < 500; i++) handler(exchange.req, exchange.res);
  const handlerTimes: number[] = [];
  for (let i = 0; i < HANDLER_CALLS; i++) {
    const t0 = performance.now();
    handler(exchange.req, exchange.res);
    handlerTimes.push(performance.now() - t0);
  }
  handler.close();
  console.log(
    `  handler only (x${HANDLER_CALLS})  p50 ${us(quantile(handlerTimes, 0.5))}   p99 ${us(quantile(handlerTimes, 0.99))}` +
      `   body ${exchange.bytes().toLocaleString('en-US')} bytes`,
  );

  const server = await listenProbes({ host: '127.0.0.1', port: 0, readiness, eventLoopLag: lag });
  try {
    const url = `${server.url}/readyz?verbose`;
    for (let i = 0; i < 100; i++) await (await fetch(url)).text();
    const httpTimes: number[] = [];
    let status = 0;
    for (let i = 0; i < HTTP_REQUESTS; i++) {
      const t0 = performance.now();
      const res = await fetch(url);
      await res.text();
      httpTimes.push(performance.now() - t0);
      status = res.status;
    }
    console.log(
      `  over HTTP (x${HTTP_REQUESTS}, keep-alive)  p50 ${ms(quantile(httpTimes, 0.5))}   p99 ${ms(quantile(httpTimes, 0.99))}` +
        `   status ${status}`,
    );
  } finally {
    await server.close();
  }
}
