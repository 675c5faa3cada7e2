// Which Cluster updates can move a placement. The scheduler reads a Cluster's labels (cluster affinity), its spec
// (taints, provider, region, zones), its status (readiness, API enablements) and whether it is being deleted.
// Anything else (annotations, finalizers, managed fields) leaves every placement as it was; since a move means
// requeueing every binding, 100,000 of them, those updates must not count.
import { jsonEqual } from './json.js';

/** The parts of a Cluster this looks at; a cached Cluster (typed as any KubeObject) has them. */
export interface ClusterVersion {
  readonly metadata: {
    readonly labels?: Readonly<Record<string, string>> | undefined;
    readonly deletionTimestamp?: string | undefined;
  };
  readonly spec?: unknown;
  readonly status?: unknown;
}

export function clusterChangeCanMovePlacements(old: ClusterVersion, next: ClusterVersion): boolean {
  return (
    !jsonEqual(old.metadata.labels ?? {}, next.metadata.labels ?? {}) ||
    (old.metadata.deletionTimestamp === undefined) !== (next.metadata.deletionTimestamp === undefined) ||
    !jsonEqual(old.spec, next.spec) ||
    !jsonEqual(old.status, next.status)
  );
}
