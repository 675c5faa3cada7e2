// The slice of e2e's audit-log reader the detector's integration tests need (packages must not import e2e):
// requests of one user in a time window, classified by DESIGN.md §7. A `get`, or a `list` without a
// resourceVersion parameter, is a direct read.
import { readFile } from 'node:fs/promises';

export type RequestClass = 'informer-list' | 'watch' | 'direct-read' | 'write' | 'other';

export interface AuditedRequest {
  readonly verb: string;
  readonly requestURI: string;
  readonly resource: string | undefined;
  readonly received: number;
  readonly class: RequestClass;
}

const WRITES = new Set(['create', 'update', 'patch', 'delete', 'deletecollection', 'apply']);

function classify(verb: string, requestURI: string, resource: string | undefined): RequestClass {
  if (!resource) return 'other';
  if (verb === 'watch') return 'watch';
  if (verb === 'get') return 'direct-read';
  if (verb === 'list') {
    return new URL(requestURI, 'https://x').searchParams.has('resourceVersion')
      ? 'informer-list'
      : 'direct-read';
  }
  return WRITES.has(verb) ? 'write' : 'other';
}

/** Each request of `user` received in [since, until), once (a watch logs two stages under one auditID). */
export async function auditedRequests(
  path: string,
  user: string,
  since: number,
  until: number,
): Promise<AuditedRequest[]> {
  const seen = new Set<string>();
  const out: AuditedRequest[] = [];
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    if (!line.startsWith('{')) continue;
    let e: {
      auditID: string;
      verb: string;
      requestURI: string;
      user: { username: string };
      objectRef?: { resource?: string; apiGroup?: string };
      requestReceivedTimestamp: string;
    };
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    const received = Date.parse(e.requestReceivedTimestamp);
    if (e.user.username !== user || received < since || received >= until || seen.has(e.auditID)) continue;
    seen.add(e.auditID);
    const resource = e.objectRef?.resource && `${e.objectRef.apiGroup || 'core'}/${e.objectRef.resource}`;
    out.push({
      verb: e.verb,
      requestURI: e.requestURI,
      resource: resource || undefined,
      received,
      class: classify(e.verb, e.requestURI, resource || undefined),
    });
  }
  return out;
}
