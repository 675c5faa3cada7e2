// pnpm bench:restart --workloads N [--json FILE] [--members 2] [--apiserver-arg=--flag=value ...]
//                    [--apiserver-env=NAME=value ...] [--manager-arg=--flag=value ...]
//                    [--manager-node-arg=--v8-flag=value ...] [--cpu-prof DIR] [--cpu-request ROLE=QUANTITY ...]
//                    [--restart 'STRATEGY:KIND [--node-flag ...]' ...] [--apiserver-cpu-profile FILE]
// Boots a local control plane (host + members), seeds N workloads with policies, propagates them once, then
// restarts the manager under each strategy (block-reads, gate-start, fallback; SIGKILL), then block-reads after a
// graceful SIGTERM and as a fail-over to a warm standby, on the same load, and writes
// results JSON, a markdown table and an SVG chart under e2e/results/.
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { adminRequest } from '../src/cluster/admin-client.js';
import { CpuRequestGroups, parseCpuRequests } from '../src/cluster/cpu-requests.js';
import { type LocalCluster, LocalProvider } from '../src/cluster/local-provider.js';
import { waitFor } from '../src/cluster/wait.js';
import { adminIdentity } from '../src/karmada/join.js';
import type { ManagerProcess } from '../src/manager/manager-process.js';
import { fetchCpuProfile } from '../src/restart/apiserver-profile.js';
import { readEventLoopStall, stallsInLog } from '../src/restart/event-loop-stall.js';
import { firstPropagationSummary, firstPropagationTable } from '../src/restart/first-propagation.js';
import { describeMachinePauses, MachineSampler, monotonicUs } from '../src/restart/machine-pressure.js';
import {
  describeRelists,
  type RelistCount,
  relistCounts,
  relistsBetween,
} from '../src/restart/manager-relists.js';
import {
  changePathList,
  longStallList,
  type PlainRestartRow,
  restartTable,
  serverLoadList,
} from '../src/restart/restart-table.js';
import {
  countObjects,
  measureRestart,
  prepareLoad,
  propagateOnce,
  type RestartKind,
  RestartMeasurementError,
  type RestartRow,
  type Strategy,
} from '../src/restart/scenario.js';
import { describeServerLoad, measureServers } from '../src/restart/server-load.js';
import { cachedResources, floorMs, floorNote, pagedListFloorMs, readinessFloor } from './readiness-floor.js';

const { values } = parseArgs({
  options: {
    workloads: { type: 'string', default: '10000' },
    json: { type: 'string' },
    members: { type: 'string', default: '2' },
    // Extra kube-apiserver flags, recorded under the table: at 100k the host's watch cache for the Karmada CRs
    // does not fit this machine's memory (README "Restart at scale").
    'apiserver-arg': { type: 'string', multiple: true, default: [] },
    // e.g. GOMEMLIMIT, so a Go heap collects before its slack outgrows the machine.
    'apiserver-env': { type: 'string', multiple: true, default: [] },
    // Extra manager flags for every manager the bench starts, recorded under the table like the server's.
    'manager-arg': { type: 'string', multiple: true, default: [] },
    // Extra Node/V8 flags for every manager (e.g. --max-semi-space-size=64), recorded under the table too.
    'manager-node-arg': { type: 'string', multiple: true, default: [] },
    // After the table's rows, one more block-reads SIGKILL restart whose manager writes a V8 CPU profile here when
    // the bench stops it; its row is printed, not tabled (profiling slows it).
    'cpu-prof': { type: 'string' },
    // A CPU request per role (manager, kube-apiserver, etcd, kube-controller-manager), turned into its cgroup's
    // CPU weight as a kubelet would; recorded under the table. Without it every process competes as an equal.
    'cpu-request': { type: 'string', multiple: true, default: [] },
    // Only these rows (e.g. block-reads:SIGKILL), in the table's order: a profiling run need not pay 35 minutes
    // of rows it does not look at. Every row without it.
    restart: { type: 'string', multiple: true, default: [] },
    // A Go CPU profile of the host kube-apiserver (started with --profiling=true for it) written to this file: 60 s of
    // the first propagation, from when a fifth of the bindings exist.
    'apiserver-cpu-profile': { type: 'string' },
  },
});
const profileFile = values['apiserver-cpu-profile'];
const PROFILE_SECONDS = 60;
// pflag keeps the last value of a flag: this one overrides the provider's --profiling=false.
const apiserverArgs = [...values['apiserver-arg'], ...(profileFile ? ['--profiling=true'] : [])];
for (const a of apiserverArgs)
  if (!a.startsWith('--'))
    throw new Error(
      `--apiserver-arg takes a kube-apiserver flag such as --watch-cache-sizes=..., not "${a}"`,
    );
