// A CacheMetrics implementation that records what the informers report (relists, watch restarts, syncs, reader
// waits), so a fault test can wait for "relisted because expired" instead of guessing from timing.
import type {
  CacheMetrics,
  InformerLabels,
  ReaderWaitOutcome,
  RelistReason,
  WatchRestartReason,
} from '@warmstart/informer-cache';
import { Recorder } from '@warmstart/informer-cache/testing';

export type MetricEvent =
  | {
      readonly type: 'relisted';
      readonly resource: string;
      readonly reason: RelistReason;
      readonly at: number;
    }
  | {
      readonly type: 'watchRestarted';
      readonly resource: string;
      readonly reason: WatchRestartReason;
      readonly at: number;
    }
  | {
      readonly type: 'listCompleted';
      readonly resource: string;
      readonly method: 'list' | 'watch-list';
      readonly objects: number;
      readonly at: number;
    }
  | { readonly type: 'synced'; readonly resource: string; readonly at: number }
  | {
      readonly type: 'readerWaited';
      readonly resource: string;
      readonly durationMs: number;
      readonly outcome: ReaderWaitOutcome;
      readonly at: number;
    };

export class MetricsLog implements CacheMetrics {
  readonly events = new Recorder<MetricEvent>();

  relisted = (l: InformerLabels, reason: RelistReason): void =>
    this.events.push({ type: 'relisted', resource: l.resource, reason, at: performance.now() });

  watchRestarted = (l: InformerLabels, reason: WatchRestartReason): void =>
    this.events.push({ type: 'watchRestarted', resource: l.resource, reason, at: performance.now() });

  listCompleted = (
    l: InformerLabels,
    method: 'list' | 'watch-list',
    _durationMs: number,
    objects: number,
  ): void =>
    this.events.push({ type: 'listCompleted', resource: l.resource, method, objects, at: performance.now() });

  synced = (l: InformerLabels, synced: boolean): void => {
    if (synced) this.events.push({ type: 'synced', resource: l.resource, at: performance.now() });
  };

  readerWaited = (l: InformerLabels, durationMs: number, outcome: ReaderWaitOutcome): void =>
    this.events.push({
      type: 'readerWaited',
      resource: l.resource,
      durationMs,
      outcome,
      at: performance.now(),
    });

  count(predicate: (e: MetricEvent) => boolean): number {
    return this.events.count(predicate);
  }

  /** The next event from now on matching the predicate; rejects after `timeoutMs`. */
  next(predicate: (e: MetricEvent) => boolean, timeoutMs: number, what: string): Promise<MetricEvent> {
    return this.events.next(predicate, timeoutMs, what);
  }

  /** The first event, past or future, matching the predicate; rejects after `timeoutMs`. */
  waitFor(predicate: (e: MetricEvent) => boolean, timeoutMs: number, what: string): Promise<MetricEvent> {
    return this.events.waitFor(predicate, timeoutMs, what);
  }
}
