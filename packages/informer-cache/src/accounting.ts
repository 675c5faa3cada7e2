// Counts every request the process sends, by verb, resource, source and status code, so a benchmark or a test can
// say exactly which requests were made (and the API server's audit log can be checked against it).
import type { RequestLabels } from './metrics.js';

export interface RequestCount extends RequestLabels {
  readonly count: number;
}

export type RequestFilter = Partial<RequestLabels>;

export class RequestAccounting {
  readonly #counts = new Map<string, { labels: RequestLabels; count: number }>();

  record(labels: RequestLabels): void {
    const key = `${labels.cluster}\u0000${labels.verb}\u0000${labels.resource}\u0000${labels.source}\u0000${labels.code}`;
    const entry = this.#counts.get(key);
    if (entry === undefined) this.#counts.set(key, { labels: { ...labels }, count: 1 });
    else entry.count++;
  }

  /** How many requests matched every given label. */
  count(filter: RequestFilter = {}): number {
    let n = 0;
    for (const { labels, count } of this.#counts.values()) if (matches(labels, filter)) n += count;
    return n;
  }

  /** One row per distinct label set, sorted for stable output. */
  snapshot(filter: RequestFilter = {}): RequestCount[] {
    return [...this.#counts.values()]
      .filter((e) => matches(e.labels, filter))
      .map((e) => ({ ...e.labels, count: e.count }))
      .sort((a, b) =>
        `${a.cluster} ${a.source} ${a.verb} ${a.resource} ${a.code}`.localeCompare(
          `${b.cluster} ${b.source} ${b.verb} ${b.resource} ${b.code}`,
        ),
      );
  }

  reset(): void {
    this.#counts.clear();
  }
}

function matches(labels: RequestLabels, filter: RequestFilter): boolean {
  return (
    (filter.cluster === undefined || filter.cluster === labels.cluster) &&
    (filter.verb === undefined || filter.verb === labels.verb) &&
    (filter.resource === undefined || filter.resource === labels.resource) &&
    (filter.source === undefined || filter.source === labels.source) &&
    (filter.code === undefined || filter.code === labels.code)
  );
}
