// The controller manager as a library: run it in-process (tests, embedding), reuse its flag parsing, or serve
// its dashboard over your own status source. The binary is main.ts.
export { fencedWriter, NotLeaderError, type WriteClient } from '@warmstart/runtime';
export {
  type ControllerStatus,
  createDashboardHandler,
  type DashboardStatus,
  type InformerStatus,
  listenDashboard,
  type StatusSource,
} from './dashboard/index.js';
export { createLogger } from './logger.js';
export {
  LeadershipLostError,
  type ListeningAddresses,
  type ManagerOutcome,
  type RunOptions,
  runManager,
} from './manager.js';
export { type EventLoopStallSource, ManagerMetrics, type ManagerMetricsOptions } from './metrics.js';
export {
  CACHE_SYNC_STRATEGIES,
  CONTROLLERS,
  FLAGS,
  FlagError,
  helpText,
  type ManagerOptions,
  parseOptions,
} from './options.js';
