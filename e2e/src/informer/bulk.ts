// Runs many API calls with bounded concurrency, so a test can create thousands of objects in seconds without
// opening thousands of connections at once. A failure stops the run and rejects with it.

/** Calls `fn(i)` for i in [0, count) with at most `concurrency` calls in flight. */
export async function inParallel(
  count: number,
  concurrency: number,
  fn: (i: number) => Promise<unknown>,
  signal?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < count && !failed) {
      signal?.throwIfAborted();
      const i = next++;
      try {
        await fn(i);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
