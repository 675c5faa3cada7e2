// The manager's read-only status page: which caches are still listing, what each controller waits for,
// the leader, and the direct-reads counter, live over server-sent events. See README.md.
export { DashboardListenError } from './errors.js';
export { createDashboardHandler, type DashboardHandler, type DashboardHandlerOptions } from './handler.js';
export { type DashboardServer, type DashboardServerOptions, listenDashboard } from './server.js';
export type {
  ControllerStatus,
  DashboardStatus,
  InformerStatus,
  StatusSource,
} from './status.js';