const apiserverEnv = Object.fromEntries(
  values['apiserver-env'].map((e) => {
    const at = e.indexOf('=');
    if (at < 1) throw new Error(`--apiserver-env takes NAME=value (e.g. GOMEMLIMIT=7GiB), not "${e}"`);
    return [e.slice(0, at), e.slice(at + 1)];
  }),
);
const managerArgs = values['manager-arg'];
for (const a of managerArgs)
  if (!a.startsWith('--'))
    throw new Error(
      `--manager-arg takes a manager flag such as --informer-initial-sync=paged-list, not "${a}"`,
    );
process.env.WARMSTART_MANAGER_ARGS = managerArgs.join('\n');
const managerNodeArgs = values['manager-node-arg'];
for (const a of managerNodeArgs)
  if (!a.startsWith('--'))
    throw new Error(`--manager-node-arg takes a node flag such as --max-semi-space-size=64, not "${a}"`);
process.env.WARMSTART_MANAGER_NODE_ARGS = managerNodeArgs.join('\n');
const cpuRequests = parseCpuRequests(values['cpu-request']);
const cpuGroups = cpuRequests.size > 0 ? CpuRequestGroups.create(cpuRequests) : undefined;
const managerProcs = cpuGroups?.procsFile('manager');
if (managerProcs !== undefined) process.env.WARMSTART_MANAGER_CGROUP_PROCS = managerProcs;
const allRuns: readonly (readonly [Strategy, RestartKind])[] = [
  ['block-reads', 'SIGKILL'],
  ['gate-start', 'SIGKILL'],
  ['fallback', 'SIGKILL'],
  ['block-reads', 'SIGTERM'],
  ['block-reads', 'failover'],
];
const runName = ([strategy, kind]: readonly [Strategy, RestartKind]) => `${strategy}:${kind}`;
interface Run {
  readonly strategy: Strategy;
  readonly kind: RestartKind;
  /** Node flags for this row's manager only, after the run's --manager-node-arg: two variants side by side. */
  readonly nodeArgs: readonly string[];
}
// `--restart 'gate-start:SIGKILL --max-semi-space-size=16'`: a row with node flags of its own. Given rows run in
// the order given; without any, every kind of restart in allRuns' order.
function parseRun(value: string): Run {
  const [name = '', ...nodeArgs] = value.split(' ').filter(Boolean);
  const run = allRuns.find((r) => runName(r) === name);
  if (!run)
    throw new Error(
      `--restart takes one of ${allRuns.map(runName).join(', ')}, optionally followed by node flags, not "${value}"`,
    );
  for (const a of nodeArgs)
    if (!a.startsWith('--'))
      throw new Error(`--restart "${value}": node flags start with --, such as --max-semi-space-size=16`);
  return { strategy: run[0], kind: run[1], nodeArgs };
}
const selectedRuns: readonly Run[] =
  values.restart.length === 0
    ? allRuns.map(([strategy, kind]) => ({ strategy, kind, nodeArgs: [] }))
    : values.restart.map(parseRun);
const serverSettings = [...apiserverArgs, ...values['apiserver-env']];
const workloads = Number(values.workloads);
const members = Number(values.members);
if (!Number.isInteger(workloads) || workloads < 1)
  throw new Error('--workloads must be a positive whole number');
const results = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');

