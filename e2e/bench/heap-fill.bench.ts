// Heap-fill benchmark: the event-loop stalls and full GCs of a manager-sized informer heap filling while the
// machine's cores are busy, for each set of Node/V8 flags given, side by side in one run and in minutes (the
// 100k restart bench that shows the same takes two hours). Fake API servers, one process per kind, serve the
// manager's four big kinds per workload (by WatchList or paged LIST, as the 100k run's API server does); busy
// processes stand in for a kube-apiserver competing for the cores; each variant's informers run in a fresh
// process. See bench/README.md.
//
//   pnpm bench:heap-fill [--objects 600000] [--hogs 2] [--churn-s 30] [--churn-rate 1000] [--quiet-s 130]
//     [--variant=--initial-old-space-size=4096 ...] [--json e2e/results/heap-fill.json]
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type ChildMessage,
  type HeapFillResult,
  type ParentMessage,
  type ServerMessage,
  servedKinds,
} from './heap-fill-protocol.js';
import { heapFillTable } from './heap-fill-table.js';

const { values } = parseArgs({
  options: {
    objects: { type: 'string', default: '600000' },
    hogs: { type: 'string', default: '1' },
    'churn-s': { type: 'string', default: '30' },
    'churn-rate': { type: 'string', default: '1000' },
    'quiet-s': { type: 'string', default: '130' },
    variant: { type: 'string', multiple: true },
    'base-flags': { type: 'string', default: '--max-old-space-size=12288' },
    json: { type: 'string' },
  },
});
const positive = (name: string, value: string, min = 1): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be an integer of at least ${min}, not "${value}"`);
  return n;
};
const objects = positive('objects', values.objects, 4);
const perKind = Math.floor(objects / servedKinds.length);
const hogs = positive('hogs', values.hogs, 0);
const churnS = positive('churn-s', values['churn-s'], 0);
const churnRate = positive('churn-rate', values['churn-rate']);
const quietS = positive('quiet-s', values['quiet-s'], 0);
// The defaults: the manager as it ships, with the old generation sized above the filled heap, and that without
// V8's memory reducer (manager README "Heap size at scale"). The quiet time is long enough for the reducer (about
// 100 s after a full GC).
const variants = values.variant ?? [
  '',
  '--initial-old-space-size=4096',
  '--initial-old-space-size=4096 --no-memory-reducer',
];
const baseFlags = values['base-flags'].split(' ').filter(Boolean);
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const jsonPath = resolve(
  process.env.INIT_CWD ?? process.cwd(),
  values.json ?? join(repo, 'e2e', 'results', 'heap-fill.json'),
);
const tsx = import.meta.resolve('tsx');
const log = (line: string) => process.stderr.write(`[heap-fill] ${line}\n`);
const toServer = (server: ChildProcess, m: ParentMessage) => server.send(m);

function node(script: string, flags: readonly string[], args: readonly string[]): ChildProcess {
  return spawn(
    process.execPath,
    [...flags, '--conditions=@warmstart/source', '--import', tsx, join(here, script), ...args],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
}

/** The first IPC message of `type` from `child`, or an error if it exits first or `timeoutMs` passes. */
function message<M extends { type: string }, T extends M['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
  what: string,
): Promise<Extract<M, { type: T }>> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${what}: no "${type}" within ${timeoutMs / 1000} s; see its output above`));
    }, timeoutMs);
    const onMessage = (m: M) => {
      if (m.type !== type) return;
      cleanup();
      resolvePromise(m as Extract<M, { type: T }>);
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(new Error(`${what} exited with ${code ?? signal} before "${type}"; see its output above`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

const work = await mkdtemp(join(tmpdir(), 'heap-fill-'));
const busy: ChildProcess[] = [];
log(
  `serving ${perKind * servedKinds.length} objects (${perKind} per kind), ${hogs} busy process(es), variants: ${variants.map((v) => v || '(none)').join(' | ')}`,
);
const servers = servedKinds.map((k) => ({
  kind: k.kind,
  process: node('heap-fill-server.ts', ['--max-old-space-size=8192'], [k.kind, String(perKind)]),
}));
try {
  // Every server's listener at once: an IPC message that arrives while nothing listens is dropped.
  const kubeconfigs = await Promise.all(
    servers.map(async (s) => {
      const ready = await message<ServerMessage, 'ready'>(
        s.process,
        'ready',
        1_800_000,
        `the ${s.kind} server`,
      );
      const path = join(work, `${s.kind}.kubeconfig`);
      await writeFile(path, ready.kubeconfig);
      return path;
    }),
  );
  for (let i = 0; i < hogs; i++)
    busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));

  const results: HeapFillResult[] = [];
  for (const variant of variants) {
    const flags = [...baseFlags, ...variant.split(' ').filter(Boolean)];
    log(`informers with ${flags.join(' ')}`);
    const child = node('heap-fill-child.ts', flags, [
      String(perKind),
      String(churnS),
      String(quietS),
      ...kubeconfigs,
    ]);
    const what = `the informer process (${flags.join(' ')})`;
    const result = message<ChildMessage, 'result'>(child, 'result', 3_600_000, what);
    await message<ChildMessage, 'synced'>(child, 'synced', 1_800_000, what);
    for (const s of servers)
      toServer(s.process, {
        type: 'churn',
        seconds: churnS,
        perSecond: Math.max(1, Math.round(churnRate / servers.length)),
      });
    const r = (await result).result;
    results.push(r);
    log(JSON.stringify({ ...r, stalls: r.stalls.length }));
  }

  const table = heapFillTable(results);
  const settings = `${perKind * servedKinds.length} objects (${perKind} per kind: host Deployments, ResourceBindings, Works; member Deployments), ${hogs} busy process(es) beside the four API-server processes, churn ${churnRate} objects/s for ${churnS} s after the fill, then ${quietS} s quiet.`;
  await mkdir(dirname(jsonPath), { recursive: true });
  await writeFile(
    jsonPath,
    `${JSON.stringify({ objects: perKind * servedKinds.length, hogs, churnS, churnRate, quietS, results }, null, 2)}\n`,
  );
  await writeFile(jsonPath.replace(/\.json$/, '.md'), `${table}\n\n${settings}\n`);
  process.stdout.write(`${table}\n\n${settings}\n`);
} finally {
  for (const b of busy) b.kill('SIGKILL');
  for (const s of servers) {
    if (s.process.connected) toServer(s.process, { type: 'stop' });
    s.process.kill('SIGTERM');
  }
  await rm(work, { recursive: true, force: true });
}
