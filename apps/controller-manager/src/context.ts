// What a controller is built from. Controllers are runtime Controllers of the manager: they get a Reader
// (caches only) and a write-only client per cluster from it, never an API client that can read.
import type { InformerManager, MultiClusterInformerManager } from '@warmstart/informer-cache';
import type { Manager } from '@warmstart/runtime';
import type { Logger } from './logger.js';
import type { ManagerMetrics } from './metrics.js';
import type { ManagerOptions } from './options.js';

export interface ManagerContext {
  readonly options: ManagerOptions;
  readonly log: Logger;
  readonly metrics: ManagerMetrics;
  /** The runtime Manager the controllers are built on (informers, fenced writers, counting readers). */
  readonly manager: Manager;
  /** The control plane's informers (the manager's); controllers register what they need before start. */
  readonly host: InformerManager;
  /** Member clusters' informers, created by the cluster controller as Clusters appear. */
  readonly members: MultiClusterInformerManager;
  /** True while this process leads (always true with --leader-elect=false). */
  isLeader(): boolean;
}
