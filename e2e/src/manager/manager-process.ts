// Runs warmstart-controller-manager as a real child process from its build (apps/controller-manager/dist, as
// a user runs it; the integration global setup builds it), the way a restart or fail-over test needs it: its
// own pid to SIGKILL or SIGTERM, its own ports, its log lines, and the moment /livez first answered.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { joinGroupVia } from '../cluster/cpu-requests.js';
import { freePort } from '../cluster/local-provider.js';
import { onSignalCleanup } from '../cluster/supervisor.js';
import { waitFor } from '../cluster/wait.js';

const main = fileURLToPath(new URL('../../../apps/controller-manager/dist/main.js', import.meta.url));

export class ManagerNotBuiltError extends Error {
  constructor() {
    super(
      `${main} does not exist: build it first (pnpm turbo run build --filter=@warmstart/controller-manager...)`,
    );
    this.name = 'ManagerNotBuiltError';
  }
}

export interface ManagerProcessOptions {
  readonly kubeconfig: string;
  readonly args?: readonly string[];
  /** Node's own flags, before the script (e.g. a larger --max-old-space-size for 100k workloads). */
  readonly nodeArgs?: readonly string[];
  /**
   * Where to write its stderr (JSON logs); default: a file in $WARMSTART_MANAGER_LOG_DIR when that is set (the
   * README's test command sets it, so a failed run leaves every manager's log), else kept in memory only.
   */
  readonly logPath?: string | undefined;
  readonly identity?: string | undefined;
  /** Serve the dashboard on this address (default: off). */
  readonly dashboardBindAddress?: string | undefined;
  /** A cgroup's `cgroup.procs` to start in, e.g. one weighted like a CPU request (the bench's --cpu-request). */
  readonly cgroupProcs?: string | undefined;
}

export interface ManagerProcess {
  readonly pid: number;
  /** The --identity it was started with (its leader-election identity), when one was given. */
  readonly identity: string | undefined;
  readonly probesUrl: string;
  readonly metricsUrl: string;
  readonly startedAt: number;
  /** Milliseconds from spawn until /livez first answered 200. */
  livezMs(): Promise<number>;
  /** Log lines so far (JSON). */
  logs(): readonly string[];
  hasExited(): boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM and wait (graceful), or SIGKILL. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  metrics(): Promise<string>;
  readyz(verbose?: boolean): Promise<{ status: number; body: string }>;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});
// A harness stopped by SIGINT re-raises the signal once its clusters are down, which ends the process without an
// 'exit' event: without this, a manager (with a 12 GiB heap limit at scale) would outlive it.
let signalHookInstalled = false;
function killOnSignal(): void {
  if (signalHookInstalled) return;
  signalHookInstalled = true;
  onSignalCleanup(async () => {
    for (const c of live) c.kill('SIGKILL');
  });
  // A harness that ends any other way (an uncaught error, process.exit) must not leave managers behind holding a
  // Lease and gigabytes of cache; `exit` handlers must be synchronous, so this can only SIGKILL.
  process.on('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

/**
 * Starts the manager and returns once its servers listen (or it exited). Ports are picked free and then handed
 * over, so another process can take one in between; a start that fails with EADDRINUSE is retried on new ports.
 * /livez is polled from the moment of spawn, so livezMs() is exact whenever it is called.
 */
export async function startManager(options: ManagerProcessOptions): Promise<ManagerProcess> {
  for (let attempt = 1; ; attempt++) {
    const proc = await spawnManager(options);
    proc.livezMs().catch(() => undefined);
    const outcome = await waitFor(
      'the manager to serve its endpoints or exit',
      () =>
        proc.logs().some((l) => l.includes('"msg":"serving probes"'))
          ? 'serving'
          : proc.hasExited()
            ? 'exited'
            : undefined,
      { timeoutMs: 60_000, intervalMs: 20 },
    );
    if (outcome === 'exited' && attempt < 3 && proc.logs().some((l) => l.includes('EADDRINUSE'))) continue;
    return proc;
  }
}

async function spawnManager(options: ManagerProcessOptions): Promise<ManagerProcess> {
  const probesPort = await freePort();
  const metricsPort = await freePort();
  if (!existsSync(main)) throw new ManagerNotBuiltError();
  const args = [
    ...(options.nodeArgs ?? []),
    main,
    `--kubeconfig=${options.kubeconfig}`,
    `--health-probe-bind-address=127.0.0.1:${probesPort}`,
    `--metrics-bind-address=127.0.0.1:${metricsPort}`,
    `--dashboard-bind-address=${options.dashboardBindAddress ?? '0'}`,
    '--log-format=json',
    ...(options.identity ? [`--identity=${options.identity}`] : []),
    ...(options.args ?? []),
  ];
  const startedAt = Date.now();
  killOnSignal();
  const via = options.cgroupProcs ? joinGroupVia(options.cgroupProcs, process.execPath, args) : undefined;
  const child = spawn(via?.command ?? process.execPath, via?.args ?? args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  live.add(child);
  const lines: string[] = [];
  const logPath = options.logPath ?? defaultLogPath(options.identity, startedAt);
  const file = logPath ? createWriteStream(logPath, { flags: 'a' }) : undefined;
  let partial = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    file?.write(chunk);
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      file?.end();
      resolve({ code, signal });
    }),
  );
  const probesUrl = `http://127.0.0.1:${probesPort}`;
  const metricsUrl = `http://127.0.0.1:${metricsPort}`;
  let livez: Promise<number> | undefined;
  const proc: ManagerProcess = {
    pid: child.pid!,
    identity: options.identity,
    probesUrl,
    metricsUrl,
    startedAt,
    livezMs: () => {
      livez ??= waitFor(
        'the manager to answer /livez',
        async () => {
          if (child.exitCode !== null)
            throw new Error(`the manager exited (${child.exitCode}): ${lines.slice(-5).join('\n')}`);
          const res = await fetch(`${probesUrl}/livez`).catch(() => undefined);
          return res?.status === 200 ? Date.now() - startedAt : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 20 },
      );
      return livez;
    },
    logs: () => lines,
    hasExited: () => child.exitCode !== null || child.signalCode !== null,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    metrics: async () => (await fetch(`${metricsUrl}/metrics`)).text(),
    readyz: async (verbose = false) => {
      const res = await fetch(`${probesUrl}/readyz${verbose ? '?verbose' : ''}`);
      return { status: res.status, body: await res.text() };
    },
  };
  return proc;
}

/** Reads one sample of a Prometheus text exposition (sum over all label sets when labels are omitted). */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== '{' && line[name.length] !== ' ')) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

let logCount = 0;
function defaultLogPath(identity: string | undefined, startedAt: number): string | undefined {
  const dir = process.env.WARMSTART_MANAGER_LOG_DIR;
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const stamp = new Date(startedAt).toISOString().replace(/[:.]/g, '-');
  return join(dir, `${stamp}-${process.pid}-${++logCount}${identity ? `-${identity}` : ''}.log`);
}
