// An in-process fake kube-apiserver on 127.0.0.1 (node:http) for unit tests of informers, readers and writers.
// It implements what the informer relies on — paged LIST with continue tokens, resourceVersion semantics, WATCH
// as newline-delimited JSON with bookmarks, WatchList initial events, 410 after compaction — plus CRUD with the
// four patch types, and lets a test inject faults, forbid resources, stall or close watches, and inspect requests.
import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import type { ClusterEndpoint } from '../endpoint.js';
import { apiVersionOf, gvrToString, keyOf } from '../gvr.js';
import { parseSelector } from '../label-selector.js';
import type { GroupVersionResource, KubeObject, KubeStatus } from '../types.js';
import { type Json, type JsonPatchOperation, jsonPatch, mergePatch } from './patch.js';

export { INITIAL_EVENTS_END_ANNOTATION } from '../reflector.js';

import { INITIAL_EVENTS_END_ANNOTATION } from '../reflector.js';

export interface FakeApiServerOptions {
  /** Serve `sendInitialEvents=true` watches (the WatchList feature gate). Default true. */
  readonly watchList?: boolean;
  /**
   * A LIST with resourceVersion=0 is served whole from the "watch cache", ignoring `limit`, as kube-apiserver
   * does. Set false to page it like etcd. Default true.
   */
  readonly watchCache?: boolean;
  /** List items carry apiVersion and kind (CRDs do, built-in types do not). Default false. */
  readonly listItemsHaveTypeMeta?: boolean;
  /** Objects written to the body per chunk, so clients see many chunks. Default 1. */
  readonly objectsPerChunk?: number;
}

export interface RecordedRequest {
  readonly method: string;
  readonly verb: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  /** `group/version/resource` (core for the core group), or '' for non-resource paths. */
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
}

export interface FaultMatcher {
  readonly verb?: string;
  readonly resource?: string;
  readonly match?: (request: RecordedRequest) => boolean;
}

export interface Fault {
  readonly code: number;
  readonly reason?: string;
  readonly message?: string;
  /** How many matching requests fail; default 1. Infinity until cleared. */
  readonly times?: number;
}

interface ResourceState {
  readonly gvr: GroupVersionResource;
  readonly objects: Map<string, KubeObject>;
  readonly history: { rv: number; type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KubeObject }[];
}

interface Watcher {
  readonly state: ResourceState;
  readonly res: ServerResponse;
  readonly bookmarks: boolean;
  readonly namespace: string | undefined;
  stalled: boolean;
  timer: NodeJS.Timeout | undefined;
  /** While a large set of initial events is written: the live events that came meanwhile, sent after it. */
  backlog: string[] | undefined;
  /** The watch was ended while its initial events were written: end it once they and the backlog are sent. */
  endAfterBacklog: boolean;
}

/**
 * Up to this many initial events are written in one pass; more are written in slices that wait for the socket to
 * drain and let the event loop run, so a WatchList of 150,000 large objects streams instead of queuing a gigabyte
 * in one turn (which broke the connection).
 */
const SYNC_INITIAL_EVENTS = 1_000;
const INITIAL_EVENTS_PER_SLICE = 256;

interface PathInfo {
  readonly state: ResourceState | undefined;
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly subresource: string | undefined;
}

export const FAKE_TOKEN = 'fake-token';

/** An object as a test writes it: the server fills uid, resourceVersion and the rest. */
export interface FakeObjectInput {
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly [field: string]: unknown;
  };
  readonly [field: string]: unknown;
}

export class FakeApiServer {
  readonly requests: RecordedRequest[] = [];
  readonly options: Required<FakeApiServerOptions>;
  #server: http.Server;
  #url = '';
  #rv = 100;
  #compactedRv = 0;
  #uid = 0;
  readonly #resources = new Map<string, ResourceState>();
  readonly #watchers = new Set<Watcher>();
  readonly #faults: { matcher: FaultMatcher; fault: Fault; left: number }[] = [];
  readonly #delays: { matcher: FaultMatcher; ms: number }[] = [];
  readonly #forbidden = new Set<string>();
  readonly #events = new EventEmitter();

