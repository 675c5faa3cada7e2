// The Reflector: keeps one resource of one cluster mirrored as a stream of ReflectorEvents. Initial sync by WatchList
// (one streaming watch with initial events) or a paged LIST; then WATCH with bookmarks, resumed from the last
// resourceVersion. 410 Gone relists at once; other failures back off (client-go's figures); a watchdog restarts a
// watch that has been silent for longer than the bookmark interval.
import { yieldIfBusy } from '@warmstart/workqueue';
import { Backoff, type BackoffOptions } from './backoff.js';
import { type Clock, realClock } from './clock.js';
import { ApiError, DecodeError, ForbiddenResourceError, ResourceNotServedError } from './errors.js';
import type { ReflectorEvent } from './events.js';
import { apiVersionOf, collectionPath, gvrToString } from './gvr.js';
import { LineDecoder, ListDecoder, type ListMeta } from './list-decoder.js';
import { cutManagedFields } from './managed-fields-cut.js';
import type { CacheMetrics, InformerLabels, Logger, RelistReason, WatchRestartReason } from './metrics.js';
import { silentLogger } from './metrics.js';
import { StringInterner } from './string-interner.js';
import { defaultTransform, freezeDeep, type Transform } from './transform.js';
import { type ApiTransport, INFORMER_SOURCE } from './transport.js';
import type { GroupVersionResource, KubeObject, KubeStatus } from './types.js';

export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

export interface ReflectorOptions {
  readonly gvr: GroupVersionResource;
  readonly transport: ApiTransport;
  /** Mirror only this namespace; all namespaces when omitted. */
  readonly namespace?: string | undefined;
  /** Server-side label selector for LIST and WATCH. */
  readonly labelSelector?: string | undefined;
  /** Server-side field selector for LIST and WATCH. */
  readonly fieldSelector?: string | undefined;
  /** Runs on each object before it is stored; default drops managedFields and last-applied. */
  readonly transform?: Transform | undefined;
  /** Share repeated short strings between objects. Default true. */
  readonly internStrings?: boolean | undefined;
  /**
   * Initial sync by WatchList: `auto` tries it and falls back to a paged LIST when the server refuses (and stops
   * trying for this reflector when the refusal says the feature is off); `always` never lists; `never` always lists.
   */
  readonly watchList?: 'auto' | 'always' | 'never' | undefined;
  /** LIST page size. Default 500 (client-go's pager). */
  readonly pageSize?: number | undefined;
  /** Watch `timeoutSeconds` is drawn from [min, max). Default [300, 600), as client-go. */
  readonly minWatchTimeoutSeconds?: number | undefined;
  readonly maxWatchTimeoutSeconds?: number | undefined;
  /**
   * A watch with no bytes (no event, no bookmark) for this long is restarted from the last resourceVersion.
   * Servers send a bookmark about every minute; default 2 minutes. 0 disables the watchdog.
   */
  readonly watchdogMs?: number | undefined;
  /** No bytes for this long while a LIST body streams fails the list. Default 60 s. */
  readonly listIdleTimeoutMs?: number | undefined;
  readonly backoff?: BackoffOptions | undefined;
  readonly clock?: Clock | undefined;
  readonly random?: (() => number) | undefined;
  readonly logger?: Logger | undefined;
  readonly metrics?: CacheMetrics | undefined;
}

/** What the reflector tells its owner (the informer). */
export interface ReflectorObserver<T extends KubeObject> {
  /** Every event, in order. Must not throw. */
  onEvent(event: ReflectorEvent<T>): void;
  /** Objects received so far by a running (re)list. */
  onListProgress?(objects: number): void;
  /** A failure, typed (ForbiddenResourceError, ResourceNotServedError, ApiError, ...), and the retry delay. */
  onError?(error: Error, phase: 'list' | 'watch', retryInMs: number): void;
}

type WatchEnd = {
  readonly reason: 'closed' | 'watchdog';
  readonly events: number;
  readonly durationMs: number;
};

