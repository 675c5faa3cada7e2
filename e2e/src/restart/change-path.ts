// The path a change made after a restart takes, from the audit logs: when each stage first wrote for it, in ms
// after the change. leader (fail-over only): the standby took the Lease; detector: the binding updated; scheduler: the binding's schedule or status; binding-controller:
// a Work; execution-controller: the Deployment in each member. A stage that did not need to write is absent.
import { type ClassifiedEvent, readAuditLog } from '../audit/audit-log.js';
import type { ClusterInfo } from '../cluster/provider.js';

export type ChangePath = Readonly<Record<string, number>>;

/** The controller a request came from: the source in the manager's User-Agent, `warmstart/<v> (<source>)`. */
function sourceOf(e: ClassifiedEvent): string {
  return /\(([^)]+)\)\s*$/.exec(e.userAgent ?? '')?.[1] ?? 'unknown';
}

function firstWrite(
  events: readonly ClassifiedEvent[],
  match: (e: ClassifiedEvent) => boolean,
): number | undefined {
  let first: number | undefined;
  for (const e of events) {
    if (e.class !== 'write' || !match(e)) continue;
    const at = Date.parse(e.stageTimestamp);
    if (first === undefined || at < first) first = at;
  }
  return first;
}

/**
 * Each stage's first write for workload `changed` (Deployment `<changed>`, binding `<changed>-deployment`, Works
 * `<changed>-…`) after `changeAt`, as ms after it. `hostEvents` are the manager's requests on the host.
 */
export async function changePath(
  hostEvents: readonly ClassifiedEvent[],
  members: readonly ClusterInfo[],
  changed: string,
  changeAt: number,
  failover = false,
): Promise<ChangePath> {
  const after = hostEvents.filter((e) => Date.parse(e.requestReceivedTimestamp) >= changeAt);
  const binding = `${changed}-deployment`;
  const stages: [string, number | undefined][] = [
    // After a fail-over nothing can happen before the standby takes the Lease: its first Lease write (a standby
    // reads the Lease from its cache and writes it only to take it; the dead leader writes nothing more).
    ...(failover
      ? [
          ['leader', firstWrite(after, (e) => e.objectRef?.resource === 'leases')] as [
            string,
            number | undefined,
          ],
        ]
      : []),
    [
      'detector',
      firstWrite(after, (e) => e.objectRef?.resource === 'resourcebindings' && e.objectRef.name === binding),
    ],
    [
      'scheduler',
      firstWrite(
        after,
        (e) =>
          sourceOf(e) === 'scheduler' &&
          e.objectRef?.resource === 'resourcebindings' &&
          e.objectRef.name === binding,
      ),
    ],
    [
      'binding-controller',
      firstWrite(
        after,
        (e) => e.objectRef?.resource === 'works' && (e.objectRef.name ?? '').startsWith(`${changed}-`),
      ),
    ],
  ];
  for (const m of members) {
    if (m.auditLogPath === undefined) continue;
    const events = await readAuditLog(m.auditLogPath, { since: changeAt });
    stages.push([
      `member ${m.name}`,
      firstWrite(events, (e) => e.objectRef?.resource === 'deployments' && e.objectRef.name === changed),
    ]);
  }
  return Object.fromEntries(
    stages.filter((s): s is [string, number] => s[1] !== undefined).map(([k, at]) => [k, at - changeAt]),
  );
}