// The machine's counters from the start: steal, pressure and page-ins across each long stall of a restart's manager,
// and the VM's pauses (the wall clock jumping ahead of CLOCK_MONOTONIC) during every phase of the run.
const machine = new MachineSampler();
const set = await new LocalProvider({ apiserverArgs, apiserverEnv, cpuGroups }).up({ clusters: 1 + members });
try {
  const [host, ...rest] = set.clusters;
  const t0 = Date.now();
  const load = await prepareLoad(host!, rest, workloads);
  process.stderr.write(
    `[bench] seeded ${workloads} workloads in ${Math.round((Date.now() - t0) / 1000)} s; first propagation...\n`,
  );
  // The first propagation writes about ten objects per workload; allow it 5 workloads/s at worst.
  // Each manager's JSON log, for a run that needs explaining (e2e/results/tmp is not committed).
  const logDir = join(results, 'tmp');
  await mkdir(logDir, { recursive: true });
  // The CPU the host's API server and etcd (shared by every API server here) took meanwhile, and the manager's.
  const propagationFromUs = monotonicUs();
  // Every other process of the control plane too: the members' API servers apply the Works, and each cluster's
  // kube-controller-manager (garbage collector) watches everything the manager writes.
  const controlPlane: Record<string, number> = {
    'host kube-apiserver': host!.apiserver().pid,
    etcd: set.etcd.pid,
  };
  const hostKcm = host!.controllerManager();
  if (hostKcm) controlPlane['host kube-controller-manager'] = hostKcm.pid;
  for (const member of rest) {
    const label = rest.length === 1 ? 'member' : member.name;
    controlPlane[`${label} kube-apiserver`] = member.apiserver().pid;
    const kcm = member.controllerManager();
    if (kcm) controlPlane[`${label} kube-controller-manager`] = kcm.pid;
  }
  const propagationTimeoutMs = Math.max(3_600_000, workloads * 200);
  const propagated = new AbortController();
  const profiling = profileFile
    ? profileFirstPropagation(host!, profileFile, propagationTimeoutMs, propagated.signal)
    : undefined;
  const first = await propagateOnce(load, 'block-reads', propagationTimeoutMs, logDir, controlPlane).finally(
    () => propagated.abort(),
  );
  if (profiling) process.stderr.write(`[bench] ${await profiling}\n`);
  let manager = first.manager;
  // A manager that lost its Lease during the first propagation (the bench starts another) most often did so across
  // a VM pause: on resume the wall clock, which its renew deadline is measured on, had jumped past it.
  const propagationPauses = `VM pauses of 1 s or more during the first propagation: ${describeMachinePauses(machine.pauses(1_000, propagationFromUs, monotonicUs()))}.`;
  process.stderr.write(`[bench] ${propagationPauses}\n`);
  const propagationSummary = firstPropagationSummary(first.firstPropagation);
  const propagationTable = firstPropagationTable(first.firstPropagation);
  process.stderr.write(
    `[bench] first propagation in ${Math.round(first.firstPropagation.durationMs / 1000)} s (until every queue drained):\n${propagationSummary}\n\n${propagationTable}\n`,
  );
  // The floor of /readyz, measured here, between the first propagation and the restarts, with the manager idle.
  const clusters = [load.host, ...load.members];
  const targets = [...cachedResources(await manager.metrics())].map(([cluster, resources]) => {
    const info = clusters.find((c) => c.name === cluster);
    if (!info)
      throw new Error(`the manager caches resources of "${cluster}", which this bench did not start`);
    return { cluster, kubeconfig: info.managerKubeconfig, resources };
  });
  // The floor stands in for the manager: with CPU requests it runs with the manager's share.
  const asManager = <T>(fn: () => Promise<T>): Promise<T> =>
    cpuGroups ? cpuGroups.within('manager', fn) : fn();
  // The host's API server and etcd while each floor is measured: a floor that moves says why (server-load.ts).
  const apiserver = {
    pid: host!.apiserver().pid,
    metrics: async (): Promise<string | undefined> => {
      const res = await adminRequest(adminIdentity(host!), 'GET', '/metrics').catch(() => undefined);
      return res?.status === 200 ? res.body : undefined;
    },
  };
  const measured = <T>(fn: () => Promise<T>) => measureServers(apiserver, { etcd: set.etcd.pid }, fn);
  // What the idle manager relisted while a floor was measured: a relist of 100k objects shares the API server with
  // the floor (manager-relists.ts). Undefined where its metrics could not be read.
  const relistsNow = (): Promise<RelistCount[] | undefined> =>
    manager.metrics().then(relistCounts, () => undefined);
  const relistsDuring = async <T>(fn: () => Promise<T>) => {
    const before = await relistsNow();
    const result = await fn();
    const after = await relistsNow();
    return { result, relists: before && after ? relistsBetween(before, after) : undefined };
  };
  const {
    result: { result: floor, load: runFloorLoad },
    relists: runFloorRelists,
  } = await relistsDuring(() => measured(() => asManager(() => readinessFloor(targets))));
  process.stderr.write(`[bench] readiness floor: ${JSON.stringify(floor)}\n`);
  process.stderr.write(
    `[bench] servers meanwhile: ${describeServerLoad(runFloorLoad, availableParallelism())}; the idle manager relisted: ${describeRelists(runFloorRelists)}\n`,
  );
  const rows: RestartRow[] = [];
  const failures: string[] = [];
  // The row whose manager is running now: its stall gauge is read once more just before it is stopped, since a
  // full GC V8 deferred can come after the queues drained (at 100k: 50 to 160 s later, under the next floor's load).
  let managerRow: number | undefined;
  const noteStallUntilStopped = async (): Promise<void> => {
    const at = managerRow;
    const r = at === undefined ? undefined : rows[at];
    if (at === undefined || r === undefined) return;
    managerRow = undefined;
    const stall = await manager.metrics().then(readEventLoopStall, (error: unknown) => {
      process.stderr.write(`[bench] stall gauge not read before stopping the manager: ${String(error)}\n`);
      return undefined;
    });
    rows[at] = { ...r, eventLoopStallUntilStopped: stall };
  };
  // Each row's manager, whose logged long stalls are matched against the machine's counters once it has stopped:
  // steal, memory pressure and page-ins across a stall say whether the time off CPU was the manager's at all.
  const rowManagers: { readonly row: number; readonly manager: ManagerProcess }[] = [];
  const runs = selectedRuns;
  for (const { strategy, kind, nodeArgs } of runs) {
    const flags = nodeArgs.length > 0 ? ` and node flags ${nodeArgs.join(' ')}` : '';
    process.stderr.write(
      `[bench] ${kind === 'failover' ? 'fail-over' : kind} restart with ${strategy}${flags}\n`,
    );
    try {
      // The servers' speed right now: at 50k one restart in five synced its host caches 10 to 20 s later than
      // the others while the run's floor, measured once, could not say whether the servers were slower then.
      // A floor that fails costs its column, never the hour of propagation before it.
      const {
        result: { result: floorBeforeMs, load: serversDuringFloorBefore },
        relists: managerRelistsDuringFloorBefore,
      } = await relistsDuring(() =>
        measured(() =>
          asManager(() => pagedListFloorMs(targets)).catch((error: unknown) => {
            process.stderr.write(`[bench] floor just before not measured: ${String(error)}\n`);
            return undefined;
          }),
        ),
      );
      process.stderr.write(
        `[bench] floor just before: ${floorBeforeMs ?? '–'} ms; servers meanwhile: ${describeServerLoad(serversDuringFloorBefore, availableParallelism())}; the idle manager relisted: ${describeRelists(managerRelistsDuringFloorBefore)}\n`,
      );
      await noteStallUntilStopped();
      const fromUs = monotonicUs();
      const r = await measureRestart(load, manager, strategy, kind, logDir, nodeArgs);
      manager = r.manager;
      rows.push({
        ...r.row,
        floorBeforeMs,
        serversDuringFloorBefore,
        managerRelistsDuringFloorBefore,
        machinePauses: machine.pauses(100, fromUs, monotonicUs()),
      });
      managerRow = rows.length - 1;
      rowManagers.push({ row: managerRow, manager });
      process.stderr.write(`[bench] ${JSON.stringify(r.row)}\n`);
    } catch (error) {
      // One strategy missing a deadline is a result too: report it and measure the others from its manager.
      if (!(error instanceof RestartMeasurementError)) throw error;
      manager = error.manager;
      managerRow = undefined;
      failures.push(
        nodeArgs.length === 0 ? error.message : `(with node flags ${nodeArgs.join(' ')}) ${error.message}`,
      );
      process.stderr.write(`[bench] FAILED ${error.message}\n`);
    }
  }
  const profileDir = values['cpu-prof'];
  await noteStallUntilStopped();
  if (profileDir !== undefined) {
    await mkdir(profileDir, { recursive: true });
    process.env.WARMSTART_MANAGER_CPU_PROF = profileDir;
    process.stderr.write(`[bench] profiled SIGKILL restart with block-reads (profile in ${profileDir})\n`);
    try {
      const r = await measureRestart(load, manager, 'block-reads', 'SIGKILL', logDir);
      manager = r.manager;
      process.stderr.write(`[bench] profiled: ${JSON.stringify(r.row)}\n`);
    } catch (error) {
      if (!(error instanceof RestartMeasurementError)) throw error;
      manager = error.manager;
      process.stderr.write(`[bench] profiled restart FAILED ${error.message}\n`);
    }
  }
  await manager.stop('SIGTERM');
  machine.stop();
  for (const { row, manager: m } of rowManagers) {
    const r = rows[row];
    if (r === undefined) continue;
    const longStalls = stallsInLog(m.logs(), 200).map((stall) => ({
      ...stall,
      machine: machine.during(stall.endMonotonicUs - stall.totalMs * 1000, stall.endMonotonicUs),
    }));
    rows[row] = { ...r, longStalls };
  }
  const plain = rows.map(({ detail: _d, ...row }) => row);
  await mkdir(results, { recursive: true });
  const base = join(results, `restart-${workloads}`);
  await writeFile(values.json ?? `${base}.json`, `${JSON.stringify(plain, null, 2)}\n`);
  await writeFile(`${base}-first-propagation.json`, `${JSON.stringify(first.firstPropagation, null, 2)}\n`);
  const table = restartTable(plain, floorMs(floor));
  const stallList = longStallList(plain);
  const serverList = serverLoadList(plain, availableParallelism(), runFloorLoad, runFloorRelists);
  process.stderr.write(`[bench] ${stallList}\n`);
  await writeFile(
    `${base}.md`,
    `${table}\n\n${floorNote(floor)}\n\n${serverList}\n\n${changePathList(plain)}\n\n${stallList}\n\nFirst propagation (until every queue drained; CPU as a share of the machine, with CPU seconds):\n\n${propagationSummary}\n\n${propagationPauses}\n\nIts host writes by the manager:\n\n${propagationTable}\n\n${workloads} Deployments over ${load.namespaces} namespaces, ${members} member cluster(s).${serverSettings.length > 0 ? ` kube-apiserver settings added: ${serverSettings.map((a) => `\`${a}\``).join(' ')}.` : ''}${managerArgs.length > 0 ? ` Manager flags added: ${managerArgs.map((a) => `\`${a}\``).join(' ')}.` : ''}${managerNodeArgs.length > 0 ? ` Node flags added to the manager: ${managerNodeArgs.map((a) => `\`${a}\``).join(' ')}.` : ''}${cpuGroups ? ` CPU requests, as a kubelet weights them: ${cpuGroups.describe()}; each API server and controller manager in a group of its own, the managers (leader and standby) sharing one, every other process at the default weight.` : ''}\n${failures.map((f) => `\nNot measured: ${f.split('\n')[0]}\n`).join('')}`,
  );
  if (failures.length > 0) await writeFile(`${base}.failures.txt`, `${failures.join('\n\n')}\n`);
  await writeFile(`${base}.svg`, svgChart(plain, workloads));
  process.stdout.write(`${table}\n`);
  if (failures.length > 0) {
    process.stderr.write(`[bench] ${failures.length} restart(s) not measured; see ${base}.failures.txt\n`);
    process.exitCode = 1;
  }
} finally {
  await set.down();
  cpuGroups?.remove();
}

