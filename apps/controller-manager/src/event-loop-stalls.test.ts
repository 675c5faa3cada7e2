import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { recordEventLoopStalls } from './event-loop-stalls.js';

// Yields to the event loop until the condition holds, bounded by a deadline.
async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('recordEventLoopStalls', () => {
  it('logs a stall of 100 ms or more once, at info, with its split in whole ms', {
    timeout: 30_000,
  }, async () => {
    const records: Record<string, unknown>[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        records.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    const recorder = recordEventLoopStalls(pino({ level: 'info' }, out));
    try {
      // Asleep in the kernel for 150 ms: a stall of at least that, nearly all off CPU.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
      const stalled = () => records.filter((r) => r.msg === 'event loop stalled');
      await until(() => stalled().length > 0 && recorder.totals().over100Ms > 0, 20_000);
      const [line] = stalled();
      expect(line).toMatchObject({ level: 30 });
      expect(line?.gapMs).toBeGreaterThanOrEqual(150);
      expect(Number.isInteger(line?.gapMs) && Number.isInteger(line?.offCpuMs)).toBe(true);
      expect(Object.keys(line ?? {})).toEqual(
        expect.arrayContaining(['onCpuMs', 'gcMs', 'offCpuMs', 'majorFaults', 'endMonotonicUs']),
      );
      expect(stalled()).toHaveLength(recorder.totals().over100Ms);
    } finally {
      recorder.close();
    }
  });
});
