// The restart scenario of issue 7, measured from outside the manager: start it, wait until every workload
// has its binding and Works, kill it, start it again and read the API server's audit log and the new
// process's endpoints. One run per strategy on the same load gives the side-by-side comparison.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ClassifiedEvent, readAuditLog } from '../audit/audit-log.js';
import { adminRequest } from '../cluster/admin-client.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity, installCrds, joinMember, kubeconfigIdentity } from '../karmada/join.js';
import { formatProgress, seed } from '../load/seed.js';
import { type ManagerProcess, metricValue, startManager } from '../manager/manager-process.js';
import { type ChangePath, changePaths, memberStage } from './change-path.js';
import { type EventLoopStallSplit, type LoggedStall, readEventLoopStall } from './event-loop-stall.js';
import { countFirstPropagation, type FirstPropagation } from './first-propagation.js';
import type { MachineDuring, MachinePause } from './machine-pressure.js';
import type { RelistCount } from './manager-relists.js';
import { createPolicies } from './policies.js';
import { cpuMeter } from './process-cpu.js';
import { changeReplicas, type ReplicaChange, waitInEveryMember } from './replica-change.js';
import type { ServerLoad } from './server-load.js';

export type Strategy = 'block-reads' | 'gate-start' | 'fallback';

/**
 * How the new leader comes to be: the leader SIGKILLed and started again (a crash), SIGTERMed and started again
 * (a rolling update: it releases its Lease), or SIGKILLed while a standby with synced caches runs (fail-over).
 */
export type RestartKind = 'SIGKILL' | 'SIGTERM' | 'failover';

export interface RestartRow {
  readonly strategy: Strategy;
  readonly restart: RestartKind;
  readonly workloads: number;
  readonly directReads: number;
  readonly writesAfterRestart: number;
  /** Node flags this row's manager had on top of the run's (the bench's `--restart 'STRATEGY:KIND --flag'`). */
  readonly nodeArgs?: readonly string[] | undefined;
  readonly livezMs: number;
  readonly readyzMs: number;
  readonly firstReconcileMs: number;
  readonly changePropagatedMs: number;
  readonly peakRssBytes: number;
  /** Largest V8 heap in use (nodejs_heap_size_used_bytes) seen on /metrics, sampled every second. */
  readonly peakHeapBytes: number;
  /**
   * Longest the manager's event loop was blocked, from restart to drained queues (nodejs_eventloop_lag_max_seconds,
   * which resets on every scrape, sampled every second). Over 1 s, a kubelet's default probe timeout, /livez fails;
   * near the Lease renew deadline, the leader steps down.
   */
  readonly peakEventLoopDelayMs: number;
  /**
   * The manager's worst event-loop stall over the same time, split into on CPU (GC included), GC and off CPU
   * (warmstart_event_loop_stall_max_seconds, the worst since its start, sampled with the lag). Absent from rows
   * measured before the manager had the gauge.
   */
  readonly eventLoopStall?: EventLoopStallSplit | undefined;
  /**
   * The same gauge read once more just before the bench stopped this manager (at the next restart, after the
   * floor measured then, or at the end of the run): the worst stall of its whole life, so a full GC that V8
   * deferred past the drained queues shows too. Absent when the bench could not read it.
   */
  readonly eventLoopStallUntilStopped?: EventLoopStallSplit | undefined;
  /**
   * Every stall of 200 ms or more the manager logged in its whole life (start-up included, until the bench stopped
   * it), each with what the machine did meanwhile where the bench sampled it. Absent when the bench did not look.
   */
  readonly longStalls?: readonly AttributedStall[] | undefined;
  /**
   * The wall clock's jumps of 100 ms or more against CLOCK_MONOTONIC from the start of this restart to its drained
   * queues: the VM paused, and every wall-clock figure of the row spanning the pause is that much longer. Absent
   * when the bench did not sample the machine.
   */
  readonly machinePauses?: readonly MachinePause[] | undefined;
  /**
   * The post-restart change's path: when each stage (detector, scheduler, binding-controller, each member) first
   * wrote for it, in ms after the change.
   */
  readonly changePath: ChangePath;
  /**
   * The early change: another workload's template changed once the new manager serves /livez, before its caches
   * synced (after a fail-over: as soon as the leader was killed). When it was made, when the manager first
   * wrote its binding (the first useful write) and when the last member's Deployment was written for it, in ms after
   * the restart: the new process's start (the zero of /livez and /readyz) or, for a fail-over, the leader's kill (the
   * zero of the first reconcile).
   */
  readonly earlyChangeMs: number;
  readonly firstUsefulWriteMs: number;
  readonly earlyChangePropagatedMs: number;
  /** The early change's path, as changePath (ms after the early change). */
  readonly earlyChangePath: ChangePath;
  /**
   * The host part of a paged LIST of everything the manager caches, made with the manager idle just before this
   * restart (the restart bench measures it; the CI test does not). Absent from rows measured without it.
   */
  readonly floorBeforeMs?: number | undefined;
  /** What the host's API server and etcd did while that floor was measured (bench/README.md). */
  readonly serversDuringFloorBefore?: ServerLoad | undefined;
  /** What the previous manager, idle, relisted while that floor was measured (manager-relists.ts). */
  readonly managerRelistsDuringFloorBefore?: readonly RelistCount[] | undefined;
  /** Verb + resource of every direct read and write seen (for the report). */
  readonly detail: Readonly<Record<string, number>>;
}

