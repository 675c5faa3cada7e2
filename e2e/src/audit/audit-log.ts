// Reads a kube-apiserver JSON-lines audit log and classifies each request by the rules of DESIGN.md §7:
// a `get`, or a `list` without a resourceVersion parameter, is a direct read; an informer lists with one.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** The fields of an audit.k8s.io/v1 Event that the classifier reads. */
export interface AuditEvent {
  readonly auditID: string;
  readonly stage: string;
  readonly verb: string;
  readonly requestURI: string;
  readonly user: { readonly username: string; readonly groups?: readonly string[] };
  readonly userAgent?: string;
  readonly objectRef?: {
    readonly resource?: string;
    readonly namespace?: string;
    readonly name?: string;
    readonly apiGroup?: string;
    readonly apiVersion?: string;
    readonly subresource?: string;
  };
  readonly responseStatus?: { readonly code?: number };
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
}

export type RequestClass = 'informer-list' | 'watch' | 'direct-get' | 'direct-list' | 'write' | 'other';

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection', 'apply']);

/** Classifies one request. Non-resource requests (e.g. /readyz, /version) are `other`. */
export function classify(event: Pick<AuditEvent, 'verb' | 'requestURI' | 'objectRef'>): RequestClass {
  if (!event.objectRef?.resource) return 'other';
  switch (event.verb) {
    case 'watch':
      return 'watch';
    case 'get':
      return 'direct-get';
    case 'list':
      return new URL(event.requestURI, 'https://x').searchParams.has('resourceVersion')
        ? 'informer-list'
        : 'direct-list';
    default:
      return WRITE_VERBS.has(event.verb) ? 'write' : 'other';
  }
}

export function isDirectRead(c: RequestClass): boolean {
  return c === 'direct-get' || c === 'direct-list';
}

export interface AuditFilter {
  /** Only requests by this username. */
  readonly user?: string | undefined;
  /** Only requests received at or after this time (epoch ms). */
  readonly since?: number | undefined;
  /** Only requests received before this time (epoch ms). */
  readonly until?: number | undefined;
  /** Only requests whose User-Agent contains this text. */
  readonly userAgentIncludes?: string | undefined;
}

export interface ClassifiedEvent extends AuditEvent {
  readonly class: RequestClass;
  /** `<apiGroup or core>/<resource>[/<subresource>]` */
  readonly resourceKey: string;
}

function resourceKey(e: AuditEvent): string {
  const r = e.objectRef;
  if (!r?.resource) return new URL(e.requestURI, 'https://x').pathname;
  return `${r.apiGroup || 'core'}/${r.resource}${r.subresource ? `/${r.subresource}` : ''}`;
}

/**
 * Reads every request in the log that matches the filter, once per request: a watch logs ResponseStarted and
 * later ResponseComplete under one auditID, and only the first stage seen is kept. Partial last lines (the
 * server may be mid-write) are skipped.
 */
export async function readAuditLog(path: string, filter: AuditFilter = {}): Promise<ClassifiedEvent[]> {
  const seen = new Set<string>();
  const out: ClassifiedEvent[] = [];
  const lines = createInterface({
    input: createReadStream(path, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (!line.startsWith('{')) continue;
    let event: AuditEvent;
    try {
      event = JSON.parse(line) as AuditEvent;
    } catch {
      continue;
    }
    if (seen.has(event.auditID)) continue;
    if (filter.user !== undefined && event.user.username !== filter.user) continue;
    const received = Date.parse(event.requestReceivedTimestamp);
    if (filter.since !== undefined && received < filter.since) continue;
    if (filter.until !== undefined && received >= filter.until) continue;
    if (filter.userAgentIncludes !== undefined && !event.userAgent?.includes(filter.userAgentIncludes))
      continue;
    seen.add(event.auditID);
    out.push({ ...event, class: classify(event), resourceKey: resourceKey(event) });
  }
  return out;
}

export interface AuditSummary {
  readonly total: number;
  readonly byClass: Readonly<Record<RequestClass, number>>;
  readonly directReads: number;
  readonly writes: number;
  /** `<verb> <resourceKey>` -> count, for writes and direct reads. */
  readonly byVerbAndResource: Readonly<Record<string, number>>;
}

export function summarize(events: readonly ClassifiedEvent[]): AuditSummary {
  const byClass: Record<RequestClass, number> = {
    'informer-list': 0,
    watch: 0,
    'direct-get': 0,
    'direct-list': 0,
    write: 0,
    other: 0,
  };
  const byVerbAndResource: Record<string, number> = {};
  for (const e of events) {
    byClass[e.class]++;
    if (e.class !== 'other') {
      const k = `${e.verb} ${e.resourceKey}`;
      byVerbAndResource[k] = (byVerbAndResource[k] ?? 0) + 1;
    }
  }
  return {
    total: events.length,
    byClass,
    directReads: byClass['direct-get'] + byClass['direct-list'],
    writes: byClass.write,
    byVerbAndResource,
  };
}
