// Throughput of the work queue at the size of a restart in front of 100k workloads.
// Run: pnpm --filter @warmstart/workqueue bench   (see README.md in this folder)
import { cpus } from 'node:os';
import { LOW_PRIORITY, runWorkers, WorkQueue } from '../src/index.js';
import { type QueueEntry, ReadyQueue } from '../src/ready-queue.js';
import { HeapReadyQueue } from './heap-ready-queue.js';

const N = 100_000;
const ROUNDS = 7;

/** Start-up mix: 70% initial-list items at LOW_PRIORITY, 25% changes at 0, 5% urgent at 10. */
function priorityOf(i: number): number {
  const r = (i * 2654435761) % 100;
  return r < 70 ? LOW_PRIORITY : r < 95 ? 0 : 10;
}

const keys = Array.from({ length: N }, (_, i) => `namespace-${i % 500}/deployment-${i}`);
const priorities = keys.map((_, i) => priorityOf(i));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function measure(label: string, run: () => Promise<void> | void): Promise<number> {
  await run(); // warm-up
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  const ms = median(times);
  console.log(`${label.padEnd(66)} ${ms.toFixed(1).padStart(8)} ms  ${fmt((N / ms) * 1000)} keys/s`);
  return ms;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US').padStart(12);
}

/** add all, re-add 10% (dedupe; half of them raised), then get + done each. */
async function addGetDone(): Promise<void> {
  const q = new WorkQueue({ name: 'bench' });
  for (let i = 0; i < N; i += 1) q.add(keys[i] as string, { priority: priorities[i] as number });
  for (let i = 0; i < N; i += 10) q.add(keys[i] as string, { priority: i % 20 === 0 ? 5 : LOW_PRIORITY });
  for (let i = 0; i < N; i += 1) {
    const key = (await q.get()) as string;
    q.done(key);
  }
  if (q.depth !== 0) throw new Error(`queue not empty: ${q.depth}`);
}

/** The same keys through runWorkers with a no-op reconcile: queue plus worker-loop overhead. */
async function workers(concurrency: number): Promise<void> {
  const q = new WorkQueue({ name: 'bench' });
  for (let i = 0; i < N; i += 1) q.add(keys[i] as string, { priority: priorities[i] as number });
  q.shutDown(); // workers drain the queued keys, then get() returns undefined and they return
  let n = 0;
  await runWorkers({
    queue: q,
    concurrency,
    signal: new AbortController().signal,
    onError: () => {},
    reconcile: async () => {
      n += 1;
    },
  });
  if (n !== N) throw new Error(`reconciled ${n} of ${N}`);
}

interface Ready {
  push(entry: QueueEntry): void;
  pop(): QueueEntry | undefined;
}

function readyStructure(make: () => Ready): () => void {
  return () => {
    const q = make();
    for (let i = 0; i < N; i += 1) {
      q.push({
        key: keys[i] as string,
        priority: priorities[i] as number,
        addedAt: 0,
        queued: false,
        startedAt: 0,
      });
    }
    let n = 0;
    while (q.pop() !== undefined) n += 1;
    if (n !== N) throw new Error(`popped ${n} of ${N}`);
  };
}

console.log(
  `node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'}, ${N.toLocaleString('en-US')} keys,`,
);
console.log(`priorities 70% LOW_PRIORITY / 25% 0 / 5% 10, median of ${ROUNDS} rounds after one warm-up\n`);
const ms = await measure('WorkQueue add + get + done, 10% re-added', addGetDone);
console.log(
  `${'  = queue calls (add, re-add, get, done) per second'.padEnd(66)} ${fmt(((N * 3.1) / ms) * 1000)}`,
);
await measure('runWorkers, concurrency 1, no-op reconcile', () => workers(1));
await measure('runWorkers, concurrency 16, no-op reconcile', () => workers(16));
console.log('\nready structure alone (push all, pop all):');
await measure(
  '  bucket per priority + FIFO (src/ready-queue.ts)',
  readyStructure(() => new ReadyQueue()),
);
await measure(
  '  one binary heap by (priority, seq) (bench/heap-ready-queue.ts)',
  readyStructure(() => new HeapReadyQueue()),
);
