// One row of the informer benchmark, as the child prints it and --json writes it.

export const IMPLS = ['raw-list', 'warmstart-watchlist', 'warmstart-list', 'client-node'] as const;
/** Measured only with --diagnostics, printed and never written to --json. */
export const DIAGNOSTIC_IMPLS = ['raw-watchlist'] as const;
export type Impl = (typeof IMPLS)[number] | (typeof DIAGNOSTIC_IMPLS)[number];

export interface BenchRow {
  readonly impl: Impl;
  readonly objects: number;
  /** From the first request to the cache being synced (for the raw floors: the last object parsed). */
  readonly syncMs: number;
  /** Heap used after sync minus before, after forced full GCs, divided by objects. */
  readonly heapBytesPerObject: number;
  /** Resident set size of the child process after sync (after the same GCs). */
  readonly rssBytes: number;
}

/** What a child reports: a row plus the client's own CPU time, printed to tell client cost from server and noise. */
export interface ChildResult extends BenchRow {
  /** User + system CPU time of the child process during the sync. */
  readonly cpuMs: number;
}

/** The row alone, as written to --json. */
export function toRow(r: ChildResult): BenchRow {
  return {
    impl: r.impl,
    objects: r.objects,
    syncMs: r.syncMs,
    heapBytesPerObject: r.heapBytesPerObject,
    rssBytes: r.rssBytes,
  };
}
