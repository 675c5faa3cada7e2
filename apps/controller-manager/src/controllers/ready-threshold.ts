// A Cluster's Ready condition flips only after the member has answered (or failed) its health check for a while,
// as Karmada's cluster status controller does (--cluster-success-threshold, --cluster-failure-threshold, 30 s
// each): one health check lost to a busy member or network must not take the member out of every placement. The
// scheduler only places onto Ready clusters, so a single failed probe used to drop the member from every
// Duplicated binding rescheduled meanwhile, and the execution controller stopped applying to it.
//
// Memory is per process, like Karmada's: the first check of a Cluster after a start is written as observed.
export interface ReadyThresholds {
  /** How long a recovered member must stay healthy before a not-Ready Cluster is Ready again. */
  readonly successMs: number;
  /** How long a Ready member must stay unhealthy before its Cluster is marked not Ready. */
  readonly failureMs: number;
}

interface Observed {
  /** The status the health check last reported. */
  readonly status: string;
  /** When the health check started reporting it. */
  readonly since: number;
}

export class ReadyThreshold {
  readonly #observed = new Map<string, Observed>();

  constructor(
    private readonly thresholds: ReadyThresholds,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether the Cluster keeps the Ready status it holds (`current`, absent when it has none) although the health
   * check now says `observed`: true while that flips Ready and the check has not said it for the threshold yet.
   */
  holds(cluster: string, current: string | undefined, observed: string): boolean {
    const now = this.now();
    let saved = this.#observed.get(cluster);
    if (saved === undefined) {
      this.#observed.set(cluster, { status: observed, since: now });
      return false;
    }
    if (current === undefined) return false;
    if (saved.status !== observed) {
      saved = { status: observed, since: now };
      this.#observed.set(cluster, saved);
    }
    const recovering = observed === 'True';
    const flips = recovering ? current !== 'True' : current === 'True';
    const threshold = recovering ? this.thresholds.successMs : this.thresholds.failureMs;
    return flips && now < saved.since + threshold;
  }

  /** Forgets a Cluster that was deleted, so one joining again under its name starts afresh. */
  forget(cluster: string): void {
    this.#observed.delete(cluster);
  }
}
