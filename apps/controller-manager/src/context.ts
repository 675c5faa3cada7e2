// What a controller is built from. Controllers get a Reader (caches only) and a WriteClient (no reads) per
// cluster, never an API client that can read.
import type { InformerManager, MultiClusterInformerManager, Reader } from '@warmstart/informer-cache';
import type { WriteClient } from './clients.js';
import type { Logger } from './logger.js';
import type { ManagerMetrics } from './metrics.js';
import type { ManagerOptions } from './options.js';

export interface ManagerContext {
  readonly options: ManagerOptions;
  readonly log: Logger;
  readonly metrics: ManagerMetrics;
  /** The control plane's informers; controllers register what they need here before start. */
  readonly host: InformerManager;
  /** Member clusters' informers, created by the cluster controller as Clusters appear. */
  readonly members: MultiClusterInformerManager;
  /** A cache reader for the host whose waits are reported to `onWait` (the controller's dashboard row). */
  reader(controller: { readerWaited(): void }): Reader;
  /** A leader-fenced write-only client for the host whose requests are accounted to `source`. */
  writer(source: string): WriteClient;
  /** True while this process leads (always true with --leader-elect=false). */
  isLeader(): boolean;
}
