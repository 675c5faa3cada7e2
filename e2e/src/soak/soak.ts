// pnpm soak [--minutes 30] [--restart-every 5] [--rate 5] [--population 100] [--rss-bound-mib 512] [--seed N]
// Boots a local set (host + 2 members) and runs the built manager under steady churn: creates, replica updates
// and deletes of Deployments a PropagationPolicy selects, at --rate per second, restarting the manager every
// --restart-every minutes (alternately SIGTERM and SIGKILL) and sampling its RSS every 10 s. Then it stops the
// churn, waits for convergence and checks every name on both members: present with the host's replicas, or
// absent. Prints a summary, writes e2e/results/soak.json and exits 1 on any mismatch or an RSS over the bound.
// Not part of CI: run it when there is time (the README's "Soak" section has a 5-minute run and its result).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminRequest, type TlsIdentity } from '../cluster/admin-client.js';
import { LocalProvider } from '../cluster/local-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { ConditionTimeoutError, waitFor } from '../cluster/wait.js';
import { adminIdentity, installCrds, joinMember } from '../karmada/join.js';
import { type ManagerProcess, metricValue, startManager } from '../manager/manager-process.js';
import { ChurnModel, type ChurnOp, type Mismatch, mismatches, seededRandom } from './churn.js';
import { parseSoakOptions, SoakOptionError } from './options.js';
import { RssSampler } from './rss.js';

const NS = 'soak';
const SELECTOR = { 'warmstart.io/soak': 'yes' };
const IDENTITY = 'warmstart-soak';
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'results');
const say = (line: string) => process.stdout.write(`[soak] ${line}\n`);

let options: ReturnType<typeof parseSoakOptions>;
try {
  options = parseSoakOptions(process.argv.slice(2).filter((a) => a !== '--'));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof SoakOptionError || error instanceof TypeError ? 2 : 1);
}

async function call(id: TlsIdentity, method: string, path: string, body?: unknown, type?: string) {
  return adminRequest(id, method, path, body, undefined, type);
}

function deployment(name: string, replicas: number): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, labels: { app: name, ...SELECTOR } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: `registry.example.com/soak/${name}:1` }] },
      },
    },
  };
}

/** The Deployments of the soak namespace on one cluster: name -> replicas. */
async function replicasIn(cluster: ClusterInfo): Promise<Map<string, number>> {
  const res = await call(
    adminIdentity(cluster),
    'GET',
    `/apis/apps/v1/namespaces/${NS}/deployments?limit=1000`,
  );
  if (res.status !== 200) throw new Error(`listing Deployments on ${cluster.name}: ${res.status}`);
  const list = JSON.parse(res.body) as {
    items: { metadata: { name: string }; spec: { replicas?: number } }[];
  };
  return new Map(list.items.map((d) => [d.metadata.name, d.spec.replicas ?? 1]));
}

