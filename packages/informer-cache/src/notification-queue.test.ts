import { nextTurn, runWorkers, WorkQueue } from '@warmstart/workqueue';
import { turnMeter } from '@warmstart/workqueue/testing';
import { describe, expect, it } from 'vitest';
import { NOTIFY_SLICE_MS, NotificationQueue } from './notification-queue.js';

/** Holds the CPU for `ms`, as a handler with real work would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

function drained(q: NotificationQueue, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (q.pending === 0) resolve();
      else if (Date.now() > deadline) reject(new Error(`${q.pending} notifications still pending`));
      else setImmediate(check);
    };
    check();
  });
}

describe('NotificationQueue', () => {
  it('delivers a notification before push returns when nothing is queued ahead of it', () => {
    const q = new NotificationQueue(() => undefined);
    const seen: number[] = [];
    q.push(() => seen.push(1));
    expect(seen).toEqual([1]);
    expect(q.pending).toBe(0);
  });

  it('gives the event loop a turn during a long burst and still delivers everything in order', async () => {
    const q = new NotificationQueue(() => undefined);
    const seen: number[] = [];
    let deliveredWhenLoopRan = -1;
    setImmediate(() => {
      deliveredWhenLoopRan = seen.length;
    });
    const total = 2_000;
    // ~0.05 ms each: 100 ms in all, twenty slices' worth.
    for (let i = 0; i < total; i++)
      q.push(() => {
        busy(0.05);
        seen.push(i);
      });
    // The first slice ran inside the pushes; the rest waits for later turns.
    expect(seen.length).toBeLessThan(total);
    await drained(q);
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(deliveredWhenLoopRan).toBeGreaterThan(0);
    expect(deliveredWhenLoopRan).toBeLessThan(total);
  });

  it('holds a slice to about NOTIFY_SLICE_MS', async () => {
    // The slice is the process's, and the test before this one may have started it in the current turn; begin
    // on a turn of our own, so that its tail is not counted with our first slice.
    await nextTurn();
    const q = new NotificationQueue(() => undefined);
    // Counted per turn rather than timed: a busy machine can deschedule the test for longer than a slice, which
    // would stretch any wall-clock measure, but only ever makes a slice deliver fewer notifications.
    let delivered = 0;
    const perTurn: number[] = [];
    let atLastTurn = 0;
    let done = false;
    const turn = (): void => {
      perTurn.push(delivered - atLastTurn);
      atLastTurn = delivered;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    // Pushed from one synchronous loop, as a relist does: the loop itself is part of what must be sliced.
    const each = 0.02;
    for (let i = 0; i < 5_000; i++)
      q.push(() => {
        busy(each);
        delivered++;
      });
    await drained(q);
    done = true;
    // A slice reads the clock every 64 notifications, so it may overrun by up to 64 of them.
    const mostInASlice = Math.ceil(NOTIFY_SLICE_MS / each) + 64;
    expect(delivered).toBe(5_000);
    expect(perTurn.length).toBeGreaterThan(5_000 / mostInASlice);
    // Without slicing one turn would deliver all 5,000 (100 ms).
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(mostInASlice);
  });

  it('keeps delivering after a notification throws, and reports it', () => {
    const errors: unknown[] = [];
    const q = new NotificationQueue((e) => errors.push(e));
    const seen: string[] = [];
    q.push(() => {
      throw new Error('handler bug');
    });
    q.push(() => seen.push('after'));
    expect(seen).toEqual(['after']);
    expect(errors).toHaveLength(1);
  });

  it('drops what is queued when closed, and ignores later pushes', async () => {
    const q = new NotificationQueue(() => undefined);
    let delivered = 0;
    for (let i = 0; i < 2_000; i++)
      q.push(() => {
        busy(0.05);
        delivered++;
      });
    const before = delivered;
    expect(before).toBeLessThan(2_000);
    q.close();
    q.push(() => delivered++);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(delivered).toBe(before);
    expect(q.pending).toBe(0);
  });

  describe('pushEach', () => {
    it('delivers a batch in order, between what was pushed before and after it', async () => {
      const q = new NotificationQueue(() => undefined);
      const seen: string[] = [];
      const total = 2_000;
      q.push(() => {
        busy(NOTIFY_SLICE_MS + 1);
        seen.push('before');
      });
      q.pushEach(total, (i) => {
        busy(0.02);
        seen.push(`b${i}`);
      });
      q.push(() => seen.push('after'));
      expect(q.pending).toBeGreaterThan(0);
      await drained(q);
      expect(seen).toEqual(['before', ...Array.from({ length: total }, (_, i) => `b${i}`), 'after']);
    });

    it('counts every undelivered item as pending, and gives the event loop turns inside one batch', async () => {
      await nextTurn();
      const q = new NotificationQueue(() => undefined);
      // Notifications delivered per turn, counted rather than timed (see 'holds a slice to about NOTIFY_SLICE_MS').
      const meter = turnMeter();
      let delivered = 0;
      const each = 0.02;
      q.pushEach(5_000, () => {
        busy(each);
        meter.record(1);
        delivered++;
      });
      expect(q.pending).toBe(5_000 - delivered);
      await drained(q);
      meter.stop();
      const mostInASlice = Math.ceil(NOTIFY_SLICE_MS / each) + 64;
      expect(delivered).toBe(5_000);
      expect(meter.perTurn.length).toBeGreaterThan(5_000 / mostInASlice);
      expect(Math.max(...meter.perTurn)).toBeLessThanOrEqual(mostInASlice);
    });

    it('keeps delivering the batch after an item throws, and stops it when closed from inside', async () => {
      const errors: unknown[] = [];
      const q = new NotificationQueue((e) => errors.push(e));
      const seen: number[] = [];
      q.pushEach(5, (i) => {
        if (i === 1) throw new Error('handler bug');
        seen.push(i);
        if (i === 3) q.close();
      });
      q.push(() => seen.push(99));
      await new Promise((r) => setImmediate(r));
      expect(seen).toEqual([0, 2, 3]);
      expect(errors).toHaveLength(1);
      expect(q.pending).toBe(0);
    });

    it('ignores an empty batch', () => {
      const q = new NotificationQueue(() => undefined);
      const seen: number[] = [];
      q.pushEach(0, () => seen.push(0));
      q.push(() => seen.push(1));
      expect(seen).toEqual([1]);
      expect(q.pending).toBe(0);
    });
  });
});

// CPU-bound by design: on a machine busy with other work (CI runs unit and integration suites together) these
// take many times their idle 0.5-1 s; their assertions count work per turn, not wall time.
describe('NotificationQueue beside other queues and worker pools', { timeout: 60_000 }, () => {
  it('shares one slice per turn with them', async () => {
    await nextTurn();
    const meter = turnMeter();
    const controller = new AbortController();
    const pools = 20;
    const reconcileMs = 0.25;
    let keysLeft = pools * 50;
    const running: Promise<void>[] = [];
    for (let p = 0; p < pools; p++) {
      const queue = new WorkQueue({ name: `pool-${p}` });
      for (let i = 0; i < 50; i++) queue.add(`k${i}`);
      running.push(
        runWorkers({
          queue,
          concurrency: 1,
          signal: controller.signal,
          onError: () => undefined,
          reconcile: async () => {
            busy(reconcileMs);
            meter.record(reconcileMs);
            if (--keysLeft === 0) controller.abort();
          },
        }),
      );
    }
    // Five informers relisting at once: 2,000 notifications of 0.02 ms each, 40 ms apiece.
    const notifyMs = 0.02;
    const queues = Array.from({ length: 5 }, () => new NotificationQueue(() => undefined));
    let delivered = 0;
    for (const q of queues)
      for (let i = 0; i < 2_000; i++)
        q.push(() => {
          busy(notifyMs);
          meter.record(notifyMs);
          delivered++;
        });
    await Promise.all([...running, ...queues.map((q) => drained(q))]);
    meter.stop();
    expect(delivered).toBe(10_000);
    expect(keysLeft).toBe(0);
    // A turn holds the slice, plus what runs before its holders next look at the clock: up to 64 notifications
    // (once one queue has seen the slice used up, the others stop at once) and one reconcile a worker woken
    // into the turn. A slice per party held one turn for 25 × 5 ms.
    const bound = NOTIFY_SLICE_MS + 64 * notifyMs + pools * reconcileMs + 2 * reconcileMs;
    expect(Math.max(...meter.perTurn)).toBeLessThanOrEqual(bound);
  });

  it('lets a worker pool progress while a queue has a long backlog', async () => {
    const controller = new AbortController();
    const queue = new WorkQueue({ name: 'beside-a-relist' });
    for (let i = 0; i < 1_000; i++) queue.add(`k${i}`);
    let reconciled = 0;
    const workers = runWorkers({
      queue,
      concurrency: 1,
      signal: controller.signal,
      onError: () => undefined,
      reconcile: async () => {
        busy(0.25);
        reconciled++;
      },
    });
    // 5,000 notifications of 0.05 ms: 250 ms, fifty slices' worth.
    const q = new NotificationQueue(() => undefined);
    let delivered = 0;
    let reconciledAtHalf: number | undefined;
    for (let i = 0; i < 5_000; i++)
      q.push(() => {
        busy(0.05);
        if (++delivered === 2_500) reconciledAtHalf = reconciled;
      });
    await drained(q);
    controller.abort();
    await workers;
    // Half the backlog is 125 ms, twenty-five turns or more; the worker should have worked in most of them.
    expect(reconciledAtHalf).toBeDefined();
    expect(reconciledAtHalf!).toBeGreaterThanOrEqual(10);
  });
});
