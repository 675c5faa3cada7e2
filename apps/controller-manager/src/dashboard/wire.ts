// The one place a snapshot becomes JSON for /status.json and /events. It copies the declared fields only, so
// a StatusSource that hands over a richer object (an informer, a Lease, an error with a request attached)
// cannot leak object contents or credentials through the dashboard. Long texts are cut to keep events small.
import type { ControllerStatus, DashboardStatus, InformerStatus } from './status.js';

/** Error and progress texts longer than this are cut, with an ellipsis. */
const MAX_TEXT = 1_000;
/** Names (clusters, resources, controllers, identities, keys) longer than this are cut. */
const MAX_NAME = 256;

/** A snapshot reduced to its declared fields, with numbers made finite and texts bounded. */
export function toWire(status: DashboardStatus): DashboardStatus {
  return {
    strategy: name(status.strategy),
    startedAt: count(status.startedAt),
    now: count(status.now),
    leader: {
      identity: name(status.leader.identity),
      leading: status.leader.leading === true,
      holder: optional(status.leader.holder, MAX_NAME),
    },
    directReads: count(status.directReads),
    ready: status.ready === true,
    informers: status.informers.map(informer),
    controllers: status.controllers.map(controller),
  };
}

/** The JSON text of a snapshot as it goes on the wire. */
export function serialize(status: DashboardStatus): string {
  return JSON.stringify(toWire(status));
}

function informer(i: InformerStatus): InformerStatus {
  return {
    cluster: name(i.cluster),
    resource: name(i.resource),
    state: i.state === 'open' || i.state === 'failed' ? i.state : 'pending',
    objects: count(i.objects),
    listRatePerSecond:
      typeof i.listRatePerSecond === 'number' && Number.isFinite(i.listRatePerSecond)
        ? Math.max(0, i.listRatePerSecond)
        : undefined,
    waitingMs: count(i.waitingMs),
    progress: optional(i.progress, MAX_TEXT),
    error: optional(i.error, MAX_TEXT),
  };
}

function controller(c: ControllerStatus): ControllerStatus {
  return {
    name: name(c.name),
    queueDepth: count(c.queueDepth),
    inFlight: count(c.inFlight),
    readerWaits: count(c.readerWaits),
    lastError:
      c.lastError === undefined
        ? undefined
        : {
            key: text(c.lastError.key, MAX_NAME),
            message: text(c.lastError.message, MAX_TEXT),
            at: count(c.lastError.at),
          },
    waitingFor: optional(c.waitingFor, MAX_NAME),
  };
}

function count(n: number): number {
  return typeof n === 'number' && Number.isFinite(n) ? Math.max(0, n) : 0;
}

function name(s: string): string {
  return text(s, MAX_NAME);
}

function optional(s: string | undefined, max: number): string | undefined {
  return s === undefined || s === null ? undefined : text(s, max);
}

function text(s: string, max: number): string {
  const str = typeof s === 'string' ? s : String(s);
  return str.length <= max ? str : `${str.slice(0, max - 1)}…`;
}
