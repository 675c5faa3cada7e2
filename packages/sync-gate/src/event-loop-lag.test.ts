import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventLoopLagMonitor } from './event-loop-lag.js';

afterEach(() => {
  vi.useRealTimers();
});

function blockFor(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // Busy wait: the point is to starve the event loop.
  }
}

// Yields to the event loop until the condition holds, bounded by a deadline.
async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('EventLoopLagMonitor', () => {
  it('sees a blocked event loop, and forgets it after two windows', async () => {
    const monitor = new EventLoopLagMonitor({ resolutionMs: 10, windowMs: 60_000 });
    try {
      // The histogram measures from its first sample on, so let it start before starving the loop.
      await until(() => monitor.samples >= 2, 5000);
      blockFor(250);
      await until(() => monitor.lagMs() >= 200, 5000);
      expect(monitor.lagMs()).toBeLessThan(5000);

      // Rotation is driven by the wall clock; move only Date so the histogram keeps sampling for real.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 60_000);
      expect(monitor.lagMs()).toBeGreaterThanOrEqual(200);
      vi.setSystemTime(Date.now() + 60_000);
      expect(monitor.lagMs()).toBeLessThan(200);
    } finally {
      monitor.close();
      monitor.close();
    }
  });
});
