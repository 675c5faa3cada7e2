// Builds the enabled controllers on the runtime Manager. Each registers the informers it needs while it is
// built, so the manager knows every cache before anything starts (DESIGN.md §4 step 2).
import type { ControllerStatus } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import { MemberRegistry } from '../members.js';
import { bindingControllers } from './binding-controller.js';
import { bindingStatusControllers } from './binding-status-controller.js';
import { clusterController } from './cluster-controller.js';
import { dependenciesDistributorController } from './dependencies-distributor-controller.js';
import { detectorController } from './detector-controller.js';
import { executionController } from './execution-controller.js';
import { memberCacheWarmup } from './member-cache-warmup.js';
import { schedulerController } from './scheduler-controller.js';
import { workStatusController } from './work-status-controller.js';

export interface BuiltControllers {
  /** The dashboard's controller rows, in start order (the detector's three queues first). */
  readonly statuses: () => readonly ControllerStatus[];
  readonly members: MemberRegistry;
}

export async function buildControllers(ctx: ManagerContext, signal: AbortSignal): Promise<BuiltControllers> {
  const { options, manager } = ctx;
  const members = new MemberRegistry(
    ctx.members,
    ctx.metrics,
    { qps: options.clusterApiQps, burst: options.clusterApiBurst },
    options.clusterCacheSyncTimeoutMs,
    ctx.isLeader,
  );
  const on = options.enabledControllers;
  // The detector runs its own three Controllers; the others are added to the manager as they are built.
  const detector = on.has('detector') ? await detectorController(ctx, signal) : undefined;
  if (detector) manager.add(detector);
  if (on.has('scheduler')) schedulerController(ctx);
  if (on.has('binding')) bindingControllers(ctx);
  if (on.has('bindingStatus')) bindingStatusControllers(ctx);
  if (on.has('execution')) executionController(ctx, members);
  if (on.has('workStatus')) workStatusController(ctx, members);
  if (on.has('cluster')) clusterController(ctx, members);
  if (on.has('dependencies-distributor')) dependenciesDistributorController(ctx);
  // After the controllers, whose host informers it reads; with the caches, so a standby's members are warm too.
  if (on.has('execution') || on.has('workStatus')) manager.addCache(memberCacheWarmup(ctx, members));
  return {
    members,
    statuses: () => [...(detector?.detector.status() ?? []), ...manager.controllers().map((c) => c.status())],
  };
}