/** A stall the manager logged, and the machine's counters across it (see machine-pressure.ts). */
export interface AttributedStall extends LoggedStall {
  readonly machine?: MachineDuring | undefined;
}

export interface LoadedSet {
  readonly host: ClusterInfo;
  readonly members: readonly ClusterInfo[];
  readonly workloads: number;
  readonly namespaces: number;
}

const IDENTITY = 'warmstart-manager-0';
const STANDBY_IDENTITY = 'warmstart-manager-1';
/** Large installs raise Karmada's default 40 qps: a first propagation costs about ten writes per workload. */
const QPS_FLAGS = [
  '--kube-api-qps=1000',
  '--kube-api-burst=2000',
  '--cluster-api-qps=1000',
  '--cluster-api-burst=2000',
];

/**
 * Node's default heap limit (about 4 GiB here) is below what the caches of 50k+ workloads with their bindings,
 * Works and member objects may take with garbage on top; a real install at that scale sets the same flag.
 */
function nodeArgs(workloads: number, rowNodeArgs: readonly string[] = []): string[] {
  // WARMSTART_MANAGER_CPU_PROF=<dir>: every manager started from now on writes a V8 CPU profile there when it
  // exits gracefully (SIGTERM), to find where a restart spends its time (issue #16).
  const dir = process.env.WARMSTART_MANAGER_CPU_PROF;
  const prof = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
  // WARMSTART_MANAGER_NODE_ARGS: node flags, one per line (the bench's --manager-node-arg), to measure a V8
  // setting such as --max-semi-space-size on the same load.
  const extra = (process.env.WARMSTART_MANAGER_NODE_ARGS ?? '').split('\n').filter((a) => a !== '');
  return [...prof, ...(workloads > 20_000 ? ['--max-old-space-size=12288'] : []), ...extra, ...rowNodeArgs];
}

/**
 * WARMSTART_MANAGER_CGROUP_PROCS: the `cgroup.procs` of the group every manager starts in (the bench's
 * --cpu-request manager=...), so it gets the CPU share a kubelet would give its request.
 */
function managerCgroupProcs(): string | undefined {
  return process.env.WARMSTART_MANAGER_CGROUP_PROCS || undefined;
}

/**
 * WARMSTART_MANAGER_ARGS: extra manager flags, one per line, appended to every manager's own (the bench's
 * --manager-arg), to measure a setting such as --informer-initial-sync=paged-list on the same load.
 */
function extraManagerArgs(): string[] {
  return (process.env.WARMSTART_MANAGER_ARGS ?? '').split('\n').filter((a) => a !== '');
}

/** A deadline that grows with the load: `perWorkloadMs` per workload, never below `floorMs`. */
function scaled(workloads: number, floorMs: number, perWorkloadMs: number): number {
  return Math.max(floorMs, Math.round(workloads * perWorkloadMs));
}

