// A ResourceDetector wired to informer-cache's in-process fake API server, for unit tests of the controller.
// Kept out of the published build (tsconfig.build.json excludes src/testing).
import {
  BuiltinResources,
  type GroupVersionResource,
  KarmadaResources,
  type KubeObject,
} from '@warmstart/api';
import { ApiTransport, CacheReader, InformerManager, Writer } from '@warmstart/informer-cache';
import { FakeApiServer, type RecordedRequest, Recorder, until } from '@warmstart/informer-cache/testing';
import { ResourceDetector, type ResourceDetectorOptions } from '../detector.js';
import type { DiscoveredResource } from '../discovery.js';
import type { EventType } from '../events.js';

const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

export function discovered(gvr: GroupVersionResource): DiscoveredResource {
  return { ...gvr, verbs: VERBS };
}

/** What the fake serves: templates, policies, bindings, priority classes. */
export const SERVED: readonly GroupVersionResource[] = [
  BuiltinResources.Deployment,
  BuiltinResources.ConfigMap,
  BuiltinResources.ClusterRole,
  BuiltinResources.PriorityClass,
  KarmadaResources.PropagationPolicy,
  KarmadaResources.ClusterPropagationPolicy,
  KarmadaResources.ResourceBinding,
  KarmadaResources.ClusterResourceBinding,
];

export interface RecordedEvent {
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
  readonly kind: string | undefined;
  readonly name: string | undefined;
}

export interface RunningDetector {
  readonly detector: ResourceDetector;
  readonly manager: InformerManager;
  readonly events: Recorder<RecordedEvent>;
  /** Index into server.requests where this detector's requests begin. */
  readonly firstRequest: number;
  /** Waits until every queue is empty, nothing is in flight or delayed. */
  idle(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export class DetectorFixture {
  readonly server: FakeApiServer;
  /** What the next discovery pass reports; tests add to it. */
  readonly discovery: DiscoveredResource[];
  readonly #running: RunningDetector[] = [];

  static async start(): Promise<DetectorFixture> {
    return new DetectorFixture(await FakeApiServer.start());
  }

  private constructor(server: FakeApiServer) {
    this.server = server;
    for (const gvr of SERVED) server.addResource(gvr);
    this.discovery = SERVED.map(discovered);
  }

  /** Prepares and starts a detector with a fresh InformerManager, as a manager process would. */
  async run(options: Partial<ResourceDetectorOptions> = {}): Promise<RunningDetector> {
    const firstRequest = this.server.requests.length;
    const manager = new InformerManager({ transport: new ApiTransport(this.server.endpoint()) });
    const reader = new CacheReader(manager, { timeoutMs: 5_000 });
    const writer = new Writer(manager.transport, { source: 'resource-detector' });
    const events = new Recorder<RecordedEvent>();
    const abort = new AbortController();
    const detector = new ResourceDetector({
      informers: manager,
      reader,
      writer,
      discover: async () => [...this.discovery],
      events: (object, type, reason, message) =>
        events.push({ type, reason, message, kind: object.kind, name: object.metadata.name }),
      featureGates: { policyPreemption: true },
      ...options,
    });
    await detector.prepare(abort.signal);
    manager.start(abort.signal);
    await detector.start(abort.signal);
    const running: RunningDetector = {
      detector,
      manager,
      events,
      firstRequest,
      idle: async (timeoutMs = 5_000) => {
        await manager.waitForSync({ timeoutMs });
        await until(
          () => detector.status().every((q) => q.queueDepth === 0 && q.inFlight === 0 && q.delayed === 0),
          timeoutMs,
          'detector queues drained',
        );
      },
      stop: async () => {
        await detector.stop(AbortSignal.timeout(5_000));
        abort.abort();
        await manager.stop();
      },
    };
    this.#running.push(running);
    return running;
  }

  object<T = KubeObject>(gvr: GroupVersionResource, key: string): T | undefined {
    return this.server.get(gvr, key) as T | undefined;
  }

  /** Resolves once `check` returns a value other than undefined (or false). */
  async eventually<T>(check: () => T | undefined | false, timeoutMs = 5_000, what = 'condition'): Promise<T> {
    let value: T | undefined | false;
    await until(
      () => {
        value = check();
        return value !== undefined && value !== false;
      },
      timeoutMs,
      what,
    );
    return value as T;
  }

  /** The requests made since `from` that change something. */
  writesSince(from: number): RecordedRequest[] {
    return this.server.requests
      .slice(from)
      .filter((r) => ['create', 'update', 'patch', 'delete', 'deletecollection'].includes(r.verb));
  }

  async close(): Promise<void> {
    for (const r of this.#running.splice(0)) await r.stop();
    await this.server.close();
  }
}
