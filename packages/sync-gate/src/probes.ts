// /livez, /healthz and /readyz for node:http in the kube-apiserver's format: "[+]name ok" / "[-]name failed:
// reason" lines, ?verbose, repeatable ?exclude=<name>, and /<endpoint>/<name> for a single check. Liveness
// looks only at the event loop (never at caches); readiness is every gate of a Readiness registry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe } from './errors.js';
import { EventLoopLagMonitor, type EventLoopLagSource } from './event-loop-lag.js';
import type { GateSnapshot } from './gate.js';
import type { Readiness } from './readiness.js';

/** An extra named check for /livez or /readyz. */
export interface HealthCheck {
  readonly name: string;
  /** Returns undefined when healthy, else the reason (shown as "[-]name failed: reason"). Must not block. */
  check(): string | undefined;
}

/** Options for createProbeHandler. */
export interface ProbeHandlerOptions {
  /** Its gates are /readyz's checks, one line each, in registration order. */
  readonly readiness?: Readiness | undefined;
  /** /livez fails while the event-loop lag exceeds this many ms. Default 5,000. */
  readonly maxEventLoopLagMs?: number | undefined;
  /** Where lag comes from. Default: an EventLoopLagMonitor the handler owns and close() stops. */
  readonly eventLoopLag?: EventLoopLagSource | undefined;
  /** Checks appended to /livez (and /healthz) after "ping" and "event-loop-lag". */
  readonly livezChecks?: readonly HealthCheck[] | undefined;
  /** Checks appended to /readyz after the gates (e.g. "shutdown" while the manager stops). */
  readonly readyzChecks?: readonly HealthCheck[] | undefined;
  /** Mount points. Defaults: /livez, /readyz, and /healthz as an alias of /livez (Karmada probes /healthz); false drops it. */
  readonly paths?:
    | {
        readonly livez?: string | undefined;
        readonly readyz?: string | undefined;
        readonly healthz?: string | false | undefined;
      }
    | undefined;
}

/** A node:http request handler that returns true when it answered the request (the path was a probe path). */
export interface ProbeHandler {
  (req: IncomingMessage, res: ServerResponse): boolean;
  /** Stops the handler's own lag monitor, if it created one. */
  close(): void;
}

const DEFAULT_MAX_LAG_MS = 5_000;

interface Line {
  readonly name: string;
  readonly ok: boolean;
  /** What follows the name: "ok", "failed: reason", "pending: progress (12.3s[, last progress 6.0s ago])". */
  readonly text: string;
}

type Endpoint = 'livez' | 'readyz' | 'healthz';

/**
 * Creates the probe handler. Mount it on any node:http server: `if (!handler(req, res)) next()`.
 * Answers 200 or 503 (405 for methods other than GET and HEAD, 404 for an unknown single check).
 */
export function createProbeHandler(options: ProbeHandlerOptions = {}): ProbeHandler {
  const ownMonitor = options.eventLoopLag === undefined ? new EventLoopLagMonitor() : undefined;
  const lag: EventLoopLagSource = options.eventLoopLag ?? ownMonitor!;
  const maxLagMs = options.maxEventLoopLagMs ?? DEFAULT_MAX_LAG_MS;
  const livezChecks = options.livezChecks ?? [];
  const readyzChecks = options.readyzChecks ?? [];
  const readiness = options.readiness;
  const mounts: [string, Endpoint][] = [
    [options.paths?.livez ?? '/livez', 'livez'],
    [options.paths?.readyz ?? '/readyz', 'readyz'],
  ];
  const healthz = options.paths?.healthz ?? '/healthz';
  if (healthz !== false) mounts.push([healthz, 'healthz']);

  const liveLines = (): Line[] => {
    const lagMs = lag.lagMs();
    const lines: Line[] = [
      { name: 'ping', ok: true, text: 'ok' },
      lagMs <= maxLagMs
        ? { name: 'event-loop-lag', ok: true, text: 'ok' }
        : {
            name: 'event-loop-lag',
            ok: false,
            text: `failed: event loop lagged ${Math.round(lagMs)} ms, over the ${maxLagMs} ms bound`,
          },
    ];
    for (const c of livezChecks) lines.push(checkLine(c));
    return lines;
  };

  const readyLines = (now: number): Line[] => {
    const lines: Line[] = [{ name: 'ping', ok: true, text: 'ok' }];
    if (readiness !== undefined) for (const snap of readiness.snapshot()) lines.push(gateLine(snap, now));
    for (const c of readyzChecks) lines.push(checkLine(c));
    return lines;
  };

  const handler = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = new URL(req.url ?? '/', 'http://probe.invalid');
    const path = url.pathname;
    for (const [mount, endpoint] of mounts) {
      if (path === mount || path === `${mount}/`) {
        if (!allowed(req, res)) return true;
        const lines = endpoint === 'readyz' ? readyLines(Date.now()) : liveLines();
        answerAll(req, res, endpoint, lines, url.searchParams);
        return true;
      }
      if (path.startsWith(`${mount}/`)) {
        if (!allowed(req, res)) return true;
        const lines = endpoint === 'readyz' ? readyLines(Date.now()) : liveLines();
        answerOne(req, res, endpoint, lines, decode(path.slice(mount.length + 1)));
        return true;
      }
    }
    return false;
  };
  return Object.assign(handler, { close: () => ownMonitor?.close() });
}

