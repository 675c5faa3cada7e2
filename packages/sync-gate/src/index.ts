// The public surface of @warmstart/sync-gate: exactly what is exported here.
export { AllOfGate } from './all-of-gate.js';
/** Renders any thrown value or failure cause as one line of text (for messages that wrap a cause). */
export {
  DuplicateGateError,
  describe as describeCause,
  GateAbortedError,
  GateFailedError,
  GateStateError,
  GateTimeoutError,
  GateWaitError,
  MemberFailedError,
  UnknownGateError,
} from './errors.js';
export type { EventLoopLagMonitorOptions, EventLoopLagSource } from './event-loop-lag.js';
export { EventLoopLagMonitor } from './event-loop-lag.js';
export type {
  EventLoopStall,
  EventLoopStallRecorderOptions,
  EventLoopStallTotals,
  GcPause,
  GcPauseSource,
  GcPauseSubscription,
  StallClock,
} from './event-loop-stalls.js';
export { EventLoopStallRecorder } from './event-loop-stalls.js';
export type { GateListener, GateSnapshot, GateState, ReadonlyGate, WaitOptions } from './gate.js';
export { Gate } from './gate.js';
export type { ProbeServer, ProbeServerOptions } from './probe-server.js';
export { listenProbes } from './probe-server.js';
export type { HealthCheck, ProbeHandler, ProbeHandlerOptions } from './probes.js';
export { createProbeHandler } from './probes.js';
export type { ReadinessEvent, ReadinessListener } from './readiness.js';
export { ALL_CACHES_GATE, Readiness } from './readiness.js';