const WATCHDOG = Symbol('watchdog');

class ShortWatchError extends Error {
  constructor(resource: string) {
    super(`watch of ${resource} closed within a second without any event; backing off before reopening it`);
    this.name = 'ShortWatchError';
  }
}

class WatchListIncompleteError extends Error {
  constructor(resource: string, objects: number) {
    super(
      `WatchList of ${resource} ended after ${objects} objects without the initial-events-end bookmark; ` +
        'falling back to a paged LIST',
    );
    this.name = 'WatchListIncompleteError';
  }
}

interface Phase {
  current: 'list' | 'watch';
}

export class Reflector<T extends KubeObject = KubeObject> {
  readonly gvr: GroupVersionResource;
  readonly #o: ReflectorOptions;
  readonly #observer: ReflectorObserver<T>;
  readonly #transport: ApiTransport;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #backoff: Backoff;
  readonly #transform: Transform;
  /** The transform drops managedFields, so the text can lose them before parsing. */
  readonly #cutManagedFields: boolean;
  readonly #interner: StringInterner | undefined;
  readonly #logger: Logger;
  readonly #labels: InformerLabels;
  readonly #resource: string;
  readonly #path: string;
  readonly #apiVersion: string;
  #lastRv = '';
  #rvUnavailable = false;
  /** 410s in a row with no event received in between; a second one backs off (a server stuck answering 410). */
  #expiredStreak = 0;
  #watchListSupported: boolean;
  #running = false;

  constructor(options: ReflectorOptions, observer: ReflectorObserver<T>) {
    this.gvr = options.gvr;
    this.#o = options;
    this.#observer = observer;
    this.#transport = options.transport;
    this.#clock = options.clock ?? realClock;
    this.#random = options.random ?? Math.random;
    this.#backoff = new Backoff(options.backoff, this.#clock, this.#random);
    this.#transform = options.transform ?? defaultTransform;
    this.#cutManagedFields = this.#transform === defaultTransform;
    this.#interner = options.internStrings === false ? undefined : new StringInterner();
    this.#logger = options.logger ?? silentLogger;
    this.#resource = gvrToString(options.gvr);
    this.#labels = { cluster: this.#transport.cluster, resource: this.#resource };
    this.#path = collectionPath(options.gvr, options.namespace);
    this.#apiVersion = apiVersionOf(options.gvr);
    this.#watchListSupported = (options.watchList ?? 'auto') !== 'never';
  }

  /** The resourceVersion the next watch resumes from. */
  get lastSyncResourceVersion(): string {
    return this.#lastRv;
  }

  /** Lists and watches until the signal aborts. Never rejects for API errors: it retries them. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#running) throw new Error(`reflector for ${this.#resource} is already running`);
    this.#running = true;
    let needList = true;
    let reason: RelistReason = 'initial';
    const phase: Phase = { current: 'list' };
    try {
      while (!signal.aborted) {
        try {
          if (needList) {
            phase.current = 'list';
            this.#o.metrics?.relisted?.(this.#labels, reason);
            await this.#sync(signal, phase);
            needList = false;
          }
          phase.current = 'watch';
          await this.#watchLoop(signal);
        } catch (error) {
          if (signal.aborted) return;
          // A WatchList that synced and then failed needs no relist, only a new watch.
          if (phase.current === 'watch') needList = false;
          if (error instanceof ApiError && error.isExpired) {
            // The resourceVersion we hold is gone from the server's history: relist at once, no backoff.
            this.#logger.info('resourceVersion expired; relisting', {
              resource: this.#resource,
              phase: phase.current,
            });
            if (phase.current === 'list') this.#rvUnavailable = true;
            needList = true;
            reason = 'expired';
            if (this.#expiredStreak++ === 0) continue;
            // Relisting at once again would loop as fast as the server answers: fall through to the backoff.
          }
          const typed = this.#classify(error, phase.current);
          const delay = this.#backoff.next();
          this.#logger.warn(`${phase.current} failed; retrying`, {
            resource: this.#resource,
            cluster: this.#labels.cluster,
            error: typed.message,
            retryInMs: Math.round(delay),
          });
          this.#observer.onError?.(typed, phase.current, delay);
          if (phase.current === 'list') reason = 'error';
          try {
            await this.#clock.sleep(delay, signal);
          } catch {
            return;
          }
        }
      }
    } finally {
      this.#running = false;
    }
  }

  #classify(error: unknown, phase: 'list' | 'watch'): Error {
    if (error instanceof ApiError && phase === 'list') {
      const message = error.status?.message ?? error.message;
      if (error.isForbidden)
        return new ForbiddenResourceError(this.gvr, this.#labels.cluster, error.code, message);
      if (error.code === 404) return new ResourceNotServedError(this.gvr, this.#labels.cluster, message);
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  /** The RV of the next (re)list: 0 first (watch cache), the last one after a watch 410, '' if that expired too. */
  #relistRv(): string {
    if (this.#rvUnavailable) return '';
    return this.#lastRv === '' ? '0' : this.#lastRv;
  }