/** Installs the CRDs, joins the members and seeds the load; idempotent (a resumed seed creates nothing). */
export async function prepareLoad(
  host: ClusterInfo,
  members: readonly ClusterInfo[],
  workloads: number,
  log = (l: string) => process.stderr.write(`${l}\n`),
): Promise<LoadedSet> {
  const namespaces = Math.max(1, Math.min(100, Math.ceil(workloads / 200)));
  await installCrds(host);
  for (const m of members) await joinMember(host, m);
  const id = adminIdentity(host);
  await adminRequest(id, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'karmada-system' },
  });
  await seed({
    workloads,
    namespaces,
    identity: id,
    concurrency: 32,
    onProgress: (p) => log(`[seed host] ${formatProgress(p)}`),
  });
  // Member namespaces, so the execution controller can create the Deployments in them.
  for (const m of members) {
    const mid = adminIdentity(m);
    for (let n = 0; n < namespaces; n++)
      await adminRequest(mid, 'POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: `load-${n}` },
      });
  }
  await createPolicies(
    id,
    { workloads, namespaces },
    members.map((m) => m.name),
  );
  return { host, members, workloads, namespaces };
}

/** How many objects a LIST of `path` on the host holds (one item asked for, the rest from remainingItemCount). */
export async function countObjects(host: ClusterInfo, path: string): Promise<number> {
  const res = await adminRequest(adminIdentity(host), 'GET', `${path}?limit=1`);
  const body = JSON.parse(res.body) as { items?: unknown[]; metadata?: { remainingItemCount?: number } };
  return (body.items?.length ?? 0) + (body.metadata?.remainingItemCount ?? 0);
}

/** Waits until every workload has a ResourceBinding and one Work per member. */
export async function waitPropagated(
  set: LoadedSet,
  timeoutMs: number,
  log = (l: string) => process.stderr.write(`${l}\n`),
  /** Runs before every poll; may throw to give up. */
  eachPoll: () => Promise<void> = async () => undefined,
): Promise<void> {
  const want = set.workloads * set.members.length;
  let last = '';
  await waitFor(
    `${set.workloads} bindings and ${want} Works`,
    async () => {
      await eachPoll();
      const rb = await countObjects(set.host, '/apis/work.karmada.io/v1alpha2/resourcebindings');
      const works = await countObjects(set.host, '/apis/work.karmada.io/v1alpha1/works');
      const line = `[propagation] ${rb}/${set.workloads} bindings, ${works}/${want} Works`;
      if (line !== last) {
        last = line;
        log(line);
      }
      return rb >= set.workloads && works >= want;
    },
    { timeoutMs, intervalMs: 1000 },
  );
  // Steady means applied, not just written: a Work still retrying when the manager is killed would be
  // finished (and its status written) by the next one, which is convergence, not a needless rewrite.
  await waitFor(
    `${want} Works Applied`,
    async () => {
      await eachPoll();
      return (await countApplied(set.host)) >= want;
    },
    { timeoutMs, intervalMs: 1000 },
  );
}

