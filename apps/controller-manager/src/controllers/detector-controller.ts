// The ResourceDetector (@warmstart/detector) as one of the manager's controllers: it registers its informers
// when built (one discovery pass), and starts its three runtime Controllers when this process leads.
import { ResourceDetector } from '@warmstart/detector';
import { discoverer } from '@warmstart/informer-cache';
import type { Runnable } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import { eventSink } from '../events.js';
import { cacheLogger } from '../logger.js';

export async function detectorController(
  ctx: ManagerContext,
  signal: AbortSignal,
): Promise<Runnable & { detector: ResourceDetector }> {
  const writer = ctx.manager.writer('detector');
  const detector = new ResourceDetector({
    informers: ctx.host,
    reader: ctx.manager.reader(),
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
    controllerMetrics: ctx.metrics.controllers,
    events: eventSink(writer, 'resource-detector', ctx.log),
  });
  await detector.prepare(signal);
  return {
    name: 'detector',
    detector,
    start: (s) => detector.start(s),
    stop: (deadline) => detector.stop(deadline),
  };
}