// A pending gate whose owner has not progressed for this long says so: a list that is slow and one that is stuck
// read alike otherwise.
const QUIET_AFTER_MS = 5_000;

// One readyz line for a gate: open is ok; pending shows progress, time waiting and, once quiet, the time since the
// last progress; failed shows the error.
function gateLine(snap: GateSnapshot, now: number): Line {
  const age = formatDuration(now - snap.since);
  switch (snap.state) {
    case 'open':
      return { name: snap.name, ok: true, text: 'ok' };
    case 'pending': {
      const quiet =
        snap.progressedAt > snap.since && now - snap.progressedAt >= QUIET_AFTER_MS
          ? `, last progress ${formatDuration(now - snap.progressedAt)} ago`
          : '';
      return {
        name: snap.name,
        ok: false,
        text: snap.progress
          ? `pending: ${oneLine(snap.progress)} (${age}${quiet})`
          : `pending (${age}${quiet})`,
      };
    }
    case 'failed':
      return {
        name: snap.name,
        ok: false,
        text: `failed: ${oneLine(snap.error ?? 'unknown error')} (${age})`,
      };
  }
}

/** "12.3s" under a minute, "4m05s" under an hour, "2h03m" beyond. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const totalSeconds = Math.floor(s);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const sec = totalSeconds % 60;
  if (h === 0) return `${m}m${String(sec).padStart(2, '0')}s`;
  return `${h}h${String(m).padStart(2, '0')}m`;
}

function checkLine(check: HealthCheck): Line {
  let reason: string | undefined;
  try {
    reason = check.check();
  } catch (error) {
    reason = `check threw: ${describe(error)}`;
  }
  return reason === undefined
    ? { name: check.name, ok: true, text: 'ok' }
    : { name: check.name, ok: false, text: `failed: ${oneLine(reason)}` };
}

function allowed(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  res.writeHead(405, { ...HEADERS, allow: 'GET, HEAD' });
  res.end(`method ${req.method ?? ''} not allowed; use GET or HEAD\n`);
  return false;
}

const HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
} as const;

function answerAll(
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: Endpoint,
  lines: readonly Line[],
  query: URLSearchParams,
): void {
  const exclude = new Set(query.getAll('exclude'));
  const out: string[] = [];
  let failed = false;
  for (const line of lines) {
    if (exclude.delete(line.name)) {
      out.push(`[+]${line.name} excluded: ok\n`);
      continue;
    }
    if (!line.ok) failed = true;
    out.push(`${line.ok ? '[+]' : '[-]'}${line.name} ${line.text}\n`);
  }
  if (exclude.size > 0) {
    const names = [...exclude].map((n) => `"${n}"`).join(', ');
    out.push(`warn: some health checks cannot be excluded: no matches for ${names}\n`);
  }
  // Like the kube-apiserver: terse "ok" on success unless ?verbose, always the lines on failure.
  if (failed) {
    out.push(`${endpoint} check failed\n`);
    send(req, res, 503, out.join(''));
  } else if (query.has('verbose')) {
    out.push(`${endpoint} check passed\n`);
    send(req, res, 200, out.join(''));
  } else {
    send(req, res, 200, 'ok');
  }
}

function answerOne(
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: Endpoint,
  lines: readonly Line[],
  name: string,
): void {
  const line = lines.find((l) => l.name === name);
  if (line === undefined) {
    send(req, res, 404, `no ${endpoint} check named "${oneLine(name)}"\n`);
  } else if (line.ok) {
    send(req, res, 200, 'ok');
  } else {
    send(req, res, 503, `[-]${line.name} ${line.text}\n${endpoint} check failed\n`);
  }
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { ...HEADERS, 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

// Reasons come from arbitrary errors; a newline would forge a line of its own.
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