async function countApplied(host: ClusterInfo): Promise<number> {
  let applied = 0;
  let cont = '';
  do {
    const res = await adminRequest(
      adminIdentity(host),
      'GET',
      `/apis/work.karmada.io/v1alpha1/works?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
    );
    const body = JSON.parse(res.body) as {
      items: { status?: { conditions?: { type: string; status: string }[] } }[];
      metadata: { continue?: string };
    };
    applied += body.items.filter((w) =>
      w.status?.conditions?.some((c) => c.type === 'Applied' && c.status === 'True'),
    ).length;
    cont = body.metadata.continue ?? '';
  } while (cont);
  return applied;
}

interface ProcessPeaks {
  readonly heapBytes: number;
  readonly eventLoopDelayMs: number;
  readonly eventLoopStall: EventLoopStallSplit | undefined;
}

/** A manager's /metrics sampled for its peaks. */
interface ProcessSampler {
  /**
   * The manager's /metrics, its figures counted in the peaks. Every scrape resets the event-loop delay histogram
   * behind nodejs_eventloop_lag_max_seconds, so a scrape whose figures were not looked at would hide the delay
   * since the scrape before: every poll of /metrics during a measurement goes through here.
   */
  metrics(): Promise<string>;
  stop(): ProcessPeaks;
}

/**
 * Samples the manager's /metrics every second until stopped; returns the largest heap in use, the longest
 * event-loop delay seen and the worst event-loop stall with its split. A scrape that cannot be answered because
 * the loop is blocked is answered late, and the delay it was stuck behind shows in that answer. The sampler
 * starts with the process, so the stall gauge's "worst since start" is the worst while sampled.
 */
function processSampler(m: ManagerProcess): ProcessSampler {
  let heapBytes = 0;
  let eventLoopDelayMs = 0;
  let eventLoopStall: EventLoopStallSplit | undefined;
  let stopped = false;
  const observe = (text: string) => {
    if (stopped) return;
    heapBytes = Math.max(heapBytes, metricValue(text, 'nodejs_heap_size_used_bytes'));
    eventLoopDelayMs = Math.max(
      eventLoopDelayMs,
      Math.round(metricValue(text, 'nodejs_eventloop_lag_max_seconds') * 1000),
    );
    const stall = readEventLoopStall(text);
    if (stall && stall.totalMs >= (eventLoopStall?.totalMs ?? 0)) eventLoopStall = stall;
  };
  const metrics = async () => {
    const text = await m.metrics();
    observe(text);
    return text;
  };
  const sample = () => metrics().then(undefined, () => undefined);
  void sample();
  const timer = setInterval(sample, 1_000);
  return {
    metrics,
    stop: () => {
      clearInterval(timer);
      stopped = true;
      return { heapBytes, eventLoopDelayMs, eventLoopStall };
    },
  };
}

function peakRss(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Starts a manager for the load, or returns when it has propagated everything (the "before" state). */
export async function startSteadyManager(
  set: LoadedSet,
  strategy: Strategy,
  timeoutMs: number,
  logDir?: string,
): Promise<ManagerProcess> {
  return (await propagateOnce(set, strategy, timeoutMs, logDir)).manager;
}

/**
 * Starts a manager for the load and waits until it has propagated everything and every queue has drained (the
 * "before" state); returns it with what the first propagation cost, from the audit log.
 */
export async function propagateOnce(
  set: LoadedSet,
  strategy: Strategy,
  timeoutMs: number,
  logDir?: string,
  /** Processes (name → pid) whose CPU, with the manager's, the first propagation reports: the host API server's. */
  processes?: Readonly<Record<string, number>>,
): Promise<{ manager: ManagerProcess; firstPropagation: FirstPropagation }> {
  const since = Date.now();
  const meter = processes && cpuMeter(processes);
  let starts = 0;
  const start = () =>
    startManager({
      kubeconfig: set.host.managerKubeconfig,
      identity: IDENTITY,
      args: [`--cache-sync-strategy=${strategy}`, ...QPS_FLAGS, ...extraManagerArgs()],
      nodeArgs: nodeArgs(set.workloads),
      cgroupProcs: managerCgroupProcs(),
      logPath:
        logDir &&
        join(logDir, `restart-${set.workloads}-first-propagation${starts++ === 0 ? '' : `-${starts}`}.log`),
    });
  let m = await start();
  // The first propagation only sets the scene, and at full scale it is hours of a saturated control plane: a
  // manager that exits meanwhile (it steps down when etcd stalls past its Lease's renew deadline, as designed) is
  // replaced, as its Deployment would replace it, instead of leaving the wait to run into its deadline.
  await waitPropagated(set, timeoutMs, undefined, async () => {
    if (!m.hasExited()) return;
    const { code, signal } = await m.exited;
    const why = m.logs().findLast((l) => l.includes('"level":50')) ?? '(no error logged)';
    if (starts >= MAX_PROPAGATION_STARTS) {
      throw new Error(
        `the manager exited ${starts} times during the first propagation (last: code ${code}, signal ${signal}): ${why.slice(0, 600)}`,
      );
    }
    process.stderr.write(
      `[bench] the manager exited during the first propagation (code ${code}, signal ${signal}); starting another. Last error: ${why.slice(0, 300)}\n`,
    );
    m = await start();
  });
  // Killed with work left in a queue, the manager would leave its last writes to the next one, where they would
  // count as restart writes.
  await waitDrained(m, timeoutMs);
  const until = Date.now();
  const cpu = meter?.stop({ name: 'manager', pid: m.pid });
  await auditBarrier(set.host);
  const counted = await countFirstPropagation(
    set.host.auditLogPath!,
    set.host.managerUser,
    since,
    until,
    set.workloads,
  );
  return { manager: m, firstPropagation: { ...counted, cpu } };
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection', 'apply']);
/** How long the manager must have sent no write (besides its Lease) for its work to count as done. */
const QUIET_MS = 2_000;

/** The manager's own count of the writes it sent to any cluster, leader election's Lease renewals excepted. */
function writesSent(metrics: string): number {
  let sum = 0;
  for (const line of metrics.split('\n')) {
    if (!line.startsWith('rest_client_requests_total{') || line.includes('leases"')) continue;
    const verb = /verb="([^"]+)"/.exec(line)?.[1];
    if (verb !== undefined && WRITE_VERBS.has(verb)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/**
 * Waits until every controller's queue is empty with nothing in flight (the manager's workqueue_depth and
 * workqueue_longest_running_processor_seconds, over every queue) and the manager has sent no write for QUIET_MS,
 * which also covers a key waiting out a retry delay.
 */
export async function waitDrained(
  manager: ManagerProcess,
  timeoutMs: number,
  // A measurement passes its sampler's, so the event-loop delay these scrapes reset is still counted.
  metrics: () => Promise<string> = () => manager.metrics(),
): Promise<void> {
  let lastWrites = -1;
  let quietSince = Date.now();
  await waitFor(
    'every work queue drained and no write for 2 s',
    async () => {
      const text = await metrics();
      const writes = writesSent(text);
      const now = Date.now();
      if (writes !== lastWrites) {
        lastWrites = writes;
        quietSince = now;
      }
      const idle =
        metricValue(text, 'workqueue_depth') === 0 &&
        metricValue(text, 'workqueue_longest_running_processor_seconds') === 0;
      if (!idle) quietSince = now;
      return idle && now - quietSince >= QUIET_MS;
    },
    { timeoutMs, intervalMs: 200 },
  );
}

/** How many managers the first propagation may go through before it gives up. */
const MAX_PROPAGATION_STARTS = 5;

/**
 * Replaces `previous` by a new leader running `strategy` (see RestartKind) and measures it. Returns the new
 * process too, still running, so the next measurement can start from it. For a fail-over, /livez and /readyz are
 * the standby's own (it started before the leader died) and the first reconcile is counted from the kill.
 */
export async function measureRestart(
  set: LoadedSet,
  previous: ManagerProcess,
  strategy: Strategy,
  kind: RestartKind = 'SIGKILL',
  logDir?: string,
  rowNodeArgs: readonly string[] = [],
): Promise<{ row: RestartRow; manager: ManagerProcess }> {
  // The early change's workload; the late change's is the last one.
  const earlyIndex = set.workloads - 2;
  if (earlyIndex < 0) throw new Error('measureRestart changes two workloads: the load needs at least 2');
  const start = (identity: string) =>
    startManager({
      kubeconfig: set.host.managerKubeconfig,
      identity,
      args: [`--cache-sync-strategy=${strategy}`, ...QPS_FLAGS, ...extraManagerArgs()],
      nodeArgs: nodeArgs(set.workloads, rowNodeArgs),
      cgroupProcs: managerCgroupProcs(),
      logPath:
        logDir &&
        join(
          logDir,
          `restart-${set.workloads}-${strategy}-${kind}${rowNodeArgs.map((a) => a.replace(/[^A-Za-z0-9=.-]/g, '_')).join('')}.log`,
        ),
    });
  // A manager that never gets ready (it exited, e.g. after losing its Lease on a saturated machine) is a failed
  // measurement the bench reports and goes on from, like any other missed deadline.
  const ready = async (m: ManagerProcess): Promise<number> => {
    let ms: number;
    try {
      ms = await waitFor(
        'the new manager to be ready',
        async () => {
          if (m.hasExited()) return -1;
          return (await m.readyz()).status === 200 ? Date.now() - m.startedAt : undefined;
        },
        { timeoutMs: scaled(set.workloads, 300_000, 10), intervalMs: 50 },
      );
    } catch (error) {
      throw new RestartMeasurementError(strategy, kind, m, error, await diagnostics(m));
    }
    if (ms < 0) {
      const cause = new Error('the new manager exited before it was ready');
      throw new RestartMeasurementError(strategy, kind, m, cause, await diagnostics(m));
    }
    return ms;
  };
  // A change the start-up backlog is still ahead of: made before the caches have synced, it is part of that
  // backlog. Under block-reads its reconcile waits only for the caches it reads; under gate-start, for all of them.
  const changeEarly = async (m: ManagerProcess): Promise<ReplicaChange> => {
    try {
      if (kind !== 'failover') await m.livezMs();
      return await changeReplicas(set, earlyIndex);
    } catch (error) {
      throw new RestartMeasurementError(strategy, kind, m, error, await diagnostics(m));
    }
  };
  let manager: ManagerProcess;
  let since: number;
  let readyzMs: number;
  let reconcileFrom: number;
  let sampler: ProcessSampler;
  let early: ReplicaChange;
  if (kind === 'failover') {
    // Audit from the standby's start: a standby must not read directly or write while it waits, either.
    since = Date.now();
    manager = await start(previous.identity === STANDBY_IDENTITY ? IDENTITY : STANDBY_IDENTITY);
    sampler = processSampler(manager);
    readyzMs = await ready(manager).catch((error: unknown) => {
      sampler.stop();
      throw error;
    });
    reconcileFrom = Date.now();
    await previous.stop('SIGKILL');
    early = await changeEarly(manager).catch((error: unknown) => {
      sampler.stop();
      throw error;
    });
  } else {
    await previous.stop(kind);
    since = Date.now();
    manager = await start(IDENTITY);
    sampler = processSampler(manager);
    reconcileFrom = manager.startedAt;
    // /readyz is polled from the start as before: the change is made meanwhile, not first.
    [early, readyzMs] = await Promise.all([changeEarly(manager), ready(manager)]).catch((error: unknown) => {
      sampler.stop();
      throw error;
    });
  }
  let livezMs: number;
  let firstReconcileMs: number;
  let changePropagatedMs: number;
  let late: ReplicaChange;
  try {
    livezMs = await manager.livezMs();
    // A change made as soon as the caches have synced, when the start-up backlog is largest: it arrives by watch,
    // at normal priority, and must overtake the backlog (a change made before the initial list is part of it).
    // Bump one workload's replicas and time until every member has it.
    late = await changeReplicas(set, set.workloads - 1);
    firstReconcileMs = await waitFor(
      'the first reconcile',
      async () =>
        metricValue(await sampler.metrics(), 'workqueue_work_duration_seconds_count') > 0
          ? Date.now() - reconcileFrom
          : undefined,
      { timeoutMs: scaled(set.workloads, 300_000, 10), intervalMs: 50 },
    );
    changePropagatedMs = await waitInEveryMember(set, late, late.at, scaled(set.workloads, 600_000, 10));
    // The early change has usually arrived by now; its times are read from the audit logs below, not from this
    // poll, which only makes sure they hold it.
    await waitInEveryMember(set, early, early.at, scaled(set.workloads, 600_000, 10));
    // Let the start-up backlog drain, so the next restart starts from a manager with nothing left to do.
    await waitDrained(manager, scaled(set.workloads, 600_000, 20), sampler.metrics);
  } catch (error) {
    sampler.stop();
    throw new RestartMeasurementError(strategy, kind, manager, error, await diagnostics(manager));
  }
  const peaks = sampler.stop();
  await auditBarrier(set.host);
  const events = await readAuditLog(set.host.auditLogPath!, { user: set.host.managerUser, since });
  const [path = {}, earlyPath = {}] = await changePaths(
    events,
    set.members,
    [late, early],
    kind === 'failover',
  );
  // In ms after the restart: the early change was made `early.at - reconcileFrom` after it.
  const afterRestart = (ms: number | undefined) =>
    ms === undefined ? undefined : early.at - reconcileFrom + ms;
  const firstUsefulWriteMs = afterRestart(earlyPath.detector);
  const memberMs = set.members.map((m) => earlyPath[memberStage(m.name)]);
  const earlyChangePropagatedMs = memberMs.every((ms) => ms !== undefined)
    ? afterRestart(Math.max(...memberMs))
    : undefined;
  if (firstUsefulWriteMs === undefined || earlyChangePropagatedMs === undefined) {
    const cause = new Error(
      `every member has ${early.namespace}/${early.name}'s early change, but the audit logs hold no write of its binding or of each member's Deployment after it (its path: ${JSON.stringify(earlyPath)}); is every member's audit log kept?`,
    );
    throw new RestartMeasurementError(strategy, kind, manager, cause, await diagnostics(manager));
  }
  const row = summarize(strategy, kind, set.workloads, events, [late.name, early.name], {
    changePath: path,
    earlyChangeMs: early.at - reconcileFrom,
    firstUsefulWriteMs,
    earlyChangePropagatedMs,
    earlyChangePath: earlyPath,
    livezMs,
    readyzMs,
    firstReconcileMs,
    changePropagatedMs,
    peakRssBytes: peakRss(manager.pid),
    peakHeapBytes: peaks.heapBytes,
    peakEventLoopDelayMs: peaks.eventLoopDelayMs,
    eventLoopStall: peaks.eventLoopStall,
    ...(rowNodeArgs.length > 0 ? { nodeArgs: rowNodeArgs } : {}),
  });
  return { row, manager };
}

