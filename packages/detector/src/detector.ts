// The ResourceDetector controller: it watches every propagatable resource and the policies through the control
// plane's InformerManager, and keeps each template's claim and ResourceBinding in line with the policy that wins
// it. It reads only through the Reader it is given (cache reads that wait for sync) and writes only through the
// write client; it never GETs.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  apiVersionOf,
  BuiltinResources,
  type ClusterPropagationPolicy,
  KarmadaResources,
  type KubeObject,
  type PropagationPolicy,
} from '@warmstart/api';
import {
  type InformerManager,
  type Logger,
  type MutationCache,
  type Reader,
  type ResourceEventHandler,
  silentLogger,
} from '@warmstart/informer-cache';
import {
  Controller,
  type ControllerHost,
  type ControllerMetricsProvider,
  type ControllerStatus,
  countingReader,
} from '@warmstart/runtime';
import type { WorkQueueMetricsProvider } from '@warmstart/workqueue';
import { DetectorCache } from './detector-cache.js';
import { type DetectorContext, type DetectorFeatureGates, resolveGates } from './detector-context.js';
import { type DiscoveredResource, propagatableResources, TemplateResources } from './discovery.js';
import { DetectorStateError } from './errors.js';
import { bindingHandler, policyHandler, templateHandler } from './event-handlers.js';
import type { EventSink } from './events.js';
import { encodeTemplateKey } from './keys.js';
import { isLazy } from './lazy-activation.js';
import { withOwnWrites } from './own-writes.js';
import type { PolicyKind } from './policy-kinds.js';
import { PolicyReconciler, unknownKindsOf } from './policy-reconciler.js';
import type { ReplicaInterpretation } from './replicas.js';
import { parseSkippedPropagatingApis, type SkippedResourceConfig } from './skipped-apis.js';
import { compileSkippedNamespaces, DEFAULT_SKIPPED_NAMESPACES } from './skipped-namespaces.js';
import { SpecChanges } from './spec-changes.js';
import { TemplateReconciler } from './template-reconciler.js';
import { WaitingList } from './waiting-list.js';
import type { DetectorWriteClient } from './write-client.js';

/** Karmada re-discovers resources every 30 s. */
export const DEFAULT_DISCOVERY_INTERVAL_MS = 30_000;

/** Karmada's defaults: --concurrent-resource-template-syncs 5, --concurrent-(cluster-)propagation-policy-syncs 1. */
export const DEFAULT_DETECTOR_CONCURRENCY = {
  templates: 5,
  propagationPolicies: 1,
  clusterPropagationPolicies: 1,
} as const;

/** The names of the detector's queues, as status() and the work-queue metrics report them. */
export const DetectorQueues = {
  templates: 'resource-detector',
  propagationPolicies: 'propagation-policy-reconciler',
  clusterPropagationPolicies: 'cluster-propagation-policy-reconciler',
} as const;

export interface ResourceDetectorOptions {
  /** The control plane's; the detector registers every informer it needs here. */
  readonly informers: InformerManager;
  /** The only way the detector reads: cache reads that wait for sync. */
  readonly reader: Reader;
  /** The only way the detector writes (the manager's refuses writes when not leader). */
  readonly writer: DetectorWriteClient;
  /** One discovery pass; the manager implements it with non-resource GETs (/api, /apis, ...). */
  readonly discover: (signal: AbortSignal) => Promise<readonly DiscoveredResource[]>;
  /** --skipped-propagating-apis: `<group>`, `<group>/<version>`, `v1/<Kind>[,<Kind>]`, `<group>/<version>/<Kind>[,<Kind>]`, `;`-separated. */
  readonly skippedPropagatingApis?: string | undefined;
  /** --skipped-propagating-namespaces: regular expressions anchored as ^…$. Default `kube-.*`. */
  readonly skippedPropagatingNamespaces?: readonly string[] | undefined;
  readonly concurrency?:
    | {
        readonly templates?: number | undefined;
        readonly propagationPolicies?: number | undefined;
        readonly clusterPropagationPolicies?: number | undefined;
      }
    | undefined;
  /** Milliseconds between discovery passes; default 30 s. */
  readonly discoveryIntervalMs?: number | undefined;
  readonly logger?: Logger | undefined;
  readonly workqueueMetrics?: WorkQueueMetricsProvider | undefined;
  /** controller_runtime_* metrics of the three queues. */
  readonly controllerMetrics?: ControllerMetricsProvider | undefined;
  /** Where Events go; the manager creates core/v1 Events through its writer. Default: none. */
  readonly events?: EventSink | undefined;
  /** Karmada feature gates that change the detector (PolicyPreemption, PriorityBasedScheduling, ...). */
  readonly featureGates?: DetectorFeatureGates | undefined;
  /** Replica interpretation for kinds beyond Deployment, StatefulSet, Job and Pod. */
  readonly interpretReplicas?: ((template: KubeObject) => ReplicaInterpretation | undefined) | undefined;
  /**
   * Where the detector's writes are laid over its reads until the informers catch up: a MutationCache shared with
   * other controllers, a cache of its own (default), or false when `reader` and `writer` already do this.
   */
  readonly readYourWrites?: MutationCache | false | undefined;
}