// The manager runs from its build, as users run it; turbo rebuilds only what changed.
const root = fileURLToPath(new URL('../../../', import.meta.url));
execFileSync(
  `${root}node_modules/.bin/turbo`,
  ['run', 'build', '--filter=@warmstart/controller-manager...', '--output-logs=errors-only'],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
const set = await new LocalProvider({ log: (l) => say(l) }).up({ clusters: 3 });
let exitCode = 1;
try {
  exitCode = await run(set.clusters[0]!, set.clusters.slice(1));
} finally {
  await set.down();
}
process.exit(exitCode);

async function run(host: ClusterInfo, members: readonly ClusterInfo[]): Promise<number> {
  const hostId = adminIdentity(host);
  await installCrds(host);
  for (const m of members) await joinMember(host, m);
  for (const c of [host, ...members])
    await call(adminIdentity(c), 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NS },
    });
  await call(hostId, 'POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'karmada-system' },
  });
  const policy = await call(
    hostId,
    'POST',
    `/apis/policy.karmada.io/v1alpha1/namespaces/${NS}/propagationpolicies`,
    {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'soak', namespace: NS },
      spec: {
        resourceSelectors: [
          { apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: SELECTOR } },
        ],
        placement: { clusterAffinity: { clusterNames: members.map((m) => m.name) } },
      },
    },
  );
  if (policy.status !== 201)
    throw new Error(`creating the policy: ${policy.status} ${policy.body.slice(0, 300)}`);

  // Outside the set's work directory, which goes when the set does: a failed run's log is what to read next.
  await mkdir(join(RESULTS, 'tmp'), { recursive: true });
  const logPath = join(RESULTS, 'tmp', 'soak-manager.log');
  await writeFile(logPath, '');
  const launch = async (): Promise<ManagerProcess> => {
    const m = await startManager({ kubeconfig: host.managerKubeconfig, identity: IDENTITY, logPath });
    await m.livezMs();
    return m;
  };
  let manager = await launch();
  let stopping = false;
  let unexpectedExits = 0;
  const watchExit = (m: ManagerProcess) =>
    void m.exited.then(({ code, signal }) => {
      if (stopping || m !== manager) return;
      unexpectedExits++;
      say(`the manager exited by itself (code ${code}, signal ${signal}); starting another`);
      void launch().then((next) => {
        manager = next;
        watchExit(next);
      });
    });
  watchExit(manager);
  const rss = new RssSampler(() => manager.pid);
  rss.sample();
  let directReads = 0;

  say(
    `churn: ${options.rate}/s for ${options.minutes} min, population ${options.population}, restart every ` +
      `${options.restartEveryMinutes || '-'} min, seed ${options.seed}, manager log ${logPath}`,
  );
  const model = new ChurnModel(options.population, seededRandom(options.seed));
  let operations = 0;
  let refused = 0;
  const uncertain = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const apply = async (op: ChurnOp): Promise<void> => {
    const path = `/apis/apps/v1/namespaces/${NS}/deployments`;
    try {
      const res =
        op.kind === 'create'
          ? await call(hostId, 'POST', path, deployment(op.name, op.replicas))
          : op.kind === 'update'
            ? await call(
                hostId,
                'PATCH',
                `${path}/${op.name}`,
                { spec: { replicas: op.replicas } },
                'application/merge-patch+json',
              )
            : await call(hostId, 'DELETE', `${path}/${op.name}`);
      if (res.status === 200 || res.status === 201 || res.status === 202) {
        operations++;
        model.applied(op);
      } else {
        refused++;
        model.failed(op);
        say(`${op.kind} ${op.name} refused: ${res.status} ${res.body.slice(0, 200)}`);
      }
    } catch (error) {
      // No answer: the server may or may not have applied it. The host stays the reference at the end.
      uncertain.add(op.name);
      model.failed(op);
      say(`${op.kind} ${op.name} got no answer: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const startedAt = Date.now();
  const endAt = startedAt + options.minutes * 60_000;
  const restartMs = options.restartEveryMinutes * 60_000;
  let nextRestart = restartMs > 0 ? startedAt + restartMs : Number.POSITIVE_INFINITY;
  let restarts = 0;
  let nextOpAt = startedAt;
  let lastReport = startedAt;
  while (Date.now() < endAt) {
    if (Date.now() >= nextRestart) {
      const signal = restarts % 2 === 0 ? 'SIGTERM' : 'SIGKILL';
      const old = manager;
      rss.notePeak(old.pid);
      directReads += metricValue(await old.metrics().catch(() => ''), 'warmstart_direct_reads_total');
      stopping = true;
      const t0 = Date.now();
      await old.stop(signal);
      manager = await launch();
      stopping = false;
      watchExit(manager);
      restarts++;
      say(`restart ${restarts} by ${signal}: new manager live after ${Date.now() - t0} ms`);
      nextRestart += restartMs;
    }
    const op = model.next();
    if (op) {
      const p = apply(op).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    if (Date.now() - lastReport >= 30_000) {
      lastReport = Date.now();
      const minutes = ((lastReport - startedAt) / 60_000).toFixed(1);
      say(
        `${minutes} min: ${operations} operations, ${model.live} live, RSS ${mib(rss.samples.at(-1)?.rssBytes ?? 0)}`,
      );
    }
    // A steady rate: the next operation is due 1/rate s after the last one was due, however long it took.
    nextOpAt += 1000 / options.rate;
    await new Promise((r) => setTimeout(r, Math.max(0, nextOpAt - Date.now())));
  }
  await Promise.all(inFlight);
  say(
    `churn stopped after ${operations} operations (${refused} refused, ${uncertain.size} unanswered); converging`,
  );

  // The host is the reference: what it holds now is what both members must hold.
  const want = await replicasIn(host);
  const expected = new Map<string, number | undefined>(model.expected());
  for (const name of uncertain) expected.set(name, want.get(name));
  const modelDivergence = mismatches(host.name, expected, want);
  const reference = new Map<string, number | undefined>(want);
  const convergeStart = Date.now();
  let last: Mismatch[] = [];
  try {
    await waitFor(
      'both members to match the host',
      async () => {
        last = [];
        for (const m of members) last.push(...mismatches(m.name, reference, await replicasIn(m)));
        if (Date.now() - lastReport >= 10_000) {
          lastReport = Date.now();
          say(
            `converging: ${last.length} objects not yet as on the host, e.g. ${JSON.stringify(last.slice(0, 2))}`,
          );
        }
        return last.length === 0;
      },
      { timeoutMs: options.convergeTimeoutMs, intervalMs: 1_000 },
    );
  } catch (error) {
    if (!(error instanceof ConditionTimeoutError)) throw error;
  }
  const convergedMs = Date.now() - convergeStart;
  rss.sample();
  rss.notePeak(manager.pid);
  directReads += metricValue(await manager.metrics().catch(() => ''), 'warmstart_direct_reads_total');
  rss.stop();
  stopping = true;
  await manager.stop('SIGTERM');

  const summary = {
    minutes: options.minutes,
    restarts,
    operations,
    maxRssBytes: rss.maxBytes,
    rssBoundBytes: options.rssBoundBytes,
    mismatches: last,
    // Beyond the required fields: enough to read a run later.
    rate: options.rate,
    restartEveryMinutes: options.restartEveryMinutes,
    population: options.population,
    seed: options.seed,
    refused,
    unanswered: uncertain.size,
    modelDivergence,
    unexpectedExits,
    directReads,
    liveAtEnd: want.size,
    convergedMs,
    rssSamples: rss.samples.map((s) => ({
      t: Math.round((s.at - startedAt) / 1000),
      pid: s.pid,
      mib: +mibN(s.rssBytes).toFixed(1),
    })),
  };
  await mkdir(RESULTS, { recursive: true });
  const out = options.json ?? join(RESULTS, 'soak.json');
  await writeFile(out, `${JSON.stringify(summary, null, 2)}\n`);

  const failures: string[] = [];
  if (last.length > 0) failures.push(`${last.length} mismatches, e.g. ${JSON.stringify(last.slice(0, 3))}`);
  if (rss.maxBytes > options.rssBoundBytes)
    failures.push(`RSS ${mib(rss.maxBytes)} over the bound of ${mib(options.rssBoundBytes)}`);
  if (modelDivergence.length > 0)
    failures.push(
      `the host differs from the churn's own record: ${JSON.stringify(modelDivergence.slice(0, 3))}`,
    );
  if (unexpectedExits > 0) failures.push(`the manager exited by itself ${unexpectedExits} times`);
  if (directReads > 0) failures.push(`${directReads} direct reads`);
  say(
    `${options.minutes} min at ${options.rate}/s: ${operations} operations, ${restarts} restarts, ${want.size} ` +
      `Deployments live; members ${last.length === 0 ? `matched the host ${convergedMs} ms after churn stopped` : 'DID NOT match'}; ` +
      `max RSS ${mib(rss.maxBytes)} (bound ${mib(options.rssBoundBytes)}); direct reads ${directReads}; wrote ${out}`,
  );
  for (const f of failures) say(`FAILED: ${f}`);
  return failures.length === 0 ? 0 : 1;
}

function mibN(bytes: number): number {
  return bytes / 2 ** 20;
}

function mib(bytes: number): string {
  return `${mibN(bytes).toFixed(0)} MiB`;
}
