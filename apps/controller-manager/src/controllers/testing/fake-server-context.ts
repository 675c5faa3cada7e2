// A ManagerContext over a FakeApiServer for controller tests: default flags, a leader, no members, and a log that
// is either silent or captured line by line (to assert on what a controller logged).
import { ApiTransport, MultiClusterInformerManager } from '@warmstart/informer-cache';
import type { FakeApiServer } from '@warmstart/informer-cache/testing';
import { Manager } from '@warmstart/runtime';
import pino from 'pino';
import type { ManagerContext } from '../../context.js';
import { ManagerMetrics } from '../../metrics.js';
import { parseOptions } from '../../options.js';

export interface FakeServerContext {
  readonly ctx: ManagerContext;
  readonly manager: Manager;
  /** Each info-or-above log line, parsed; empty when the log is silent. */
  readonly lines: Record<string, unknown>[];
}

export function fakeServerContext(
  server: FakeApiServer,
  options: { readonly captureLog?: boolean } = {},
): FakeServerContext {
  const flags = parseOptions([]);
  if (flags === 'help') throw new Error('parseOptions([]) asked for help');
  const lines: Record<string, unknown>[] = [];
  const log = options.captureLog
    ? pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) })
    : pino({ level: 'silent' });
  const manager = new Manager({ transport: new ApiTransport(server.endpoint()) });
  const ctx: ManagerContext = {
    options: flags,
    log,
    metrics: new ManagerMetrics(flags.cacheSyncStrategy),
    manager,
    host: manager.informers,
    members: new MultiClusterInformerManager({}),
    isLeader: () => true,
  };
  return { ctx, manager, lines };
}
