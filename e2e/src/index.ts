export {
  type AuditEvent,
  type AuditFilter,
  type AuditSummary,
  type ClassifiedEvent,
  classify,
  isDirectRead,
  type RequestClass,
  readAuditLog,
  summarize,
} from './audit/audit-log.js';
export { type Binaries, BinaryBuildError, binaryPaths, ensureBinaries } from './cluster/binaries.js';
export { KindProvider, kindClusterConfig } from './cluster/kind-provider.js';
export {
  ADMIN_USER,
  freePort,
  type LocalCluster,
  type LocalClusterSet,
  LocalProvider,
  MANAGER_GROUP,
  MANAGER_USER,
} from './cluster/local-provider.js';
export type {
  Availability,
  ClusterInfo,
  ClusterProvider,
  ClusterSet,
  UpOptions,
} from './cluster/provider.js';
export { defaultClusterNames, ProviderUnavailableError } from './cluster/provider.js';
export { ConditionTimeoutError, waitFor } from './cluster/wait.js';
