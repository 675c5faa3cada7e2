// The ResourceDetector (@warmstart/detector) as one of the manager's controllers: it registers its informers
// when built (one discovery pass), and starts its queues when this process leads.
import { ResourceDetector } from '@warmstart/detector';
import type { ManagerContext } from '../context.js';
import type { ManagedController } from '../controller.js';
import type { ControllerStatus } from '../dashboard/status.js';
import { discoverer } from '../discovery.js';
import { eventSink } from '../events.js';
import { cacheLogger } from '../logger.js';

export async function detectorController(
  ctx: ManagerContext,
  signal: AbortSignal,
): Promise<ManagedController> {
  let readerWaits = 0;
  let started = false;
  const counter = { readerWaited: () => void readerWaits++ };
  const writer = ctx.writer('detector');
  const detector = new ResourceDetector({
    informers: ctx.host,
    reader: ctx.reader(counter),
    writer,
    readYourWrites: false, // the manager's reader and writer already share one MutationCache
    discover: discoverer(ctx.host.transport),
    skippedPropagatingApis: ctx.options.skippedPropagatingApis,
    skippedPropagatingNamespaces: ctx.options.skippedPropagatingNamespaces,
    concurrency: {
      templates: ctx.options.concurrentResourceTemplateSyncs,
      propagationPolicies: ctx.options.concurrentPropagationPolicySyncs,
      clusterPropagationPolicies: ctx.options.concurrentClusterPropagationPolicySyncs,
    },
    logger: cacheLogger(ctx.log.child({ controller: 'detector' })),
    workqueueMetrics: ctx.metrics.workqueue,
    events: eventSink(writer, 'resource-detector', ctx.log),
  });
  await detector.prepare(signal);
  return {
    name: 'detector',
    start: async (s) => {
      await detector.start(s);
      started = true;
    },
    stop: (deadline) => detector.stop(deadline),
    statuses: (waitingFor): ControllerStatus[] =>
      detector.status().map((q) => ({
        name: q.name,
        queueDepth: q.queueDepth,
        inFlight: q.inFlight,
        readerWaits,
        lastError: q.lastError,
        waitingFor: started ? undefined : waitingFor,
      })),
  };
}