  async #sync(signal: AbortSignal, phase: Phase): Promise<void> {
    if (this.#watchListSupported) {
      try {
        // A WatchList that completes keeps its connection as the first live watch.
        const end = await this.#watch(signal, phase);
        this.#restarted(end);
        return;
      } catch (error) {
        if (signal.aborted || phase.current === 'watch') throw error;
        if (error instanceof ApiError && error.isExpired) throw error;
        if (this.#o.watchList === 'always') throw error;
        if (isWatchListRefusal(error)) {
          this.#watchListSupported = false;
          this.#logger.info('server does not support WatchList; using paged LIST', {
            resource: this.#resource,
          });
        } else {
          this.#logger.debug('WatchList failed; falling back to paged LIST', {
            resource: this.#resource,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
    await this.#list(signal);
  }

  async #list(signal: AbortSignal): Promise<void> {
    const started = this.#clock.now();
    const rv = this.#relistRv();
    // An RV=N relist is unpaged so the watch cache serves it (client-go avoids "a thundering herd on etcd").
    const pageSize = rv === '0' || rv === '' ? (this.#o.pageSize ?? 500) : undefined;
    let token: string | undefined;
    let full = false;
    let count = 0;
    let meta: ListMeta = {};
    this.#observer.onEvent({ type: 'init' });
    for (;;) {
      try {
        meta = await this.#listPage(signal, {
          limit: full ? undefined : pageSize,
          continue: token,
          // The server accepts resourceVersion=0 beside a continue token; sending it keeps every informer LIST
          // recognisable (a LIST without resourceVersion is a direct read in our audits).
          resourceVersion: token === undefined ? rv : '0',
          onObject: () => {
            count++;
            if (count % 500 === 0) this.#observer.onListProgress?.(count);
          },
        });
      } catch (error) {
        if (token !== undefined && error instanceof ApiError && error.isExpired) {
          // The continue token expired mid-list: restart as one unpaged list at the requested RV (client-go's pager).
          this.#logger.info('continue token expired; listing in full', { resource: this.#resource });
          token = undefined;
          full = true;
          count = 0;
          this.#observer.onEvent({ type: 'init' });
          continue;
        }
        throw error;
      }
      token = meta.continue === undefined || meta.continue === '' ? undefined : meta.continue;
      if (token === undefined) break;
      // Every page is progress, whatever its size: a read's stall deadline counts from the last one.
      if (count % 500 !== 0) this.#observer.onListProgress?.(count);
    }
    const listRv = meta.resourceVersion ?? '';
    this.#observer.onListProgress?.(count);
    this.#observer.onEvent({ type: 'init-done', resourceVersion: listRv });
    this.#lastRv = listRv;
    this.#rvUnavailable = false;
    this.#o.metrics?.listCompleted?.(this.#labels, 'list', this.#clock.now() - started, count);
  }

  async #listPage(
    signal: AbortSignal,
    page: {
      limit: number | undefined;
      continue: string | undefined;
      resourceVersion: string;
      onObject: () => void;
    },
  ): Promise<ListMeta> {
    const { body } = await this.#transport.stream({
      method: 'GET',
      verb: 'list',
      path: this.#path,
      query: {
        labelSelector: this.#o.labelSelector,
        fieldSelector: this.#o.fieldSelector,
        limit: page.limit,
        continue: page.continue,
        resourceVersion: page.resourceVersion,
      },
      source: INFORMER_SOURCE,
      resource: this.#resource,
      signal,
      timeoutMs: this.#o.listIdleTimeoutMs ?? 60_000,
    });
    const decoder = new ListDecoder((json) => {
      const text = this.#cutManagedFields ? cutManagedFields(json, 'object') : json;
      const object = this.#prepare(JSON.parse(text) as KubeObject);
      this.#observer.onEvent({ type: 'init-apply', object });
      page.onObject();
    });
    try {
      for await (const chunk of body) {
        decoder.write(chunk as Buffer);
        await yieldIfBusy();
      }
    } finally {
      body.destroy();
    }
    return decoder.end();
  }

  async #watchLoop(signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      const end = await this.#watch(signal, undefined);
      this.#restarted(end);
    }
  }

  #restarted(end: WatchEnd): void {
    const reason: WatchRestartReason = end.reason === 'watchdog' ? 'watchdog' : 'timeout';
    if (end.reason === 'watchdog') {
      this.#logger.warn('watch silent past the watchdog interval; restarting it', {
        resource: this.#resource,
        cluster: this.#labels.cluster,
        watchdogMs: this.#o.watchdogMs ?? 120_000,
      });
    } else if (end.events === 0 && end.durationMs < 1000) {
      throw new ShortWatchError(this.#resource);
    }
    this.#o.metrics?.watchRestarted?.(this.#labels, reason);
  }

  /**
   * One watch connection, until it closes (normally, by the watchdog, or with an error, which is thrown). With a
   * `listPhase`, it is a WatchList: initial events fill a relist until the initial-events-end bookmark, at which
   * point the phase becomes `watch` and the same connection carries on as a live watch.
   */
  async #watch(signal: AbortSignal, listPhase: Phase | undefined): Promise<WatchEnd> {
    const initial = listPhase !== undefined;
    const min = this.#o.minWatchTimeoutSeconds ?? 300;
    const max = this.#o.maxWatchTimeoutSeconds ?? 600;
    const timeoutSeconds = Math.floor(min + this.#random() * (max - min));
    const local = new AbortController();
    const forward = (): void => local.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    const started = this.#clock.now();
    let lastActivity = started;
    let events = 0;
    let listed = 0;
    let initialDone = !initial;
    const watchdogMs = this.#o.watchdogMs ?? 120_000;
    let timer: NodeJS.Timeout | undefined;
    const check = (): void => {
      const silent = this.#clock.now() - lastActivity;
      if (silent >= watchdogMs) local.abort(WATCHDOG);
      else timer = setTimeout(check, watchdogMs - silent);
    };
    // Armed before the request, so a server that accepts the connection and never answers is caught too.
    if (watchdogMs > 0) timer = setTimeout(check, watchdogMs);
    try {
      const { body } = await this.#transport.stream({
        method: 'GET',
        verb: 'watch',
        path: this.#path,
        query: initial
          ? {
              labelSelector: this.#o.labelSelector,
              fieldSelector: this.#o.fieldSelector,
              watch: true,
              sendInitialEvents: true,
              resourceVersionMatch: 'NotOlderThan',
              allowWatchBookmarks: true,
              resourceVersion: this.#rvUnavailable ? '' : this.#lastRv,
              timeoutSeconds,
            }
          : {
              labelSelector: this.#o.labelSelector,
              fieldSelector: this.#o.fieldSelector,
              watch: true,
              allowWatchBookmarks: true,
              resourceVersion: this.#lastRv,
              timeoutSeconds,
            },
        source: INFORMER_SOURCE,
        resource: this.#resource,
        signal: local.signal,
      });
      lastActivity = this.#clock.now();
      if (initial) this.#observer.onEvent({ type: 'init' });
      const decoder = new LineDecoder((line) => {
        const text = this.#cutManagedFields ? cutManagedFields(line, 'watch-event') : line;
        const event = JSON.parse(text) as { type?: string; object?: KubeObject | KubeStatus };
        if (event.type !== 'ERROR') this.#expiredStreak = 0;
        switch (event.type) {
          case 'ADDED':
          case 'MODIFIED':
          case 'DELETED': {
            const object = this.#prepare(event.object as KubeObject);
            events++;
            if (!initialDone) {
              if (event.type !== 'ADDED')
                throw new DecodeError(`${event.type} event before the initial-events-end bookmark`);
              listed++;
              this.#observer.onEvent({ type: 'init-apply', object });
              if (listed % 500 === 0) this.#observer.onListProgress?.(listed);
              return;
            }
            this.#observer.onEvent(
              event.type === 'DELETED' ? { type: 'delete', object } : { type: 'apply', object },
            );
            this.#lastRv = object.metadata.resourceVersion ?? this.#lastRv;
            return;
          }
          case 'BOOKMARK': {
            const meta = (event.object as KubeObject | undefined)?.metadata;
            const rv = meta?.resourceVersion ?? '';
            if (!initialDone && meta?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true') {
              initialDone = true;
              if (listPhase !== undefined) listPhase.current = 'watch';
              this.#observer.onListProgress?.(listed);
              this.#observer.onEvent({ type: 'init-done', resourceVersion: rv });
              this.#rvUnavailable = false;
              this.#o.metrics?.listCompleted?.(
                this.#labels,
                'watch-list',
                this.#clock.now() - started,
                listed,
              );
            }
            if (rv !== '' && initialDone) this.#lastRv = rv;
            return;
          }
          case 'ERROR': {
            const status = event.object as KubeStatus | undefined;
            throw new ApiError(status?.code ?? 500, 'WATCH', this.#path, status);
          }
          default:
            throw new DecodeError(`unknown watch event type "${String(event.type)}"`);
        }
      });
      try {
        for await (const chunk of body) {
          lastActivity = this.#clock.now();
          decoder.write(chunk as Buffer);
          // The response's chunks already buffered are handed out in one chain of microtasks: a list of 10,000
          // objects decoded in one turn held the loop ~70 ms at a time on CPU (issue #16). After each network chunk
          // the decoder takes a turn when the process's slice is used, and the socket backs off meanwhile.
          await yieldIfBusy();
        }
      } finally {
        body.destroy();
      }
      if (!initialDone) throw new WatchListIncompleteError(this.#resource, listed);
      return { reason: 'closed', events, durationMs: this.#clock.now() - started };
    } catch (error) {
      if (local.signal.reason === WATCHDOG && !signal.aborted) {
        if (!initialDone)
          throw new DecodeError(`WatchList of ${this.#resource} went silent for ${watchdogMs} ms`);
        return { reason: 'watchdog', events, durationMs: this.#clock.now() - started };
      }
      throw error;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', forward);
    }
  }

  /** Fills the type (list items lack it), transforms, interns and freezes one decoded object. */
  #prepare(raw: KubeObject): T {
    if (raw.kind === undefined && this.gvr.kind !== undefined) {
      const typed = raw as { apiVersion?: string; kind?: string };
      typed.apiVersion = this.#apiVersion;
      typed.kind = this.gvr.kind;
    }
    return freezeDeep(this.#transform(raw), this.#interner) as T;
  }
}

/** True when the server says WatchList itself is off or unknown, rather than that this one request failed. */
function isWatchListRefusal(error: unknown): boolean {
  if (error instanceof WatchListIncompleteError) return true;
  if (!(error instanceof ApiError)) return false;
  if (error.code === 422 || error.code === 400) return true;
  return /sendInitialEvents|resourceVersionMatch/i.test(error.status?.message ?? '');
}
