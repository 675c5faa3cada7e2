// Small helpers shared by the benches: timing, medians, and figures printed the same way everywhere.

/** Runs fn `runs` times (after `warmup` unmeasured runs) and returns each run's result. */
export async function repeat<T>(runs: number, warmup: number, fn: () => Promise<T>): Promise<T[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const results: T[] = [];
  for (let i = 0; i < runs; i++) {
    collectGarbage();
    results.push(await fn());
  }
  return results;
}

/** The value at quantile q (0..1) of the numbers, by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Milliseconds with two decimals. */
export function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

/** Microseconds with one decimal. */
export function us(valueMs: number): string {
  return `${(valueMs * 1000).toFixed(1)} µs`;
}

/** Nanoseconds, no decimals. */
export function ns(valueMs: number): string {
  return `${Math.round(valueMs * 1e6)} ns`;
}

// Runs between measurements when node was started with --expose-gc, so one run's garbage is not billed to the next.
function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
}