/**
 * Writes a restart may make although no workload it already propagated changed: leader election renews its
 * Lease, and the workloads the scenario changes on purpose around the restart (their templates, bindings
 * `<name>-deployment`, Works `<name>-<hash>` and Events about them) must be written to propagate.
 */
function expectedWrite(e: ClassifiedEvent, changed: readonly string[]): boolean {
  const name = e.objectRef?.name ?? '';
  // Events about an object are named `<object>.<suffix>`.
  return (
    e.objectRef?.resource === 'leases' ||
    changed.some((c) => name === c || name.startsWith(`${c}-`) || name.startsWith(`${c}.`))
  );
}

function summarize(
  strategy: Strategy,
  restart: RestartKind,
  workloads: number,
  events: readonly ClassifiedEvent[],
  changed: readonly string[],
  timing: Omit<
    RestartRow,
    'strategy' | 'restart' | 'workloads' | 'directReads' | 'writesAfterRestart' | 'detail'
  >,
): RestartRow {
  const detail: Record<string, number> = {};
  let directReads = 0;
  let writes = 0;
  for (const e of events) {
    const direct = e.class === 'direct-get' || e.class === 'direct-list';
    const write = e.class === 'write' && !expectedWrite(e, changed);
    if (direct) directReads++;
    if (write) writes++;
    if (direct || write) {
      const k = `${e.verb} ${e.resourceKey}`;
      detail[k] = (detail[k] ?? 0) + 1;
    }
  }
  return { strategy, restart, workloads, directReads, writesAfterRestart: writes, ...timing, detail };
}

