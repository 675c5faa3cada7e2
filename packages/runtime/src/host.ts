// What a Controller needs of its Manager; the Manager implements it, and a test can with a few lines.
import type { InformerManager, Logger, Reader } from '@warmstart/informer-cache';
import type { WriteClient } from './clients.js';
import type { Runnable } from './lifecycle.js';
import type { RuntimeMetrics } from './metrics.js';

export interface ControllerHost {
  /** The cluster's informers: a controller registers the ones it watches while it is built. */
  readonly informers: InformerManager;
  readonly log: Logger;
  readonly metrics?: RuntimeMetrics | undefined;
  /** A cache reader whose waits for an unsynced informer are reported to `onWait`. */
  reader(onWait: () => void): Reader;
  /** A leader-fenced write-only client whose requests are accounted to `source`. */
  writer(source: string): WriteClient;
  /**
   * Runs a controller (or any runnable that must only run while leading, such as a discovery loop) with the
   * others: it starts when this process leads and, under gate-start, once every cache has synced.
   */
  add(runnable: Runnable): void;
}
