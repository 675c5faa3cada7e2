// What the first propagation cost the host API server, read from its audit log: the manager's writes by verb and
// resource, the ones refused with 409 (a create of an object that already exists, an update of a stale copy) and
// any direct read. The log is streamed and only counted, so a 100k run's multi-GB log needs no memory. And how
// fast it went, with the CPU the processes sharing the machine took meanwhile, when the caller measured that.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type AuditEvent, classify } from '../audit/audit-log.js';
import type { CpuUse } from './process-cpu.js';

export interface FirstPropagation {
  readonly workloads: number;
  readonly durationMs: number;
  /** workloads / duration: the propagation's throughput, until every queue drained. */
  readonly workloadsPerSecond: number;
  /**
   * CPU used during the propagation by the host kube-apiserver, etcd (which every API server of the set shares) and
   * the manager, as seconds and as a share of the machine; measured only where the processes' pids are known.
   */
  readonly cpu?: CpuUse | undefined;
  /** Every write the manager sent (answered or refused), by `<verb> <group>/<resource>[/<subresource>]`. */
  readonly writes: Readonly<Record<string, number>>;
  /** The writes refused with 409 Conflict / AlreadyExists, by the same key. */
  readonly conflicts: Readonly<Record<string, number>>;
  readonly totalWrites: number;
  readonly totalConflicts: number;
  readonly directReads: number;
  /** Direct reads by `<verb> <resource> (<source>)`, with `+continue` for a continued list. */
  readonly directReadDetail: Readonly<Record<string, number>>;
}

function resourceKey(e: AuditEvent): string {
  const r = e.objectRef;
  return `${r?.apiGroup || 'core'}/${r?.resource ?? '?'}${r?.subresource ? `/${r.subresource}` : ''}`;
}

/** Counts the requests of `user` received in [since, until) in the audit log at `path`. */
export async function countFirstPropagation(
  path: string,
  user: string,
  since: number,
  until: number,
  workloads: number,
): Promise<FirstPropagation> {
  const writes: Record<string, number> = {};
  const conflicts: Record<string, number> = {};
  const directReadDetail: Record<string, number> = {};
  const seen = new Set<string>();
  let totalWrites = 0;
  let totalConflicts = 0;
  let directReads = 0;
  const lines = createInterface({
    input: createReadStream(path, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    // Cheap filters first: at 100k workloads the log holds millions of lines of other users.
    if (!line.startsWith('{') || !line.includes(user)) continue;
    let event: AuditEvent;
    try {
      event = JSON.parse(line) as AuditEvent;
    } catch {
      continue;
    }
    if (event.user.username !== user) continue;
    const received = Date.parse(event.requestReceivedTimestamp);
    if (received < since || received >= until) continue;
    // A request can be logged at more than one stage; count it once, at the stage that has its response code.
    if (event.stage !== 'ResponseComplete' && event.stage !== 'Panic') continue;
    if (seen.has(event.auditID)) continue;
    seen.add(event.auditID);
    const c = classify(event);
    if (c === 'direct-get' || c === 'direct-list') {
      directReads++;
      const source = /\(([^)]+)\)\s*$/.exec(event.userAgent ?? '')?.[1] ?? '?';
      const continued = event.requestURI.includes('continue=') ? '+continue' : '';
      const key = `${event.verb}${continued} ${resourceKey(event)} (${source})`;
      directReadDetail[key] = (directReadDetail[key] ?? 0) + 1;
    }
    if (c !== 'write') continue;
    const key = `${event.verb} ${resourceKey(event)}`;
    writes[key] = (writes[key] ?? 0) + 1;
    totalWrites++;
    if (event.responseStatus?.code === 409) {
      conflicts[key] = (conflicts[key] ?? 0) + 1;
      totalConflicts++;
    }
  }
  return {
    workloads,
    durationMs: until - since,
    workloadsPerSecond: until > since ? Math.round((workloads / ((until - since) / 1000)) * 100) / 100 : 0,
    writes: sorted(writes),
    conflicts: sorted(conflicts),
    totalWrites,
    totalConflicts,
    directReads,
    directReadDetail,
  };
}

function sorted(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([, a], [, b]) => b - a));
}

/** A markdown table of writes (and 409s) per workload, by verb and resource. */
export function firstPropagationTable(p: FirstPropagation): string {
  const per = (n: number) => (n / p.workloads).toFixed(2);
  const rows = Object.entries(p.writes).map(
    ([key, n]) => `| ${key} | ${n} | ${per(n)} | ${p.conflicts[key] ?? 0} |`,
  );
  return [
    '| verb resource | writes | per workload | of which 409 |',
    '|---|---:|---:|---:|',
    ...rows,
    `| **total** | ${p.totalWrites} | ${per(p.totalWrites)} | ${p.totalConflicts} |`,
  ].join('\n');
}

/**
 * A one-row markdown table of the propagation's duration and throughput, with each measured process's CPU share of
 * the machine (and its CPU seconds).
 */
export function firstPropagationSummary(p: FirstPropagation): string {
  const cpu = Object.entries(p.cpu?.seconds ?? {}).map(
    ([name, seconds]) =>
      [name, `${((p.cpu?.share[name] ?? 0) * 100).toFixed(1)}% (${seconds.toFixed(1)} s)`] as const,
  );
  const cores = p.cpu ? ` of ${p.cpu.cpus} cores` : '';
  return [
    `| workloads | duration | workloads/s |${cpu.map(([name]) => ` ${name} CPU${cores} |`).join('')}`,
    `|---:|---:|---:|${cpu.map(() => '---:|').join('')}`,
    `| ${p.workloads} | ${(p.durationMs / 1000).toFixed(1)} s | ${p.workloadsPerSecond.toFixed(2)} |${cpu.map(([, cell]) => ` ${cell} |`).join('')}`,
  ].join('\n');
}