  static async start(options: FakeApiServerOptions = {}): Promise<FakeApiServer> {
    const server = new FakeApiServer(options);
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    const address = server.#server.address() as AddressInfo;
    server.#url = `http://127.0.0.1:${address.port}`;
    return server;
  }

  private constructor(options: FakeApiServerOptions) {
    this.options = {
      watchList: options.watchList ?? true,
      watchCache: options.watchCache ?? true,
      listItemsHaveTypeMeta: options.listItemsHaveTypeMeta ?? false,
      objectsPerChunk: options.objectsPerChunk ?? 1,
    };
    this.#events.setMaxListeners(0);
    this.#server = http.createServer((req, res) => {
      void this.#handle(req, res);
    });
    this.#server.keepAliveTimeout = 60_000;
  }

  get url(): string {
    return this.#url;
  }

  /** The current resourceVersion (the last write's). */
  get resourceVersion(): string {
    return String(this.#rv);
  }

  /** A ClusterEndpoint pointing at this server with a static bearer token. */
  endpoint(name = 'fake'): ClusterEndpoint {
    return {
      server: this.#url,
      name,
      tls: {},
      headers: async () => ({ Authorization: `Bearer ${FAKE_TOKEN}` }),
    };
  }

  /** A kubeconfig document for this server (load it with client-node's KubeConfig.loadFromString). */
  kubeConfigYaml(name = 'fake'): string {
    return JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name, cluster: { server: this.#url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'tester', user: { token: FAKE_TOKEN } }],
      contexts: [{ name, context: { cluster: name, user: 'tester' } }],
      'current-context': name,
    });
  }

  /** Serves a resource (empty). Resources must be added before clients use them; others answer 404. */
  addResource(gvr: GroupVersionResource): void {
    const id = gvrToString(gvr);
    if (!this.#resources.has(id)) this.#resources.set(id, { gvr, objects: new Map(), history: [] });
  }

  // ---- state, as if another client wrote it -----------------------------------------------------------------

  /** Creates an object (assigning uid, resourceVersion, creationTimestamp) and notifies watches. */
  create(gvr: GroupVersionResource, object: FakeObjectInput): KubeObject {
    const state = this.#state(gvr);
    const stored = this.#stamp(state, object as KubeObject, undefined);
    const key = keyOf(stored);
    if (state.objects.has(key)) throw new Error(`fake: ${key} already exists`);
    this.#commit(state, 'ADDED', stored);
    return stored;
  }

  /** Replaces an object (bumping resourceVersion) and notifies watches. */
  update(gvr: GroupVersionResource, object: FakeObjectInput): KubeObject {
    const state = this.#state(gvr);
    const key = keyOf(object as KubeObject);
    const old = state.objects.get(key);
    if (old === undefined) throw new Error(`fake: ${key} does not exist`);
    const stored = this.#stamp(state, object as KubeObject, old);
    this.#commit(state, 'MODIFIED', stored);
    return stored;
  }

  /** Deletes an object and notifies watches. */
  remove(gvr: GroupVersionResource, key: string): KubeObject {
    const state = this.#state(gvr);
    const old = state.objects.get(key);
    if (old === undefined) throw new Error(`fake: ${key} does not exist`);
    const final = { ...old, metadata: { ...old.metadata, resourceVersion: String(++this.#rv) } };
    this.#commit(state, 'DELETED', final);
    return final;
  }

  get(gvr: GroupVersionResource, key: string): KubeObject | undefined {
    return this.#state(gvr).objects.get(key);
  }

  list(gvr: GroupVersionResource): KubeObject[] {
    return [...this.#state(gvr).objects.values()];
  }

  // ---- control ----------------------------------------------------------------------------------------------

  /** Forgets history up to now: watches and continue tokens from older resourceVersions get 410 Gone. */
  compact(): void {
    this.#compactedRv = this.#rv;
    for (const state of this.#resources.values()) state.history.length = 0;
  }

  /** Sends a BOOKMARK at the current resourceVersion to every open watch that asked for bookmarks. */
  bookmark(): void {
    for (const w of this.#watchers) {
      if (w.bookmarks) this.#send(w, { type: 'BOOKMARK', object: this.#bookmarkObject(w.state, false) });
    }
  }

  /** Ends every open watch response normally, as a server-side timeout does. */
  closeWatches(): void {
    for (const w of [...this.#watchers]) this.#endWatch(w);
  }

  /** Sends an ERROR 410 event to every open watch and ends it, as after etcd compaction. */
  expireWatches(): void {
    for (const w of [...this.#watchers]) {
      this.#send(w, { type: 'ERROR', object: expiredStatus(this.#compactedRv) });
      this.#endWatch(w);
    }
  }

  /**
   * Stops writing anything (events, bookmarks) to the currently open watches (of one resource, or all); the
   * connections stay open.
   */
  stallWatches(gvr?: GroupVersionResource): void {
    const id = gvr === undefined ? undefined : gvrToString(gvr);
    for (const w of this.#watchers) if (id === undefined || gvrToString(w.state.gvr) === id) w.stalled = true;
  }

  /** Open watch connections, optionally of one resource. */
  openWatches(gvr?: GroupVersionResource): number {
    if (gvr === undefined) return this.#watchers.size;
    const id = gvrToString(gvr);
    let n = 0;
    for (const w of this.#watchers)
      if (gvrToString(w.state.gvr) === id && !w.stalled && w.backlog === undefined) n++;
    return n;
  }

  /** Makes matching requests fail with a Status of the given code. */
  fault(matcher: FaultMatcher, fault: Fault): void {
    this.#faults.push({ matcher, fault, left: fault.times ?? 1 });
  }

  clearFaults(): void {
    this.#faults.length = 0;
  }

  /** Answers matching requests `ms` later, as a loaded server does, until clearDelays(). */
  delay(matcher: FaultMatcher, ms: number): void {
    this.#delays.push({ matcher, ms });
  }

  clearDelays(): void {
    this.#delays.length = 0;
  }

  /** Every request for the resource answers 403 until allowed again. */
  forbid(gvr: GroupVersionResource): void {
    this.#forbidden.add(gvrToString(gvr));
  }

  allow(gvr: GroupVersionResource): void {
    this.#forbidden.delete(gvrToString(gvr));
  }

  /** Requests matching a predicate, so far. */
  requestsWhere(predicate: (r: RecordedRequest) => boolean): RecordedRequest[] {
    return this.requests.filter(predicate);
  }

  /** Resolves with the first request (past or future) matching the predicate; rejects after `timeoutMs`. */
  waitForRequest(predicate: (r: RecordedRequest) => boolean, timeoutMs = 5_000): Promise<RecordedRequest> {
    const seen = this.requests.find(predicate);
    if (seen !== undefined) return Promise.resolve(seen);
    return this.#waitFor(predicate, timeoutMs, 'request');
  }

  /** Resolves with the next request from now on matching the predicate. */
  nextRequest(predicate: (r: RecordedRequest) => boolean, timeoutMs = 5_000): Promise<RecordedRequest> {
    return this.#waitFor(predicate, timeoutMs, 'request');
  }

  /** Resolves once a watch of the resource is open and streaming live events (initial events sent). */
  async waitForWatch(gvr: GroupVersionResource, timeoutMs = 5_000): Promise<void> {
    if (this.openWatches(gvr) > 0) return;
    const id = gvrToString(gvr);
    await this.#waitFor((w: Watcher) => gvrToString(w.state.gvr) === id, timeoutMs, 'watch');
  }

  async close(): Promise<void> {
    for (const w of [...this.#watchers]) this.#endWatch(w);
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  // ---- internals --------------------------------------------------------------------------------------------

  #waitFor<T>(predicate: (v: T) => boolean, timeoutMs: number, event: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#events.off(event, listener);
        reject(new Error(`fake API server: no matching ${event} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (value: T): void => {
        if (!predicate(value)) return;
        clearTimeout(timer);
        this.#events.off(event, listener);
        resolve(value);
      };
      this.#events.on(event, listener);
    });
  }

  #state(gvr: GroupVersionResource): ResourceState {
    const state = this.#resources.get(gvrToString(gvr));
    if (state === undefined) throw new Error(`fake: ${gvrToString(gvr)} was not added with addResource`);
    return state;
  }

  #stamp(state: ResourceState, object: KubeObject, old: KubeObject | undefined): KubeObject {
    const gvr = state.gvr;
    const meta = object.metadata;
    return {
      ...object,
      apiVersion: apiVersionOf(gvr),
      kind: gvr.kind ?? object.kind ?? 'Object',
      metadata: {
        ...meta,
        ...(gvr.namespaced ? { namespace: meta.namespace ?? 'default' } : {}),
        uid: old?.metadata.uid ?? meta.uid ?? `uid-${++this.#uid}`,
        resourceVersion: String(++this.#rv),
        creationTimestamp:
          old?.metadata.creationTimestamp ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        generation: old === undefined ? 1 : nextGeneration(old, object),
      },
    };
  }

  #commit(state: ResourceState, type: 'ADDED' | 'MODIFIED' | 'DELETED', object: KubeObject): void {
    const key = keyOf(object);
    if (type === 'DELETED') state.objects.delete(key);
    else state.objects.set(key, object);
    const rv = Number(object.metadata.resourceVersion);
    state.history.push({ rv, type, object });
    for (const w of this.#watchers) {
      if (w.state === state && inNamespace(object, w.namespace)) this.#send(w, { type, object });
    }
  }

  #bookmarkObject(state: ResourceState, initialEventsEnd: boolean): Json {
    return {
      kind: state.gvr.kind ?? 'Object',
      apiVersion: apiVersionOf(state.gvr),
      metadata: {
        resourceVersion: String(this.#rv),
        ...(initialEventsEnd ? { annotations: { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } } : {}),
      },
    };
  }

  #send(w: Watcher, event: { type: string; object: unknown }): void {
    if (w.stalled || w.res.writableEnded) return;
    const line = `${JSON.stringify(event)}\n`;
    if (w.backlog !== undefined) w.backlog.push(line);
    else w.res.write(line);
  }

  /** Writes initial events in slices (see SYNC_INITIAL_EVENTS), then the backlog, then announces the watch. */
  async #writeInitialEvents(
    w: Watcher,
    objects: readonly KubeObject[],
    end: { type: string; object: unknown } | undefined,
  ): Promise<void> {
    const res = w.res;
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    let sinceYield = 0;
    for (const object of objects) {
      // A stalled watch writes nothing more; a closed one has nowhere to write.
      if (w.stalled || res.destroyed || res.writableEnded) return;
      if (!res.write(`${JSON.stringify({ type: 'ADDED', object })}\n`)) {
        await Promise.race([new Promise<void>((resolve) => res.once('drain', () => resolve())), closed]);
        sinceYield = 0;
      } else if (++sinceYield === INITIAL_EVENTS_PER_SLICE) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sinceYield = 0;
      }
    }
    if (w.stalled || res.destroyed || res.writableEnded) return;
    if (end !== undefined) res.write(`${JSON.stringify(end)}\n`);
    const backlog = w.backlog ?? [];
    w.backlog = undefined;
    for (const line of backlog) res.write(line);
    if (w.endAfterBacklog) this.#endWatch(w);
    else this.#events.emit('watch', w);
  }

  #endWatch(w: Watcher): void {
    if (w.backlog !== undefined) {
      w.endAfterBacklog = true;
      return;
    }
    this.#watchers.delete(w);
    if (w.timer !== undefined) clearTimeout(w.timer);
    if (!w.res.writableEnded) w.res.end();
  }

  #parsePath(path: string): PathInfo {
    const segs = path.split('/').filter((s) => s !== '');
    let group: string;
    let version: string;
    let rest: string[];
    if (segs[0] === 'api' && segs.length >= 2) {
      group = '';
      version = segs[1] as string;
      rest = segs.slice(2);
    } else if (segs[0] === 'apis' && segs.length >= 3) {
      group = segs[1] as string;
      version = segs[2] as string;
      rest = segs.slice(3);
    } else
      return {
        state: undefined,
        resource: '',
        namespace: undefined,
        name: undefined,
        subresource: undefined,
      };
    let namespace: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      namespace = decodeURIComponent(rest[1] as string);
      rest = rest.slice(2);
    }
    const resource = `${group === '' ? 'core' : group}/${version}/${rest[0] ?? ''}`;
    return {
      state: this.#resources.get(resource),
      resource,
      namespace,
      name: rest[1] === undefined ? undefined : decodeURIComponent(rest[1]),
      subresource: rest[2],
    };
  }

  async #handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const info = this.#parsePath(url.pathname);
    const verb = verbOf(req.method ?? 'GET', info, url.searchParams);
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      verb,
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      resource: info.resource,
      namespace: info.namespace,
      name: info.name,
      subresource: info.subresource,
    };
    this.requests.push(recorded);
    this.#events.emit('request', recorded);

    if (req.headers.authorization !== `Bearer ${FAKE_TOKEN}`) {
      return status(res, 401, 'Unauthorized', 'Unauthorized');
    }
    const matches = (m: FaultMatcher): boolean =>
      (m.verb === undefined || m.verb === verb) &&
      (m.resource === undefined || m.resource === info.resource) &&
      (m.match === undefined || m.match(recorded));
    const delayMs = Math.max(0, ...this.#delays.filter((d) => matches(d.matcher)).map((d) => d.ms));
    if (delayMs > 0) {
      // Unref'd: a request held longer than a test lasts must not keep the test process alive.
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      if (res.destroyed) return;
    }
    for (const f of this.#faults) {
      if (f.left <= 0 || !matches(f.matcher)) continue;
      f.left--;
      return status(
        res,
        f.fault.code,
        f.fault.reason ?? 'InternalError',
        f.fault.message ?? 'injected fault',
      );
    }
    if (this.#forbidden.has(info.resource)) {
      return status(
        res,
        403,
        'Forbidden',
        `${info.resource} is forbidden: User "tester" cannot ${verb} resource "${info.resource}"`,
      );
    }
    const state = info.state;
    if (state === undefined)
      return status(res, 404, 'NotFound', 'the server could not find the requested resource');
    try {
      switch (verb) {
        case 'list':
          return this.#list(state, info, url.searchParams, res);
        case 'watch':
          return this.#watch(state, info, url.searchParams, req, res);
        case 'get':
          return this.#get(state, info, res);
        case 'create':
          return this.#create(state, info, body, res);
        case 'update':
          return this.#update(state, info, body, res);
        case 'patch':
          return this.#patch(state, info, body, req.headers['content-type'] ?? '', url.searchParams, res);
        case 'delete':
          return this.#delete(state, info, body, res);
        default:
          return status(res, 405, 'MethodNotAllowed', `${verb} is not supported by the fake API server`);
      }
    } catch (error) {
      return status(res, 500, 'InternalError', error instanceof Error ? error.message : String(error));
    }
  }

  #list(state: ResourceState, info: PathInfo, q: URLSearchParams, res: ServerResponse) {
    const limit = Number(q.get('limit') ?? '0');
    const cont = q.get('continue') ?? '';
    const rv = q.get('resourceVersion') ?? '';
    const match = q.get('resourceVersionMatch') ?? '';
    const selector = parseSelector(q.get('labelSelector') ?? '');
    let start = '';
    let listRv = this.#rv;
    if (cont !== '') {
      if (rv !== '' && rv !== '0') {
        return status(
          res,
          400,
          'BadRequest',
          'specifying resource version is not allowed when using continue',
        );
      }
      let token: { rv: number; start: string };
      try {
        token = JSON.parse(Buffer.from(cont, 'base64url').toString('utf8')) as { rv: number; start: string };
      } catch {
        return status(res, 400, 'BadRequest', 'invalid continue token');
      }
      if (token.rv < this.#compactedRv) {
        return status(
          res,
          410,
          'Expired',
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
        );
      }
      start = token.start;
      listRv = token.rv;
    } else if (rv !== '' && rv !== '0' && (match === 'Exact' || (match === '' && limit > 0))) {
      if (Number(rv) < this.#compactedRv) {
        return status(res, 410, 'Expired', `The resourceVersion for the provided list is too old.`);
      }
    }
    const servedWhole = rv === '0' && cont === '' && this.options.watchCache;
    const all = [...state.objects.entries()]
      .filter(
        ([key, o]) => key > start && inNamespace(o, info.namespace) && selector.matches(o.metadata.labels),
      )
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const page = !servedWhole && limit > 0 ? all.slice(0, limit) : all;
    const more = page.length < all.length;
    const last = page[page.length - 1];
    const metadata: Record<string, unknown> = { resourceVersion: String(listRv) };
    if (more && last !== undefined) {
      metadata.continue = Buffer.from(JSON.stringify({ rv: listRv, start: last[0] })).toString('base64url');
      metadata.remainingItemCount = all.length - page.length;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write(
      `{"kind":"${state.gvr.kind ?? 'Object'}List","apiVersion":"${apiVersionOf(state.gvr)}","metadata":${JSON.stringify(metadata)},"items":[`,
    );
    let buffered = '';
    page.forEach(([, object], i) => {
      const item = this.options.listItemsHaveTypeMeta ? object : withoutTypeMeta(object);
      buffered += (i === 0 ? '' : ',') + JSON.stringify(item);
      if ((i + 1) % this.options.objectsPerChunk === 0) {
        res.write(buffered);
        buffered = '';
      }
    });
    res.end(`${buffered}]}`);
  }

  #watch(
    state: ResourceState,
    info: PathInfo,
    q: URLSearchParams,
    req: IncomingMessage,
    res: ServerResponse,
  ) {
    const sendInitialEvents = q.get('sendInitialEvents') === 'true';
    const match = q.get('resourceVersionMatch') ?? '';
    const bookmarks = q.get('allowWatchBookmarks') === 'true';
    const rv = q.get('resourceVersion') ?? '';
    if (sendInitialEvents && !this.options.watchList) {
      return status(
        res,
        422,
        'Invalid',
        'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      );
    }
    if (sendInitialEvents && (match !== 'NotOlderThan' || !bookmarks)) {
      return status(
        res,
        422,
        'Invalid',
        'sendInitialEvents requires resourceVersionMatch=NotOlderThan and allowWatchBookmarks=true',
      );
    }
    if (!sendInitialEvents && match !== '') {
      return status(
        res,
        422,
        'Invalid',
        'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      );
    }
    if (sendInitialEvents && rv !== '' && rv !== '0' && Number(rv) > this.#rv) {
      return status(res, 504, 'Timeout', `Too large resource version: ${rv}, current: ${this.#rv}`);
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    const watcher: Watcher = {
      state,
      res,
      bookmarks,
      namespace: info.namespace,
      stalled: false,
      timer: undefined,
      backlog: undefined,
      endAfterBacklog: false,
    };
    const timeoutSeconds = Number(q.get('timeoutSeconds') ?? '0');
    if (timeoutSeconds > 0) watcher.timer = setTimeout(() => this.#endWatch(watcher), timeoutSeconds * 1000);
    req.socket.once('close', () => {
      this.#watchers.delete(watcher);
      if (watcher.timer !== undefined) clearTimeout(watcher.timer);
    });
    const initial = sendInitialEvents || rv === '' || rv === '0';
    if (initial) {
      const objects = [...state.objects.values()].filter((o) => inNamespace(o, info.namespace));
      // The bookmark carries the resourceVersion of this snapshot; later events follow it.
      const end = sendInitialEvents
        ? { type: 'BOOKMARK', object: this.#bookmarkObject(state, true) }
        : undefined;
      if (objects.length > SYNC_INITIAL_EVENTS) {
        watcher.backlog = [];
        this.#watchers.add(watcher);
        void this.#writeInitialEvents(watcher, objects, end);
        return;
      }
      for (const object of objects) this.#send(watcher, { type: 'ADDED', object });
      if (end !== undefined) this.#send(watcher, end);
    } else {
      const from = Number(rv);
      if (from < this.#compactedRv) {
        this.#send(watcher, { type: 'ERROR', object: expiredStatus(from) });
        res.end();
        return;
      }
      for (const e of state.history) {
        if (e.rv > from && inNamespace(e.object, info.namespace)) {
          this.#send(watcher, { type: e.type, object: e.object });
        }
      }
    }
    this.#watchers.add(watcher);
    this.#events.emit('watch', watcher);
  }

  #get(state: ResourceState, info: PathInfo, res: ServerResponse) {
    const object = state.objects.get(objectKey(info));
    if (object === undefined) return notFound(res, state, info);
    json(res, 200, object);
  }

  #create(state: ResourceState, info: PathInfo, body: string, res: ServerResponse) {
    const object = JSON.parse(body) as KubeObject;
    const withNs = {
      ...object,
      metadata: { ...object.metadata, ...(state.gvr.namespaced ? { namespace: info.namespace } : {}) },
    };
    if (state.objects.has(keyOf(withNs as KubeObject))) {
      return status(
        res,
        409,
        'AlreadyExists',
        `${state.gvr.resource} "${object.metadata.name}" already exists`,
      );
    }
    json(res, 201, this.create(state.gvr, withNs as KubeObject));
  }

  #update(state: ResourceState, info: PathInfo, body: string, res: ServerResponse) {
    const object = JSON.parse(body) as KubeObject;
    const old = state.objects.get(objectKey(info));
    if (old === undefined) return notFound(res, state, info);
    if (object.metadata.resourceVersion && object.metadata.resourceVersion !== old.metadata.resourceVersion) {
      return conflict(res, state, info);
    }
    const next =
      info.subresource === 'status'
        ? { ...old, status: object.status }
        : {
            ...object,
            status: old.status,
            metadata: { ...object.metadata, namespace: old.metadata.namespace },
          };
    json(res, 200, this.update(state.gvr, next as KubeObject));
  }

  #patch(
    state: ResourceState,
    info: PathInfo,
    body: string,
    contentType: string,
    q: URLSearchParams,
    res: ServerResponse,
  ) {
    const key = objectKey(info);
    const old = state.objects.get(key);
    const patch = JSON.parse(body) as Json;
    let next: Json;
    switch (contentType) {
      case 'application/merge-patch+json':
        if (old === undefined) return notFound(res, state, info);
        next = mergePatch(old as Json, patch);
        break;
      case 'application/strategic-merge-patch+json':
        if (state.gvr.group.includes('.')) {
          return status(
            res,
            415,
            'UnsupportedMediaType',
            `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
          );
        }
        if (old === undefined) return notFound(res, state, info);
        next = mergePatch(old as Json, patch);
        break;
      case 'application/json-patch+json':
        if (old === undefined) return notFound(res, state, info);
        try {
          // The request body was parsed as any JSON; jsonPatch validates each operation as it applies it.
          next = jsonPatch(old as Json, patch as unknown as JsonPatchOperation[]);
        } catch (error) {
          return status(res, 422, 'Invalid', error instanceof Error ? error.message : String(error));
        }
        break;
      case 'application/apply-patch+yaml':
        if (!q.get('fieldManager')) {
          return status(
            res,
            400,
            'BadRequest',
            'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value',
          );
        }
        if (old === undefined) {
          const created = {
            ...(patch as object),
            metadata: { ...(patch as { metadata: object }).metadata, namespace: info.namespace },
          };
          return json(res, 201, this.create(state.gvr, created as KubeObject));
        }
        next = mergePatch(old as Json, patch);
        break;
      default:
        return status(res, 415, 'UnsupportedMediaType', `unsupported patch content type "${contentType}"`);
    }
    // As kube-apiserver: a patch that sets metadata.resourceVersion is a precondition on the stored version
    // (optimistic concurrency for patches), refused with 409 when the object has moved since.
    const precondition = (patch as { metadata?: { resourceVersion?: unknown } } | null)?.metadata
      ?.resourceVersion;
    if (
      old !== undefined &&
      contentType !== 'application/json-patch+json' &&
      typeof precondition === 'string' &&
      precondition !== '' &&
      precondition !== old.metadata.resourceVersion
    ) {
      return conflict(res, state, info);
    }
    const nextObject = next as KubeObject;
    const merged =
      info.subresource === 'status'
        ? { ...old, status: nextObject.status }
        : {
            ...nextObject,
            metadata: { ...nextObject.metadata, name: info.name, namespace: old?.metadata.namespace },
          };
    json(res, 200, this.update(state.gvr, merged as KubeObject));
  }

  #delete(state: ResourceState, info: PathInfo, body: string, res: ServerResponse) {
    const key = objectKey(info);
    const old = state.objects.get(key);
    if (old === undefined) return notFound(res, state, info);
    const options =
      body === '' ? {} : (JSON.parse(body) as { preconditions?: { uid?: string; resourceVersion?: string } });
    const pre = options.preconditions;
    if (
      (pre?.uid !== undefined && pre.uid !== old.metadata.uid) ||
      (pre?.resourceVersion !== undefined && pre.resourceVersion !== old.metadata.resourceVersion)
    ) {
      return status(res, 409, 'Conflict', `Precondition failed: ${JSON.stringify(pre)}`);
    }
    json(res, 200, this.remove(state.gvr, key));
  }
}

// As kube-apiserver for a resource with a status subresource: metadata.generation moves when something outside
// metadata and status changes, so a status write or a label edit leaves it alone. A controller that records the
// generation it observed in the status (schedulerObservedGeneration) would otherwise never catch up here.
function nextGeneration(old: KubeObject, next: KubeObject): number {
  const generation = old.metadata.generation ?? 1;
  return isDeepStrictEqual(specOf(old), specOf(next)) ? generation : generation + 1;
}

/** Everything but type, metadata and status, as JSON would carry it (a field set to undefined is absent). */
function specOf(object: KubeObject): unknown {
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = object;
  return JSON.parse(JSON.stringify(rest));
}

function verbOf(method: string, info: PathInfo, q: URLSearchParams): string {
  const collection = info.name === undefined;
  switch (method) {
    case 'GET':
      return collection ? (q.get('watch') === 'true' || q.get('watch') === '1' ? 'watch' : 'list') : 'get';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return collection ? 'deletecollection' : 'delete';
    default:
      return method.toLowerCase();
  }
}

function objectKey(info: PathInfo): string {
  return info.namespace === undefined ? (info.name ?? '') : `${info.namespace}/${info.name ?? ''}`;
}

function inNamespace(object: KubeObject, namespace: string | undefined): boolean {
  return namespace === undefined || object.metadata.namespace === namespace;
}

function withoutTypeMeta(object: KubeObject): Omit<KubeObject, 'apiVersion' | 'kind'> {
  const { apiVersion: _a, kind: _k, ...rest } = object;
  return rest;
}

function expiredStatus(rv: number): KubeStatus {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message: `too old resource version: ${rv}`,
    reason: 'Expired',
    code: 410,
  };
}

function json(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function status(res: ServerResponse, code: number, reason: string, message: string): void {
  json(res, code, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  });
}

function notFound(res: ServerResponse, state: ResourceState, info: PathInfo): void {
  status(res, 404, 'NotFound', `${state.gvr.resource} "${info.name ?? ''}" not found`);
}

function conflict(res: ServerResponse, state: ResourceState, info: PathInfo): void {
  status(
    res,
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${state.gvr.resource} "${info.name ?? ''}": the object has been modified; please apply your changes to the latest version and try again`,
  );
}
