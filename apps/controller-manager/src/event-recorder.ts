// Kubernetes Events for bad input (an invalid policy, a manifest that cannot be applied), recorded the way
// client-go's recorder correlates them, so a template that fails on every retry does not write an Event per retry:
// - an Event identical to one already written (same object, type, reason, message) is counted on that Event,
//   by a merge patch of `count` and `lastTimestamp`, instead of being written again;
// - each object gets a token bucket (25 Events, then one per 5 minutes): beyond it Events are dropped (the log
//   line is still written, so nothing is lost to whoever reads the logs).
// Events are written through the write-only client and never read back. A failure is logged, never thrown.
// (client-go also folds *similar* Events, same reason but different messages, into one; we do not.)
import type { EventSink, EventSubject, EventType } from '@warmstart/detector';
import { ApiError, type KubeObject } from '@warmstart/informer-cache';
import type { WriteClient } from '@warmstart/runtime';
import type { Logger } from './logger.js';

export const EVENTS = {
  group: '',
  version: 'v1',
  resource: 'events',
  namespaced: true,
  kind: 'Event',
} as const;

export interface EventRecorderOptions {
  readonly writer: Pick<WriteClient, 'create' | 'patch'>;
  /** `source.component` and `reportingComponent` of every Event (the controller's name). */
  readonly component: string;
  readonly log: Logger;
  /** Events per object before the spam filter drops any. Default 25 (client-go's). */
  readonly burst?: number | undefined;
  /** One more Event per object is allowed every this many ms. Default 300,000 (client-go's 1/300 qps). */
  readonly refillMs?: number | undefined;
  /** Objects and distinct Events remembered; the least recently used are forgotten. Default 4,096. */
  readonly maxEntries?: number | undefined;
  readonly now?: (() => number) | undefined;
}

interface Written {
  readonly name: string;
  readonly namespace: string;
  readonly firstTimestamp: string;
  count: number;
  /** The last write for this Event: the next one waits for it, so a repeat never races its create. */
  last: Promise<void>;
}

interface Bucket {
  tokens: number;
  at: number;
}

const MESSAGE_LIMIT = 1024;

/** Forgets the least recently used keys of a Map beyond `max`. */
function touch<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #burst: number;
  readonly #refillMs: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #written = new Map<string, Written>();
  readonly #buckets = new Map<string, Bucket>();
  #dropped = 0;

  constructor(options: EventRecorderOptions) {
    this.#o = options;
    this.#burst = options.burst ?? 25;
    this.#refillMs = options.refillMs ?? 300_000;
    this.#max = options.maxEntries ?? 4096;
    this.#now = options.now ?? Date.now;
  }

  /** Events the spam filter dropped so far. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The recorder as the detector's EventSink. */
  readonly sink: EventSink = (object, type, reason, message) => this.record(object, type, reason, message);

  /** Records an Event (or counts it on an identical one); returns when it was written or given up. */
  record(object: EventSubject, type: EventType, reason: string, message: string): Promise<void> {
    const meta = object.metadata;
    const shown = `${meta.namespace ? `${meta.namespace}/` : ''}${meta.name ?? ''}`;
    this.#o.log[type === 'Warning' ? 'warn' : 'info']({ object: shown, kind: object.kind, reason }, message);
    const objectKey = [object.apiVersion, object.kind, meta.namespace, meta.name, meta.uid].join('\u0000');
    if (!this.#take(objectKey)) {
      this.#dropped++;
      this.#o.log.debug({ object: shown, reason }, 'event dropped: too many events about this object');
      return Promise.resolve();
    }
    const text = message.slice(0, MESSAGE_LIMIT);
    const key = [objectKey, type, reason, text].join('\u0000');
    const now = new Date(this.#now()).toISOString();
    const seen = this.#written.get(key);
    if (seen !== undefined) {
      seen.count++;
      touch(this.#written, key, seen, this.#max);
      const count = seen.count;
      seen.last = seen.last.then(() => this.#count(seen, count, object, type, reason, text, now));
      return seen.last;
    }
    const written: Written = {
      name: `${meta.name ?? 'object'}.${unixNanosHex(this.#now())}`,
      namespace: meta.namespace ?? 'default',
      firstTimestamp: now,
      count: 1,
      last: Promise.resolve(),
    };
    touch(this.#written, key, written, this.#max);
    written.last = this.#create(written, 1, object, type, reason, text, now).then((ok) => {
      // A create that failed leaves nothing to count on: the next identical Event creates again.
      if (!ok && this.#written.get(key) === written) this.#written.delete(key);
    });
    return written.last;
  }

  #take(objectKey: string): boolean {
    const now = this.#now();
    const bucket = this.#buckets.get(objectKey) ?? { tokens: this.#burst, at: now };
    const refilled = Math.floor((now - bucket.at) / this.#refillMs);
    if (refilled > 0) {
      bucket.tokens = Math.min(this.#burst, bucket.tokens + refilled);
      bucket.at += refilled * this.#refillMs;
    }
    if (bucket.tokens === this.#burst) bucket.at = now;
    touch(this.#buckets, objectKey, bucket, this.#max);
    if (bucket.tokens < 1) return false;
    bucket.tokens--;
    return true;
  }

  async #count(
    w: Written,
    count: number,
    object: EventSubject,
    type: EventType,
    reason: string,
    message: string,
    now: string,
  ): Promise<void> {
    try {
      await this.#o.writer.patch(EVENTS, `${w.namespace}/${w.name}`, {
        type: 'merge',
        patch: { count, lastTimestamp: now },
      });
    } catch (error) {
      // The API server drops Events after its --event-ttl (1 h by default): write it again, with its count.
      if (error instanceof ApiError && error.isNotFound) {
        await this.#create(w, count, object, type, reason, message, now);
        return;
      }
      this.#failed(error, reason, object);
    }
  }

  async #create(
    w: Written,
    count: number,
    object: EventSubject,
    type: EventType,
    reason: string,
    message: string,
    now: string,
  ): Promise<boolean> {
    const meta = object.metadata;
    try {
      await this.#o.writer.create(EVENTS, {
        apiVersion: 'v1',
        kind: 'Event',
        // Named as client-go names them (<object>.<time in hex>), so an audit log ties an Event to its object.
        metadata: { name: w.name, namespace: w.namespace },
        involvedObject: {
          apiVersion: object.apiVersion,
          kind: object.kind,
          name: meta.name,
          namespace: meta.namespace,
          uid: meta.uid,
          resourceVersion: meta.resourceVersion,
        },
        type,
        reason,
        message,
        source: { component: this.#o.component },
        reportingComponent: this.#o.component,
        reportingInstance: this.#o.component,
        firstTimestamp: w.firstTimestamp,
        lastTimestamp: now,
        count,
      } as KubeObject);
      return true;
    } catch (error) {
      // Already there: a recreate after a 404 raced another, or the name came round again. It is recorded.
      if (error instanceof ApiError && error.isAlreadyExists) return true;
      this.#failed(error, reason, object);
      return false;
    }
  }

  #failed(error: unknown, reason: string, object: EventSubject): void {
    this.#o.log.warn(
      { err: error, reason, object: `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}` },
      'could not record event',
    );
  }
}

/** Wall-clock nanoseconds in hex; the sub-millisecond part comes from the monotonic clock, for uniqueness. */
function unixNanosHex(nowMs: number): string {
  return (BigInt(nowMs) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n)).toString(16);
}
