// The writes each user made, in the order the API server received them: the evidence for "only the leader
// writes". Every replica runs under a user of its own (identity.ts), so the username says which replica wrote.
import { readAuditLog } from '../audit/audit-log.js';

export interface TimedWrite {
  /** requestReceivedTimestamp, epoch ms. */
  readonly at: number;
  readonly user: string;
  readonly verb: string;
  /** `<group or core>/<resource>[/<subresource>]` */
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly code: number | undefined;
}

/** Every write (create, update, patch, delete, ...) by `user` received at or after `since`, oldest first. */
export async function writesBy(auditLogPath: string, user: string, since: number): Promise<TimedWrite[]> {
  const events = await readAuditLog(auditLogPath, { user, since });
  return events
    .filter((e) => e.class === 'write')
    .map((e) => ({
      at: Date.parse(e.requestReceivedTimestamp),
      user,
      verb: e.verb,
      resource: e.resourceKey,
      namespace: e.objectRef?.namespace,
      name: e.objectRef?.name,
      code: e.responseStatus?.code,
    }))
    .sort((a, b) => a.at - b.at);
}

export const isLeaseWrite = (w: TimedWrite): boolean => w.resource === 'coordination.k8s.io/leases';

/** One line per write, for assertion messages. */
export function describeWrites(writes: readonly TimedWrite[], limit = 20): string {
  const lines = writes
    .slice(0, limit)
    .map(
      (w) =>
        `${new Date(w.at).toISOString()} ${w.user} ${w.verb} ${w.resource} ${w.namespace ?? ''}/${w.name ?? ''} -> ${w.code ?? '?'}`,
    );
  if (writes.length > limit) lines.push(`... and ${writes.length - limit} more`);
  return lines.join('\n');
}
