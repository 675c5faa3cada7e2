// Informer benchmark against a real kube-apiserver: boots one local cluster, seeds N realistic Deployments (the API
// server adds managedFields), then measures time to synced and heap per cached object for warmstart (WatchList and
// paged LIST), @kubernetes/client-node's makeInformer, and the floor (a raw paged LIST + JSON.parse keeping nothing),
// each in a fresh child process. See bench/README.md.
//
//   pnpm bench:informer --objects 10000 [--json e2e/results/informer-10k.json] [--runs 3] [--diagnostics]
//     [--impl raw-list,client-node] [--concurrency 32] [--no-warmup]
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LocalProvider } from '../src/cluster/local-provider.js';
import { adminIdentity } from '../src/karmada/join.js';
import { formatProgress, type SeedProgress, seed } from '../src/load/seed.js';
import { type ChildResult, DIAGNOSTIC_IMPLS, IMPLS, type Impl, toRow } from './row.js';

const { values } = parseArgs({
  options: {
    objects: { type: 'string', default: '10000' },
    json: { type: 'string' },
    runs: { type: 'string', default: '1' },
    impl: { type: 'string', default: IMPLS.join(',') },
    concurrency: { type: 'string', default: '32' },
    'no-warmup': { type: 'boolean', default: false },
    diagnostics: { type: 'boolean', default: false },
  },
});
const objects = Number(values.objects);
const runs = Number(values.runs);
const known: readonly string[] = [...IMPLS, ...DIAGNOSTIC_IMPLS];
const impls = values.impl.split(',') as Impl[];
for (const i of impls)
  if (!known.includes(i)) throw new Error(`unknown --impl ${i} (known: ${known.join(', ')})`);
if (values.diagnostics) impls.splice(1, 0, ...DIAGNOSTIC_IMPLS.filter((d) => !impls.includes(d)));
if (!Number.isInteger(objects) || objects < 1) throw new Error(`--objects must be a positive integer`);
// pnpm runs the script in e2e/; a relative --json is meant from where the command was typed.
const jsonPath = values.json && resolve(process.env.INIT_CWD ?? process.cwd(), values.json);

const here = dirname(fileURLToPath(import.meta.url));
const childPath = resolve(here, 'informer-child.ts');
const tsx = import.meta.resolve('tsx');
const log = (line: string) => process.stderr.write(`${line}\n`);

function runChild(impl: Impl, kubeconfig: string): Promise<ChildResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--max-old-space-size=16384',
        '--conditions=@warmstart/source',
        '--import',
        tsx,
        childPath,
        impl,
        kubeconfig,
        String(objects),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => {
      out += c;
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0) reject(new Error(`${impl} child exited with ${code ?? signal}`));
      else resolvePromise(JSON.parse(out.trim()) as ChildResult);
    });
  });
}

