export {
  type ElectionOutcome,
  LeaderElectionConfigError,
  LeaderElector,
  type LeaderElectorOptions,
} from './leader-elector.js';
export { isConflict, type Lease, type LeaseClient, type LeaseSpec, microTime } from './lease.js';
