// Runs one of Karmada's own binaries (controller-manager or scheduler) as a child process of the test, with its
// log in a file and killed with the harness if the test dies.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { onSignalCleanup } from '../cluster/supervisor.js';

export interface KarmadaProcess {
  readonly name: string;
  readonly pid: number;
  readonly logPath: string;
  hasExited(): boolean;
  /** The last lines it logged, for a failure message. */
  tail(lines?: number): string;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});
let hooked = false;

export function startKarmadaProcess(
  name: string,
  binary: string,
  args: readonly string[],
  logPath: string,
): KarmadaProcess {
  if (!hooked) {
    hooked = true;
    onSignalCleanup(async () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const file = createWriteStream(logPath, { flags: 'a' });
  const recent: string[] = [];
  const keep = (chunk: Buffer) => {
    file.write(chunk);
    recent.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (recent.length > 200) recent.splice(0, recent.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      live.delete(child);
      file.end();
      resolve();
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    pid: child.pid!,
    logPath,
    hasExited: () => !running(),
    tail: (lines = 20) => recent.slice(-lines).join('\n'),
    stop: async (graceMs = 15_000) => {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