function median(rows: readonly ChildResult[]): ChildResult {
  const sorted = [...rows].sort((a, b) => a.syncMs - b.syncMs);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function table(rows: readonly ChildResult[]): string {
  const raw = rows.find((r) => r.impl === 'raw-list');
  const cn = rows.find((r) => r.impl === 'client-node');
  const header = [
    'impl',
    'objects',
    'sync ms',
    'vs raw-list',
    'client CPU ms',
    'heap B/object',
    'vs client-node',
    'RSS MiB',
  ];
  const lines = rows.map((r) => [
    r.impl,
    String(r.objects),
    String(r.syncMs),
    raw && r !== raw ? `${(r.syncMs / raw.syncMs).toFixed(2)}x` : '',
    String(r.cpuMs),
    r.impl.startsWith('raw-') ? '(keeps nothing)' : String(r.heapBytesPerObject),
    cn && r !== cn && !r.impl.startsWith('raw-')
      ? `${(r.heapBytesPerObject / cn.heapBytesPerObject).toFixed(2)}x`
      : '',
    (r.rssBytes / 2 ** 20).toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

function verdicts(rows: readonly ChildResult[]): string[] {
  const raw = rows.find((r) => r.impl === 'raw-list');
  const rawWatchList = rows.find((r) => r.impl === 'raw-watchlist');
  const cn = rows.find((r) => r.impl === 'client-node');
  const out: string[] = [];
  for (const r of rows.filter((x) => x.impl.startsWith('warmstart'))) {
    if (raw) {
      const x = r.syncMs / raw.syncMs;
      out.push(`${r.impl}: sync ${x.toFixed(2)}x raw-list (target <= 1.3x): ${x <= 1.3 ? 'met' : 'MISSED'}`);
    }
    if (rawWatchList && r.impl === 'warmstart-watchlist') {
      const floor = rawWatchList.syncMs / (raw?.syncMs ?? rawWatchList.syncMs);
      out.push(
        `${r.impl}: sync ${(r.syncMs / rawWatchList.syncMs).toFixed(2)}x raw-watchlist (diagnostic; raw-watchlist is ` +
          `${floor.toFixed(2)}x raw-list)`,
      );
    }
    if (cn) {
      const x = r.heapBytesPerObject / cn.heapBytesPerObject;
      out.push(
        `${r.impl}: heap ${x.toFixed(2)}x client-node (target <= 0.5x): ${x <= 0.5 ? 'met' : 'MISSED'}`,
      );
    }
    const kib = r.heapBytesPerObject / 1024;
    out.push(
      `${r.impl}: heap ${kib.toFixed(2)} KiB/object (target <= 6 KiB): ${kib <= 6 ? 'met' : 'MISSED'}`,
    );
  }
  return out;
}

const set = await new LocalProvider({ log: (l) => log(`[local-provider] ${l}`) }).up({
  clusters: 1,
  controllerManager: false,
});
try {
  const cluster = set.clusters[0]!;
  log(`seeding ${objects} Deployments into ${cluster.server}`);
  let lastLine = 0;
  const progress = (p: SeedProgress) => {
    if (process.stderr.isTTY) process.stderr.write(`\r${formatProgress(p)}`);
    else if (p.done === p.total || Date.now() - lastLine >= 10_000) {
      lastLine = Date.now();
      log(formatProgress(p));
    }
  };
  const seeded = await seed({
    workloads: objects,
    namespaces: Math.max(1, Math.ceil(objects / 1000)),
    identity: adminIdentity(cluster),
    concurrency: Number(values.concurrency),
    onProgress: progress,
  });
  if (process.stderr.isTTY) process.stderr.write('\n');
  log(
    `seeded ${seeded.created} Deployments in ${(seeded.elapsedMs / 1000).toFixed(0)} s (${seeded.perSecond}/s)`,
  );

  // The manager user is cluster-admin in this set; every child authenticates with its client certificate.
  const kubeconfig = cluster.managerKubeconfig;
  if (!values['no-warmup']) {
    log('warm-up: one raw paged LIST (not reported)');
    await runChild('raw-list', kubeconfig);
  }
  const measured = new Map<Impl, ChildResult[]>();
  for (let run = 1; run <= runs; run++) {
    for (const impl of impls) {
      const row = await runChild(impl, kubeconfig);
      log(`run ${run}/${runs} ${JSON.stringify(row)}`);
      measured.set(impl, [...(measured.get(impl) ?? []), row]);
    }
  }
  const rows = impls.map((impl) => median(measured.get(impl)!));
  process.stdout.write(
    `\n${objects} Deployments, ${runs === 1 ? 'one run' : `median of ${runs} runs by sync time`}\n\n${table(rows)}\n\n${verdicts(rows).join('\n')}\n`,
  );
  if (jsonPath) {
    await mkdir(dirname(jsonPath), { recursive: true });
    const written = rows.filter((r) => (IMPLS as readonly string[]).includes(r.impl)).map(toRow);
    await writeFile(jsonPath, `${JSON.stringify(written, null, 2)}\n`);
    log(`wrote ${jsonPath}`);
  }
} finally {
  await set.down();
}
