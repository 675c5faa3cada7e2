// Builds the enabled controllers. Each registers the informers it needs while it is built, so the manager
// knows every cache before anything starts (DESIGN.md §4 step 2).
import type { ManagerContext } from '../context.js';
import type { ManagedController } from '../controller.js';
import { MemberRegistry } from '../members.js';
import { bindingControllers } from './binding-controller.js';
import { clusterController } from './cluster-controller.js';
import { detectorController } from './detector-controller.js';
import { executionController } from './execution-controller.js';
import { schedulerController } from './scheduler-controller.js';

export interface BuiltControllers {
  readonly controllers: readonly ManagedController[];
  readonly members: MemberRegistry;
}

export async function buildControllers(ctx: ManagerContext, signal: AbortSignal): Promise<BuiltControllers> {
  const { options } = ctx;
  const members = new MemberRegistry(
    ctx.members,
    ctx.metrics,
    { qps: options.clusterApiQps, burst: options.clusterApiBurst },
    options.clusterCacheSyncTimeoutMs,
    ctx.isLeader,
  );
  const controllers: ManagedController[] = [];
  const on = options.enabledControllers;
  if (on.has('detector')) controllers.push(await detectorController(ctx, signal));
  if (on.has('scheduler')) controllers.push(schedulerController(ctx));
  if (on.has('binding')) controllers.push(...bindingControllers(ctx));
  if (on.has('execution')) controllers.push(executionController(ctx, members));
  if (on.has('cluster')) controllers.push(clusterController(ctx, members));
  return { controllers, members };
}
