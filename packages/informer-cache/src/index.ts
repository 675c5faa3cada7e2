// @warmstart/informer-cache: informers whose reads wait for cache sync instead of calling the API server.
// This file is the package's whole public surface.

export { resource } from '@warmstart/meta';
export type { RequestCount, RequestFilter } from './accounting.js';
export { RequestAccounting } from './accounting.js';
export type { BackoffOptions } from './backoff.js';
export type { CacheReaderOptions, Reader, ReadOptions } from './cache-reader.js';
// Reading and writing.
export { CacheReader, DEFAULT_READ_STALL_TIMEOUT_MS } from './cache-reader.js';
export { clearsOnRetry } from './clears-on-retry.js';
export type { Clock } from './clock.js';
export type { DiscoveredResource, DiscoveryOptions } from './discovery.js';
export { discoverer, RestMapper, UnknownKindError } from './discovery.js';
export type { ClusterEndpoint, KubeConfigEndpointOptions } from './endpoint.js';
export { endpointFromKubeConfig } from './endpoint.js';
// Errors.
export {
  ApiError,
  CacheSyncTimeoutError,
  DecodeError,
  ForbiddenResourceError,
  InformerStoppedError,
  InvalidLabelSelectorError,
  InvalidSelectorError,
  NotCachedError,
  ResourceError,
  ResourceNotServedError,
} from './errors.js';
// Informers: reflector events, store, indexes, listers, handlers.
export type { ReflectorEvent } from './events.js';
export type { DirectReadCount, FallbackCacheReaderOptions } from './fallback-reader.js';
/** Legacy status-quo reader for benchmarks: falls back to direct API reads while unsynced, and counts them. */
export { FallbackCacheReader } from './fallback-reader.js';
export { apiVersionOf, collectionPath, gvrToString, keyOf, objectPath, splitKey, toKey } from './gvr.js';
export type { ResourceEventHandler } from './handlers.js';
export { DeletedFinalStateUnknown, deletedObject } from './handlers.js';
export type { HandlerRegistration, InformerOptions } from './informer.js';
export { informerGateName, SharedInformer } from './informer.js';
export { jsonEqual } from './json-equal.js';
export { KubeconfigError, type StaticEndpointOptions, staticEndpoint } from './kubeconfig-loader.js';
export type {
  LabelSelector,
  Requirement,
  RequirementOptions,
  Selector,
  SelectorOperator,
  SelectorRequirement,
} from './label-selector.js';
export {
  compileLabelSelector,
  everything,
  labelKeyProblems,
  labelSelectorMatches,
  labelValueProblems,
  nothing,
  parseSelector,
  requirementOf,
  selectorFromLabelSelector,
  selectorOf,
  toSelector,
} from './label-selector.js';
export type { ListOptions } from './lister.js';
export { Lister, NamespaceLister } from './lister.js';
export type { ForResourceOptions, InformerDefaults, InformerManagerOptions } from './manager.js';
export { InformerManager } from './manager.js';
export type {
  CacheMetrics,
  InformerLabels,
  Logger,
  ReaderWaitOutcome,
  RelistReason,
  RequestLabels,
  WatchRestartReason,
} from './metrics.js';
export { silentLogger } from './metrics.js';
export { MultiClusterInformerManager } from './multi-cluster-manager.js';
export type { MutationCacheOptions } from './mutation-cache.js';
export {
  DEFAULT_MUTATION_MAX_ENTRIES,
  DEFAULT_MUTATION_TTL_MS,
  MutationCache,
} from './mutation-cache.js';
export type { WriteMethods } from './read-your-writes.js';
export { readYourWritesReader, recordingWriter } from './read-your-writes.js';
export type { ReflectorObserver, ReflectorOptions } from './reflector.js';
export { INITIAL_EVENTS_END_ANNOTATION, Reflector } from './reflector.js';
export type { Indexer, IndexFunc, StoreSink } from './store.js';
export { NAMESPACE_INDEX, namespaceIndexFunc, RelistChanges, Store, UnknownIndexError } from './store.js';
export type { RateLimitOptions } from './token-bucket.js';
export type { Transform } from './transform.js';
export { defaultTransform, LAST_APPLIED_ANNOTATION, stripManagedFields } from './transform.js';
export type {
  ApiRequest,
  ApiResponse,
  ApiTransportOptions,
  HttpMethod,
  KubeVerb,
  StreamResponse,
} from './transport.js';
// Transport, accounting, metrics.
export { ApiTransport, DEFAULT_RATE_LIMIT, INFORMER_SOURCE } from './transport.js';
// Resources and objects.
export type {
  DeepReadonly,
  GroupVersionResource,
  KubeObject,
  KubeObjectInput,
  KubeStatus,
  ObjectKey,
  ObjectMeta,
  ObjectOf,
  OwnerReference,
  Resource,
  WaitOptions,
} from './types.js';
export type { DeleteOptions, JsonPatchOperation, Patch, WriteOptions, WriterOptions } from './writer.js';
export { PATCH_CONTENT_TYPES, Writer } from './writer.js';
