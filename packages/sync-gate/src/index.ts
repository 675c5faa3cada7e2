export { Gate } from './gate.js';
export type { GateListener, GateSnapshot, GateState, WaitOptions } from './gate.js';
export {
  GateAbortedError,
  GateFailedError,
  GateStateError,
  GateTimeoutError,
  GateWaitError,
} from './errors.js';
