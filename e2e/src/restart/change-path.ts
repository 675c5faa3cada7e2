// The path a change made around a restart takes, from the audit logs: when each stage first wrote for it, in ms
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

/** A deliberate change of workload `name`'s template, made at `at` (epoch ms). */
export interface DeliberateChange {
  readonly name: string;
  readonly at: number;
}

/** The key of a member's stage in a ChangePath. */
export function memberStage(cluster: string): string {
  return `member ${cluster}`;
}

/**
 * For each change, each stage's first write for workload `name` (Deployment `<name>`, binding `<name>-deployment`,
 * Works `<name>-…`) after the change, as ms after it. `hostEvents` are the manager's requests on the host; each
 * member's audit log is read once for all the changes.
 */
export async function changePaths(
  hostEvents: readonly ClassifiedEvent[],
  members: readonly ClusterInfo[],
  changes: readonly DeliberateChange[],
  failover = false,
): Promise<ChangePath[]> {
  const since = Math.min(...changes.map((c) => c.at));
  const memberEvents: [string, ClassifiedEvent[]][] = [];
  for (const m of members)
    if (m.auditLogPath !== undefined)
      memberEvents.push([m.name, await readAuditLog(m.auditLogPath, { since })]);
  return changes.map(({ name: changed, at: changeAt }) => {
    const after = (events: readonly ClassifiedEvent[]) =>
      events.filter((e) => Date.parse(e.requestReceivedTimestamp) >= changeAt);
    const host = after(hostEvents);
    const binding = `${changed}-deployment`;
    const stages: [string, number | undefined][] = [
      // After a fail-over nothing can happen before the standby takes the Lease: its first Lease write (a standby
      // reads the Lease from its cache and writes it only to take it; the dead leader writes nothing more).
      ...(failover
        ? [
            ['leader', firstWrite(host, (e) => e.objectRef?.resource === 'leases')] as [
              string,
              number | undefined,
            ],
          ]
        : []),
      [
        'detector',
        firstWrite(host, (e) => e.objectRef?.resource === 'resourcebindings' && e.objectRef.name === binding),
      ],
      [
        'scheduler',
        firstWrite(
          host,
          (e) =>
            sourceOf(e) === 'scheduler' &&
            e.objectRef?.resource === 'resourcebindings' &&
            e.objectRef.name === binding,
        ),
      ],
      [
        'binding-controller',
        firstWrite(
          host,
          (e) => e.objectRef?.resource === 'works' && (e.objectRef.name ?? '').startsWith(`${changed}-`),
        ),
      ],
      ...memberEvents.map(
        ([member, events]) =>
          [
            memberStage(member),
            firstWrite(
              after(events),
              (e) => e.objectRef?.resource === 'deployments' && e.objectRef.name === changed,
            ),
          ] as [string, number | undefined],
      ),
    ];
    return Object.fromEntries(
      stages.filter((s): s is [string, number] => s[1] !== undefined).map(([k, at]) => [k, at - changeAt]),
    );
  });
}
