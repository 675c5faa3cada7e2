// The public surface of @warmstart/sync-gate: exactly what is exported here.
export { AllOfGate } from './all-of-gate.js';
export {
  DuplicateGateError,
  GateAbortedError,
  GateFailedError,
  GateStateError,
  GateTimeoutError,
  GateWaitError,
  GroupStartError,
  LifecycleStateError,
  MemberFailedError,
  RunnableFailedError,
  UnknownGateError,
  UnknownStrategyError,
} from './errors.js';
export type { EventLoopLagMonitorOptions, EventLoopLagSource } from './event-loop-lag.js';
export { EventLoopLagMonitor } from './event-loop-lag.js';
export type { GateListener, GateSnapshot, GateState, ReadonlyGate, WaitOptions } from './gate.js';
export { Gate } from './gate.js';
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
export type { ProbeServer, ProbeServerOptions } from './probe-server.js';
export { listenProbes } from './probe-server.js';
export type { HealthCheck, ProbeHandler, ProbeHandlerOptions } from './probes.js';
export { createProbeHandler } from './probes.js';
export type { ReadinessEvent, ReadinessListener } from './readiness.js';
export { Readiness } from './readiness.js';
export type { CacheSyncStrategy, CacheSyncStrategyName, CacheSyncStrategyOptions } from './strategy.js';
export {
  ALL_CACHES_GATE,
  CACHE_SYNC_STRATEGIES,
  CONTROLLERS_GROUP,
  cacheSyncStrategy,
  strategyWaits,
} from './strategy.js';
