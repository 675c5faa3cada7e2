// @warmstart/runtime: declared controllers on cache-only informers, and the Manager that runs them.
// This file is the package's whole public surface.
export type { WriteClient } from './clients.js';
export { countingReader, fencedWriter, NotLeaderError } from './clients.js';
export type {
  ControllerOptions,
  ControllerStatus,
  ErrorAction,
  ErrorPolicy,
  ForOptions,
  MapFunc,
  Predicates,
  ReconcileContext,
  ReconcileResult,
  Reconciler,
  WatchOptions,
} from './controller.js';
export { Controller } from './controller.js';
export {
  ControllerStateError,
  GroupStartError,
  LeadershipLostError,
  LifecycleStateError,
  RunnableFailedError,
  UnknownStrategyError,
} from './errors.js';
export type { ControllerHost } from './host.js';
export { informerLeaseClient, LEASES } from './lease-client.js';
export type {
  GateRef,
  GroupPhase,
  LifecycleOptions,
  LifecyclePhase,
  LifecycleReport,
  LifecycleSnapshot,
  Runnable,
  RunnableContext,
  RunnableGroup,
  RunnablePhase,
  StartOptions,
  StopOptions,
} from './lifecycle.js';
export { GROUPS, Lifecycle } from './lifecycle.js';
export type { LeaderElectionOptions, ManagerOptions, ManagerOutcome } from './manager.js';
export { Manager } from './manager.js';
export type { ControllerMetricsProvider, ReconcileResultLabel, RuntimeMetrics } from './metrics.js';
export { CONTROLLER_METRIC_NAMES } from './metrics.js';
export { ownerKeys } from './owners.js';
export type { CacheSyncStrategy, CacheSyncStrategyName, CacheSyncStrategyOptions } from './strategy.js';
export {
  ALL_CACHES_GATE,
  CACHE_SYNC_STRATEGIES,
  CONTROLLERS_GROUP,
  cacheSyncStrategy,
  strategyWaits,
} from './strategy.js';
