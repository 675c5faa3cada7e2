// Which replica leads, as each one reports it on /metrics (warmstart_leader), and the moment it says so.
import { waitFor } from '../cluster/wait.js';
import { type ManagerProcess, metricValue } from '../manager/manager-process.js';

const exits = new WeakMap<ManagerProcess, string>();

/** Why the replica exited ('code 1', 'signal SIGKILL'), or undefined while it runs. */
export function exitOf(m: ManagerProcess): string | undefined {
  if (!exits.has(m)) {
    exits.set(m, '');
    void m.exited.then(({ code, signal }) => exits.set(m, signal ? `signal ${signal}` : `code ${code}`));
  }
  return exits.get(m) || undefined;
}

function assertRunning(m: ManagerProcess, what: string): void {
  const exit = exitOf(m);
  if (exit) throw new Error(`${what} exited (${exit}): ${m.logs().slice(-5).join('\n')}`);
}

/** warmstart_leader of a running replica: 1 while it leads, 0 otherwise. */
export async function leaderGauge(m: ManagerProcess): Promise<number> {
  return metricValue(await m.metrics(), 'warmstart_leader');
}

/** Waits until the replica reports that it leads; returns Date.now() at that moment. */
export function waitLeading(m: ManagerProcess, timeoutMs: number, what = 'the replica'): Promise<number> {
  return waitFor(
    `${what} (pid ${m.pid}) to lead`,
    async () => {
      assertRunning(m, what);
      return (await leaderGauge(m).catch(() => 0)) === 1 ? Date.now() : undefined;
    },
    { timeoutMs, intervalMs: 50 },
  );
}

/** Waits until /readyz answers 200; returns Date.now() at that moment. */
export function waitReady(m: ManagerProcess, timeoutMs: number, what = 'the replica'): Promise<number> {
  return waitFor(
    `${what} (pid ${m.pid}) to be ready`,
    async () => {
      assertRunning(m, what);
      return (await m.readyz().catch(() => ({ status: 0 }))).status === 200 ? Date.now() : undefined;
    },
    { timeoutMs, intervalMs: 50 },
  );
}