function svgChart(rows: readonly PlainRestartRow[], n: number): string {
  // Grouped bars: seconds to /livez, /readyz, the early change's first useful write and propagation, first reconcile
  // and (after the late change) change propagated, per strategy.
  const metrics = [
    ['livezMs', '/livez'],
    ['readyzMs', '/readyz'],
    ['firstUsefulWriteMs', 'first useful write'],
    ['earlyChangePropagatedMs', 'early change propagated'],
    ['firstReconcileMs', 'first reconcile'],
    ['changePropagatedMs', 'change propagated'],
  ] as const;
  const colors = ['#2b8a3e', '#1c7ed6', '#f59f00', '#7048e8', '#e8590c'];
  const name = (r: PlainRestartRow) => {
    const flags = r.nodeArgs && r.nodeArgs.length > 0 ? ` ${r.nodeArgs.join(' ')}` : '';
    return r.restart === 'SIGKILL'
      ? `${r.strategy}${flags}`
      : `${r.strategy} (${r.restart === 'failover' ? 'fail-over' : r.restart})${flags}`;
  };
  const max = Math.max(1, ...rows.flatMap((r) => metrics.map(([k]) => r[k]))) / 1000;
  const W = 960;
  const H = 340;
  const left = 60;
  const bottom = 260;
  const groupW = (W - left - 20) / metrics.length;
  const barW = groupW / (rows.length + 1);
  const bars = metrics.flatMap(([k, label], gi) => [
    `<text x="${left + gi * groupW + groupW / 2}" y="${bottom + 18}" text-anchor="middle" font-size="12">${label}</text>`,
    ...rows.map((r, ri) => {
      const v = r[k] / 1000;
      const h = (v / max) * (bottom - 40);
      const x = left + gi * groupW + (ri + 0.5) * barW;
      return `<rect x="${x.toFixed(1)}" y="${(bottom - h).toFixed(1)}" width="${(barW * 0.9).toFixed(1)}" height="${h.toFixed(1)}" fill="${colors[ri % colors.length]}"><title>${name(r)}: ${v.toFixed(2)} s</title></rect><text x="${(x + barW * 0.45).toFixed(1)}" y="${(bottom - h - 4).toFixed(1)}" text-anchor="middle" font-size="10">${v.toFixed(1)}</text>`;
    }),
  ]);
  const legend = rows.map(
    (r, i) =>
      `<rect x="${left + (i % 3) * 300}" y="${285 + Math.floor(i / 3) * 20}" width="12" height="12" fill="${colors[i % colors.length]}"/><text x="${left + (i % 3) * 300 + 18}" y="${295 + Math.floor(i / 3) * 20}" font-size="12">${name(r)}: ${r.directReads} direct reads, ${r.writesAfterRestart} writes</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif">
<text x="${left}" y="20" font-size="14" font-weight="bold">warmstart restart in front of ${n} workloads (seconds after process start; fail-over: the early change and first reconcile after the kill; change propagated: after the late change)</text>
<line x1="${left}" y1="${bottom}" x2="${W - 20}" y2="${bottom}" stroke="#333"/>
${bars.join('\n')}
${legend.join('\n')}
</svg>
`;
}

/** Waits for a fifth of the bindings, then profiles the host API server; says what it wrote, or why nothing. */
async function profileFirstPropagation(
  host: LocalCluster,
  file: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string> {
  try {
    const from = await waitFor(
      `${Math.ceil(workloads / 5)} bindings, to start the host kube-apiserver's CPU profile`,
      async () => {
        const n = await countObjects(host, '/apis/work.karmada.io/v1alpha2/resourcebindings');
        return n >= workloads / 5 && n;
      },
      { timeoutMs, intervalMs: 1000, signal },
    );
    await fetchCpuProfile(adminIdentity(host), PROFILE_SECONDS, file, signal);
    return `host kube-apiserver CPU profile, ${PROFILE_SECONDS} s from ${from} of ${workloads} bindings: ${file} (go tool pprof -top -cum ${file})`;
  } catch (error) {
    if (signal.aborted)
      return `no host kube-apiserver CPU profile: the first propagation ended before its ${PROFILE_SECONDS} s window did`;
    return `no host kube-apiserver CPU profile: ${error instanceof Error ? error.message : String(error)}`;
  }
}