/**
 * Audit events are written as responses complete, a few ms after the client has its answer. A marker request
 * made now, as the manager's user, is logged after everything the manager finished before it: once the
 * marker is in the log, so is all of that.
 */
/** The text a file gained after byte `from`. */
function appendedSince(path: string, from: number): string {
  const size = statSync(path).size;
  if (size <= from) return '';
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('utf8');
}

export async function auditBarrier(host: ClusterInfo): Promise<void> {
  const marker = `audit-barrier-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  // Only what is appended from here on is searched: at 50k workloads the whole log is over 512 MB, more than
  // one string can hold.
  const from = statSync(host.auditLogPath!).size;
  await adminRequest(kubeconfigIdentity(host, host.managerKubeconfig), 'GET', `/version?${marker}`);
  await waitFor(
    'the audit barrier in the audit log',
    () => appendedSince(host.auditLogPath!, from).includes(marker),
    {
      timeoutMs: 10_000,
      intervalMs: 20,
    },
  );
}

/**
 * A restart whose measurement did not finish (a deadline passed). It carries the new manager, still running, so
 * a benchmark can record the failure and go on from it, and what the manager said about itself at that moment.
 */
export class RestartMeasurementError extends Error {
  constructor(
    readonly strategy: Strategy,
    readonly kind: RestartKind,
    readonly manager: ManagerProcess,
    cause: unknown,
    readonly diagnostics: string,
  ) {
    super(
      `${strategy} (${kind}) restart: ${cause instanceof Error ? cause.message : String(cause)}; the manager's /readyz?verbose and work queues at that moment:\n${diagnostics}`,
      { cause },
    );
    this.name = 'RestartMeasurementError';
  }
}

/** /readyz?verbose and the work-queue and informer lines of /metrics, for a measurement that timed out. */
async function diagnostics(manager: ManagerProcess): Promise<string> {
  const parts: string[] = [];
  if (manager.hasExited()) {
    // Nothing to ask: its last words say why it stopped.
    return ['the manager had exited; its last log lines:', ...manager.logs().slice(-5)].join('\n');
  }
  try {
    parts.push((await manager.readyz(true)).body.trim());
  } catch (error) {
    parts.push(`/readyz?verbose: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const wanted =
      /^(workqueue_depth|workqueue_retries_total|workqueue_longest_running|warmstart_informer_(synced|objects|relists|watch_restarts)|warmstart_reader_waits_total)/;
    parts.push(...(await manager.metrics()).split('\n').filter((l) => wanted.test(l)));
  } catch (error) {
    parts.push(`/metrics: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parts.join('\n');
}
