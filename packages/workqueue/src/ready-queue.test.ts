import { describe, expect, it } from 'vitest';
import { BinaryHeap } from './binary-heap.js';
import { Fifo } from './fifo.js';
import { type QueueEntry, ReadyQueue } from './ready-queue.js';

function entry(key: string, priority: number): QueueEntry {
  return { key, priority, addedAt: 0, queued: false, startedAt: 0 };
}

/** A small deterministic PRNG so the randomised checks are reproducible. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('BinaryHeap', () => {
  it('pops in order for random input', () => {
    const rnd = random(1);
    const heap = new BinaryHeap<number>((a, b) => a < b);
    const values = Array.from({ length: 5000 }, () => Math.floor(rnd() * 1000));
    for (const v of values) heap.push(v);
    const out: number[] = [];
    for (let v = heap.pop(); v !== undefined; v = heap.pop()) out.push(v);
    expect(out).toEqual([...values].sort((a, b) => a - b));
    expect(heap.size).toBe(0);
  });
});

describe('Fifo', () => {
  it('keeps order across compactions', () => {
    const fifo = new Fifo<number>();
    const out: number[] = [];
    for (let i = 0; i < 10_000; i += 1) {
      fifo.push(i);
      if (i % 3 !== 0) out.push(fifo.shift()!);
    }
    for (let v = fifo.shift(); v !== undefined; v = fifo.shift()) out.push(v);
    expect(out).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    expect(fifo.size).toBe(0);
  });
});

describe('ReadyQueue', () => {
  it('orders by priority, then arrival, and skips removed entries', () => {
    const rnd = random(7);
    const q = new ReadyQueue();
    const pushed: QueueEntry[] = [];
    for (let i = 0; i < 3000; i += 1) {
      const e = entry(`k${i}`, [-100, 0, 5, 1.5][Math.floor(rnd() * 4)]!);
      q.push(e);
      pushed.push(e);
    }
    const removed = new Set(pushed.filter((_, i) => i % 7 === 0));
    for (const e of removed) q.remove(e);
    expect(q.size).toBe(3000 - removed.size);
    const expected = pushed
      .map((e, i) => ({ e, i }))
      .filter(({ e }) => !removed.has(e))
      .sort((a, b) => b.e.priority - a.e.priority || a.i - b.i)
      .map(({ e }) => e.key);
    const out: string[] = [];
    for (let e = q.pop(); e !== undefined; e = q.pop()) out.push(e.key);
    expect(out).toEqual(expected);
    expect(q.size).toBe(0);
  });
});
