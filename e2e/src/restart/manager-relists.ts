// What an idle manager relisted while the bench measured a floor. With the host's watch cache off (the 100k run
// turns it off for Works and ResourceBindings) kube-apiserver sends an idle watch no bookmarks, so the watch's
// resourceVersion stops moving; once etcd compacts past it the next watch answers 410 and the informer lists
// every object again. A floor measured meanwhile shares the API server with that list: at 100k the floor just
// before the first restart took 361 s against the run's 196 s.
const METRIC = 'warmstart_informer_relists_total';

export interface RelistCount {
  readonly cluster: string;
  readonly resource: string;
  /** expired (410 Gone), error or watchdog; the initial list of each informer is not counted. */
  readonly reason: string;
  readonly count: number;
}

function labelValue(labels: string, name: string): string | undefined {
  return new RegExp(`(?:^|,)${name}="([^"]*)"`).exec(labels)?.[1];
}

/** The relists counted so far in a manager's Prometheus text, by cluster, resource and reason (initial left out). */
export function relistCounts(metrics: string): RelistCount[] {
  const out: RelistCount[] = [];
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${METRIC}{`)) continue;
    const close = line.indexOf('}');
    const labels = line.slice(METRIC.length + 1, close);
    const count = Number(line.slice(close + 1).trim());
    const cluster = labelValue(labels, 'cluster');
    const resource = labelValue(labels, 'resource');
    const reason = labelValue(labels, 'reason');
    if (cluster === undefined || resource === undefined || reason === undefined || reason === 'initial')
      continue;
    if (!Number.isFinite(count)) continue;
    out.push({ cluster, resource, reason, count });
  }
  return out;
}

/** The relists counted in `after` and not yet in `before`. */
export function relistsBetween(before: readonly RelistCount[], after: readonly RelistCount[]): RelistCount[] {
  const key = (r: RelistCount) => `${r.cluster}\u0000${r.resource}\u0000${r.reason}`;
  const earlier = new Map(before.map((r) => [key(r), r.count]));
  return after.map((r) => ({ ...r, count: r.count - (earlier.get(key(r)) ?? 0) })).filter((r) => r.count > 0);
}

/** "none", or each relist as `cluster resource (reason)`, with a count where it relisted more than once. */
export function describeRelists(relists: readonly RelistCount[] | undefined): string {
  if (relists === undefined) return 'not read';
  if (relists.length === 0) return 'none';
  return relists
    .map((r) => `${r.cluster} ${r.resource} (${r.reason})${r.count > 1 ? ` x${r.count}` : ''}`)
    .join(', ');
}
