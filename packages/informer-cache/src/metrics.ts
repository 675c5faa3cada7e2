// Metrics hooks: the package counts and times, the embedding application decides what a metric is (prom-client,
// OpenTelemetry, logs). Every method is optional; an unset method costs nothing.

/** Which informer a figure belongs to. `resource` is `group/version/resource` with `core` for the core group. */
export interface InformerLabels {
  readonly cluster: string;
  readonly resource: string;
}

/** Who made a request and what it was. `source` is `informer` or the name of a controller (the Writer's source). */
export interface RequestLabels {
  readonly cluster: string;
  readonly verb: string;
  readonly resource: string;
  readonly source: string;
  /** HTTP status code; 0 when no response arrived (network error, abort). */
  readonly code: number;
}

export type WatchRestartReason = 'timeout' | 'closed' | 'error' | 'watchdog' | 'expired';
export type RelistReason = 'initial' | 'expired' | 'error' | 'watchdog';
export type ReaderWaitOutcome = 'served' | 'timeout' | 'aborted' | 'failed';

export interface CacheMetrics {
  /** A (re)list finished: `objects` items in `durationMs`, by `method` (a paged LIST or a WatchList stream). */
  listCompleted?(
    labels: InformerLabels,
    method: 'list' | 'watch-list',
    durationMs: number,
    objects: number,
  ): void;
  /** A relist started, with why. */
  relisted?(labels: InformerLabels, reason: RelistReason): void;
  /** A watch ended and is being reopened. */
  watchRestarted?(labels: InformerLabels, reason: WatchRestartReason): void;
  /** The number of objects in the store changed. */
  objects?(labels: InformerLabels, count: number): void;
  /** The informer's synced state changed. */
  synced?(labels: InformerLabels, synced: boolean): void;
  /** A CacheReader call had to wait for the informer to sync. */
  readerWaited?(labels: InformerLabels, durationMs: number, outcome: ReaderWaitOutcome): void;
  /** A request to the API server finished (for a watch: when its stream ended). */
  requestCompleted?(labels: RequestLabels, durationMs: number): void;
  /** A request waited for the client-side rate limiter. */
  rateLimited?(labels: Omit<RequestLabels, 'code'>, waitedMs: number): void;
}

/** Minimal structured logger; pass an adapter to pino or console. */
export interface Logger {
  debug(message: string, fields?: Readonly<Record<string, unknown>>): void;
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
