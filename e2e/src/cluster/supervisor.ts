// Owns the processes a cluster set starts. Every child is registered here and killed when the set goes
// down, when the test process gets SIGINT/SIGTERM, and (synchronously, with SIGKILL) when it exits any other
// way. Pid files let the next run reap what a SIGKILLed harness could not clean up itself.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LaunchVia } from './cpu-requests.js';

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logPath: string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  /** True until the process has exited. */
  running(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
  /** Sends a signal without waiting (SIGSTOP/SIGCONT for stall tests). */
  signal(signal: NodeJS.Signals): void;
}

const live = new Set<{ child: ChildProcess; stop: () => Promise<void> }>();
const cleanups = new Set<() => Promise<void>>();
let hooksInstalled = false;

/**
 * Registers an orderly shutdown (e.g. a cluster set's down()) to run on SIGINT/SIGTERM/SIGHUP before the
 * remaining processes are stopped. Returns a function that unregisters it.
 */
export function onSignalCleanup(cleanup: () => Promise<void>): () => void {
  installHooks();
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // Last resort: `exit` handlers must be synchronous, so this can only SIGKILL.
  process.on('exit', () => {
    for (const p of live) p.child.kill('SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      void Promise.allSettled([...cleanups].map((c) => c()))
        .then(() => Promise.allSettled([...live].map((p) => p.stop())))
        .finally(() => {
          // Re-raise so the process ends the way the signal asked (exit code 128+n), not as a success.
          process.kill(process.pid, sig);
        });
    });
  }
}

export interface SpawnOptions {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly logPath: string;
  readonly pidDir: string;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /**
   * Start through this instead, a wrapper that ends by exec'ing `command` (e.g. a shell that joins a cgroup first):
   * the pid stays the command's, and the pid file names `command`, which is what runs once the wrapper execs.
   */
  readonly via?: LaunchVia | undefined;
}

export async function spawnManaged(options: SpawnOptions): Promise<ManagedProcess> {
  installHooks();
  const log = createWriteStream(options.logPath, { flags: 'a' });
  await new Promise<void>((resolve, reject) => log.once('open', () => resolve()).once('error', reject));
  const child = spawn(options.via?.command ?? options.command, options.via?.args ?? options.args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  if (child.pid === undefined) {
    const error = await new Promise<Error>((resolve) => child.once('error', resolve));
    throw new Error(`could not start ${options.name} (${options.command}): ${error.message}`);
  }
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const pid = child.pid;
  const pidFile = join(options.pidDir, `${options.name}.pid`);
  await writeFile(pidFile, `${pid} ${options.command}\n`);
  let exitedFlag = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedFlag = true;
      live.delete(entry);
      rmSync(pidFile, { force: true });
      log.end();
      resolve(code ?? signal ?? 'unknown');
    });
  });
  const stop = async (graceMs = 10_000): Promise<void> => {
    if (exitedFlag) return;
    child.kill('SIGCONT'); // a SIGSTOPped process cannot act on SIGTERM
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const entry = { child, stop };
  live.add(entry);
  return {
    name: options.name,
    pid,
    logPath: options.logPath,
    exited,
    running: () => !exitedFlag,
    stop,
    signal: (s) => {
      if (!exitedFlag) child.kill(s);
    },
  };
}

/** Root of the per-run work directories; each cluster set gets `warmstart-<id>` below it. */
export function runRoot(): string {
  return process.env.WARMSTART_RUN_DIR ?? tmpdir();
}

export async function makeWorkDir(): Promise<string> {
  const id = `${Date.now().toString(36)}-${process.pid}`;
  const dir = join(runRoot(), `warmstart-${id}`);
  await mkdir(join(dir, 'pids'), { recursive: true });
  await writeFile(join(dir, 'owner.pid'), `${process.pid}\n`);
  return dir;
}

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
  } catch {
    return '';
  }
}

/**
 * Kills processes left by earlier runs whose owner died without cleaning up (SIGKILL, OOM), and removes their
 * work directories. A pid is only killed when it still runs the binary recorded for it, so a recycled pid is safe.
 */
export function reapStale(): number {
  let reaped = 0;
  const root = runRoot();
  let entries: string[];
  try {
    entries = readdirSync(root).filter((e) => e.startsWith('warmstart-'));
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const dir = join(root, entry);
    let owner: number;
    try {
      owner = Number.parseInt(readFileSync(join(dir, 'owner.pid'), 'utf8'), 10);
    } catch {
      continue;
    }
    if (owner === process.pid || alive(owner)) continue;
    let pidFiles: string[] = [];
    try {
      pidFiles = readdirSync(join(dir, 'pids'));
    } catch {
      // no pid dir: nothing was started
    }
    for (const f of pidFiles) {
      const [pidText, command] = readFileSync(join(dir, 'pids', f), 'utf8')
        .trim()
        .split(' ');
      const pid = Number.parseInt(pidText ?? '', 10);
      if (Number.isFinite(pid) && alive(pid) && command !== undefined && commandOf(pid) === command) {
        process.kill(pid, 'SIGKILL');
        reaped++;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return reaped;
}
