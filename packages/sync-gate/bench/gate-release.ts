// What it costs to release 100k waiters on one gate: queueing the waits, the single open() pass, and the
// time until every waiter's promise has resolved. Three ways of waiting: bare, one shared AbortSignal plus a
// deadline (how the manager's reads wait), and a signal of its own per waiter.
import { Gate } from '@warmstart/sync-gate';
import { ms, ns, quantile, repeat } from './stats.ts';

const WAITERS = 100_000;
const RUNS = 7;

type Mode = 'bare' | 'shared signal + timeout' | 'own signal each';

interface Run {
  readonly enqueueMs: number;
  readonly openMs: number;
  readonly settledMs: number;
}

async function once(mode: Mode): Promise<Run> {
  const gate = new Gate('informer:host/apps/v1/deployments');
  const shared = new AbortController();
  const waits: Promise<void>[] = new Array(WAITERS);
  const t0 = performance.now();
  for (let i = 0; i < WAITERS; i++) {
    if (mode === 'bare') waits[i] = gate.wait();
    else if (mode === 'shared signal + timeout')
      waits[i] = gate.wait({ signal: shared.signal, timeoutMs: 60_000 });
    else waits[i] = gate.wait({ signal: new AbortController().signal });
  }
  const t1 = performance.now();
  gate.open();
  const t2 = performance.now();
  await Promise.all(waits);
  const t3 = performance.now();
  if (gate.waiters !== 0) throw new Error('waiters left after open()');
  return { enqueueMs: t1 - t0, openMs: t2 - t1, settledMs: t3 - t1 };
}

/** Runs the bench and prints one line per mode. */
export async function benchGateRelease(): Promise<void> {
  console.log(`release ${WAITERS.toLocaleString('en-US')} waiters on one gate (median of ${RUNS} runs)`);
  for (const mode of ['bare', 'shared signal + timeout', 'own signal each'] as const) {
    const runs = await repeat(RUNS, 2, () => once(mode));
    const enqueue = quantile(
      runs.map((r) => r.enqueueMs),
      0.5,
    );
    const open = quantile(
      runs.map((r) => r.openMs),
      0.5,
    );
    const settled = quantile(
      runs.map((r) => r.settledMs),
      0.5,
    );
    console.log(
      `  ${mode.padEnd(24)} wait() x100k ${ms(enqueue).padStart(10)}   open() ${ms(open).padStart(9)} ` +
        `(${ns(open / WAITERS)}/waiter)   open() + all resolved ${ms(settled).padStart(9)}`,
    );
  }
}
