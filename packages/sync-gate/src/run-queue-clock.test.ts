import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openRunQueueClock, parseRunQueueMs } from './run-queue-clock.js';

const bytes = (text: string) => {
  const b = Buffer.alloc(128);
  return { b, n: b.write(text, 'latin1') };
};

describe('parseRunQueueMs', () => {
  it('reads the second field, in ms', () => {
    const { b, n } = bytes('76813973 672466000 9\n');
    expect(parseRunQueueMs(b, n)).toBe(672.466);
  });

  it('stops at the length it is given, not at the end of the buffer', () => {
    const { b } = bytes('1 2345678 3\n');
    expect(parseRunQueueMs(b, 4)).toBe(0.000023);
  });

  it('is undefined for bytes not shaped like schedstat', () => {
    for (const text of ['', '123', '123 ', '123 x 4', 'garbage'])
      expect(parseRunQueueMs(bytes(text).b, bytes(text).n), JSON.stringify(text)).toBeUndefined();
  });
});

describe.runIf(existsSync('/proc/thread-self/schedstat'))('openRunQueueClock', () => {
  it('reads a run-queue delay that never goes back, and nothing after close', () => {
    const clock = openRunQueueClock();
    expect(clock).toBeDefined();
    if (clock === undefined) return;
    const first = clock.read();
    expect(first).toBeGreaterThanOrEqual(0);
    let previous = first as number;
    for (let i = 0; i < 100; i++) {
      const now = clock.read() as number;
      expect(now).toBeGreaterThanOrEqual(previous);
      previous = now;
    }
    clock.close();
    clock.close();
    expect(clock.read()).toBeUndefined();
  });

  // The point of the reader (issue #16): readFileSync here allocated ~18 KB of ArrayBuffers per read, which piled
  // up as external memory between rare scavenges and forced full GCs of a large heap.
  it('allocates no ArrayBuffers per read', () => {
    const clock = openRunQueueClock();
    if (clock === undefined) throw new Error('schedstat exists but could not be read');
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 5000; i++) clock.read();
    const grown = process.memoryUsage().arrayBuffers - before;
    clock.close();
    expect(grown).toBeLessThan(1024 * 1024);
  });
});