/** One queue's state for the dashboard: its runtime Controller's status. */
export type DetectorQueueStatus = ControllerStatus;

/** One of the detector's queues: a runtime Controller and the typed reads of its reconciles. */
interface Lane {
  readonly controller: Controller;
  readonly cache: DetectorCache;
}

type DetectorState = 'new' | 'prepared' | 'started' | 'stopped';

export class ResourceDetector {
  readonly #o: ResourceDetectorOptions;
  readonly #logger: Logger;
  readonly #skippedApis: SkippedResourceConfig;
  readonly #skippedNamespaces: readonly RegExp[];
  readonly #resources = new TemplateResources();
  readonly #waiting = new WaitingList();
  /** Stops workers taking keys and the discovery loop. */
  readonly #closing = new AbortController();
  /** Aborts reads and writes in flight: when stop's deadline passes. */
  readonly #hard = new AbortController();
  readonly #templates: Lane;
  readonly #pps: Lane;
  readonly #cpps: Lane;
  readonly #ctx: DetectorContext;
  readonly #templateHandler: ResourceEventHandler;
  readonly #host: ControllerHost;
  readonly #reportedProblems = new Map<string, string>();
  #state: DetectorState = 'new';
  #discoveryLoop: Promise<void> | undefined;

  /** Throws InvalidFlagError for a malformed skip flag. */
  constructor(given: ResourceDetectorOptions) {
    const options = withOwnWrites(given);
    this.#o = options;
    this.#logger = options.logger ?? silentLogger;
    this.#skippedApis = parseSkippedPropagatingApis(options.skippedPropagatingApis ?? '');
    this.#skippedNamespaces = compileSkippedNamespaces(
      options.skippedPropagatingNamespaces ?? DEFAULT_SKIPPED_NAMESPACES,
    );
    const concurrency = { ...DEFAULT_DETECTOR_CONCURRENCY, ...definedOnly(options.concurrency ?? {}) };
    // The detector's three Controllers run on the caller's informers, reader and writer; it starts and stops
    // them itself (as one runnable of the manager), so `add` has nothing to do.
    this.#host = {
      informers: options.informers,
      log: this.#logger,
      metrics: { workqueue: options.workqueueMetrics, controllers: options.controllerMetrics },
      reader: (onWait) => countingReader(options.reader, options.informers, onWait),
      writer: () => options.writer,
      add: () => {},
    };
    this.#templates = this.#lane(DetectorQueues.templates, concurrency.templates);
    this.#pps = this.#lane(DetectorQueues.propagationPolicies, concurrency.propagationPolicies);
    this.#cpps = this.#lane(
      DetectorQueues.clusterPropagationPolicies,
      concurrency.clusterPropagationPolicies,
    );

    const gates = resolveGates(options.featureGates);
    const sink = options.events;
    this.#ctx = {
      writer: options.writer,
      resources: this.#resources,
      waiting: this.#waiting,
      specChanges: new SpecChanges(),
      gates,
      bindingOptions: {
        priorityBasedScheduling: gates.priorityBasedScheduling,
        workloadAffinity: gates.workloadAffinity,
        resourceQuotaEstimate: gates.resourceQuotaEstimate,
        ...(options.interpretReplicas === undefined ? {} : { interpretReplicas: options.interpretReplicas }),
      },
      logger: this.#logger,
      emit: (object, type, reason, message) => {
        if (sink === undefined) return;
        try {
          sink(object, type, reason, message);
        } catch (error) {
          this.#logger.warn('event sink failed', { reason, error: String(error) });
        }
      },
      enqueueTemplate: (key, priority) =>
        this.#templates.controller.queue.add(
          encodeTemplateKey(key),
          priority === undefined ? undefined : { priority },
        ),
      enqueuePolicy: (kind, key, priority) =>
        this.#laneOf(kind).controller.queue.add(key, priority === undefined ? undefined : { priority }),
    };
    const handlerCache = new DetectorCache(options.reader, this.#hard.signal);
    this.#templateHandler = templateHandler({
      skippedNamespaces: this.#skippedNamespaces,
      enqueue: this.#ctx.enqueueTemplate,
      specChanges: this.#ctx.specChanges,
      claimIsLazy: async (claim) => {
        const policy =
          claim.kind === 'PropagationPolicy'
            ? await handlerCache.propagationPolicy(claim.namespace, claim.name)
            : await handlerCache.clusterPropagationPolicy(claim.name);
        return policy !== undefined && isLazy(policy);
      },
      logger: this.#logger,
    });
  }

  /**
   * Registers every informer the detector needs: policies (with handlers), bindings and priority classes (read
   * only), and one informer per propagatable template resource found by one discovery pass. Call it before the
   * manager starts its informers; it does not wait for any sync. A failed discovery is logged and retried by
   * the discovery loop once the detector runs.
   */
  async prepare(signal: AbortSignal): Promise<void> {
    if (this.#state !== 'new') return;
    this.#state = 'prepared';
    const { informers } = this.#o;
    const peers = this.#ctx.gates.policyPreemption;
    const peerCache = new DetectorCache(this.#o.reader, this.#hard.signal);
    this.#pps.controller.watchesRaw(
      KarmadaResources.PropagationPolicy,
      policyHandler({
        kind: 'PropagationPolicy',
        enqueue: (key, priority) => this.#ctx.enqueuePolicy('PropagationPolicy', key, priority),
        ...(peers
          ? {
              peers: (p: PropagationPolicy | ClusterPropagationPolicy) =>
                peerCache.propagationPolicies(p.metadata.namespace ?? ''),
            }
          : {}),
        logger: this.#logger,
      }),
    );
    this.#cpps.controller.watchesRaw(
      KarmadaResources.ClusterPropagationPolicy,
      policyHandler({
        kind: 'ClusterPropagationPolicy',
        enqueue: (key, priority) => this.#ctx.enqueuePolicy('ClusterPropagationPolicy', key, priority),
        ...(peers ? { peers: () => peerCache.clusterPropagationPolicies() } : {}),
        logger: this.#logger,
      }),
    );
    const onBindingDelete = bindingHandler({ enqueue: this.#ctx.enqueueTemplate, logger: this.#logger });
    this.#templates.controller.watchesRaw(KarmadaResources.ResourceBinding, onBindingDelete);
    this.#templates.controller.watchesRaw(KarmadaResources.ClusterResourceBinding, onBindingDelete);
    informers.forResource(BuiltinResources.PriorityClass);
    await this.#discoverOnce(signal);
  }

  /** Starts the queues' workers and the discovery loop; resolves once they run. Call prepare() first. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#state === 'new') await this.prepare(signal);
    if (this.#state !== 'prepared') {
      throw new DetectorStateError(
        `ResourceDetector.start() called when ${this.#state}; a detector starts once, create a new one to start again`,
      );
    }
    this.#state = 'started';
    if (signal.aborted) this.#closing.abort(signal.reason);
    else signal.addEventListener('abort', () => this.#closing.abort(signal.reason), { once: true });

    const templates = new TemplateReconciler(this.#ctx, this.#templates.cache);
    const pps = new PolicyReconciler(this.#ctx, this.#pps.cache, this.#reportedProblems);
    const cpps = new PolicyReconciler(this.#ctx, this.#cpps.cache, this.#reportedProblems);
    this.#templates.controller.reconcile((key, { signal: s }) => templates.reconcile(key, s));
    this.#pps.controller.reconcile((key, { signal: s }) => pps.reconcile('PropagationPolicy', key, s));
    this.#cpps.controller.reconcile((key, { signal: s }) =>
      cpps.reconcile('ClusterPropagationPolicy', key, s),
    );
    await Promise.all(this.#lanes().map((lane) => lane.controller.start(signal)));
    this.#discoveryLoop = this.#loopDiscovery();
    this.#logger.info('resource detector started', {
      resources: this.#resources.size,
      queued: this.#lanes().reduce((n, lane) => n + lane.controller.queue.depth, 0),
    });
  }

  /**
   * Stops taking keys and discovering; reconciles in flight may finish until `deadline` aborts, then their reads
   * and writes are aborted. Handlers are removed, so the InformerManager may serve another detector later.
   */
  async stop(deadline: AbortSignal): Promise<void> {
    if (this.#state === 'stopped') return;
    this.#state = 'stopped';
    this.#closing.abort(new DetectorStateError('the resource detector is stopping'));
    const running = Promise.all([
      ...this.#lanes().map((lane) => lane.controller.stop(deadline)),
      this.#discoveryLoop,
    ]);
    const onDeadline = (): void => this.#hard.abort(deadline.reason);
    if (deadline.aborted) onDeadline();
    else deadline.addEventListener('abort', onDeadline, { once: true });
    try {
      await running;
    } finally {
      deadline.removeEventListener('abort', onDeadline);
      this.#hard.abort(new DetectorStateError('the resource detector stopped'));
    }
  }

  /** Queue depth, keys in flight, reader waits and the last failure of each queue, for the dashboard. */
  status(): readonly DetectorQueueStatus[] {
    return this.#lanes().map((lane) => lane.controller.status());
  }

  /** Templates no policy matches yet. */
  get waitingTemplates(): number {
    return this.#waiting.size;
  }

  /** The template resources watched, as `group/version/resource`. */
  watchedResources(): string[] {
    return this.#resources.all().map((r) => `${r.group || 'core'}/${r.version}/${r.resource}`);
  }

  #lane(name: string, concurrency: number): Lane {
    const controller = new Controller(this.#host, { name, concurrency });
    return { controller, cache: new DetectorCache(controller.reader, this.#hard.signal) };
  }

  #lanes(): Lane[] {
    return [this.#templates, this.#pps, this.#cpps];
  }

  #laneOf(kind: PolicyKind): Lane {
    return kind === 'PropagationPolicy' ? this.#pps : this.#cpps;
  }

  /** One discovery pass: informers (with the template handler) for resources not watched yet. */
  async #discoverOnce(signal: AbortSignal): Promise<void> {
    let discovered: readonly DiscoveredResource[];
    try {
      discovered = await this.#o.discover(signal);
    } catch (error) {
      if (signal.aborted) return;
      this.#logger.warn('resource discovery failed; retrying at the next pass', { error: String(error) });
      return;
    }
    const added: string[] = [];
    const later = this.#resources.discovered;
    for (const gvr of propagatableResources(discovered, this.#skippedApis)) {
      if (this.#resources.byApiVersionKind(apiVersionOf(gvr), gvr.kind) !== undefined) continue;
      try {
        // Policies and bindings are skipped by group, so no informer here carries a detector handler yet.
        this.#templates.controller.watchesRaw(gvr, this.#templateHandler);
      } catch (error) {
        // The InformerManager was stopped under us (the process is shutting down).
        this.#logger.warn('could not watch a discovered resource', {
          resource: gvr.resource,
          error: String(error),
        });
        return;
      }
      this.#resources.add(gvr);
      added.push(`${gvr.group || 'core'}/${gvr.version}/${gvr.resource}`);
    }
    this.#resources.markDiscovered();
    if (added.length > 0)
      this.#logger.info('watching resource templates', { added, total: this.#resources.size });
    if (added.length > 0 && later) this.#recheckUnknownKinds();
  }

  /** A kind that became served (a CRD installed): the policies last reported to select an unknown kind look again. */
  #recheckUnknownKinds(): void {
    for (const kind of ['PropagationPolicy', 'ClusterPropagationPolicy'] as const) {
      const gvr =
        kind === 'PropagationPolicy'
          ? KarmadaResources.PropagationPolicy
          : KarmadaResources.ClusterPropagationPolicy;
      for (const p of this.#o.informers.informer(gvr)?.lister.list() ?? []) {
        if (unknownKindsOf(this.#reportedProblems.get(p.metadata.uid ?? '')).length === 0) continue;
        const key = p.metadata.namespace ? `${p.metadata.namespace}/${p.metadata.name}` : p.metadata.name;
        this.#ctx.enqueuePolicy(kind, key);
      }
    }
  }

  async #loopDiscovery(): Promise<void> {
    const interval = this.#o.discoveryIntervalMs ?? DEFAULT_DISCOVERY_INTERVAL_MS;
    const signal = this.#closing.signal;
    // A failed first pass (in prepare) is retried at once; otherwise the next pass waits an interval.
    if (!this.#resources.discovered) await this.#discoverOnce(signal);
    while (!signal.aborted) {
      try {
        await sleep(interval, undefined, { signal });
      } catch {
        return;
      }
      await this.#discoverOnce(signal);
    }
  }
}

function definedOnly<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
