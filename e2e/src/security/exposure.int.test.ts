// Issue 9, what the manager exposes: (b) started with its defaults, /metrics and the dashboard listen on
// 127.0.0.1 only (the kernel's socket table says so, and a non-loopback address is refused); (c) its logs, at
// the most verbose level, hold neither its credentials (the kubeconfig's certificate and key, a member's token)
// nor object data (marker values in a ConfigMap's data and a Deployment's env), although it propagated both
// and hit a conflict on the way.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort, type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { waitLeading } from '../ha/leadership.js';
import { parseLogLines } from '../ha/log-lines.js';
import {
  adminCall,
  deploymentBody,
  ensureNamespace,
  policyBody,
  prepareHost,
  waitReplicas,
} from '../ha/workload.js';
import { CLUSTER_SECRET_NAMESPACE } from '../karmada/join.js';
import { type ManagerProcess, startManager } from '../manager/manager-process.js';

const MAIN = fileURLToPath(new URL('../../../apps/controller-manager/dist/main.js', import.meta.url));
const DEFAULT_METRICS = 8080;
const DEFAULT_DASHBOARD = 8090;
const run = promisify(execFile);

class PortTakenError extends Error {
  constructor(port: number) {
    super(
      `127.0.0.1:${port} is in use by another process, so the manager cannot be started with its default bind addresses; stop that process and run this file again`,
    );
    this.name = 'PortTakenError';
  }
}

function assertFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', () => reject(new PortTakenError(port)));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
  });
}

/** Resolves 'refused' or 'connected' for a TCP connect to host:port. */
function tryConnect(host: string, port: number): Promise<'refused' | 'connected'> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', () => resolve('refused'));
    socket.once('timeout', () => {
      socket.destroy();
      resolve('refused');
    });
  });
}

/** Listening TCP sockets of one process, as `address:port`, from `ss`. */
async function listeningSockets(pid: number): Promise<string[]> {
  const { stdout } = await run('ss', ['-H', '-ltnp']);
  return stdout
    .split('\n')
    .filter((l) => l.includes(`pid=${pid},`))
    .map((l) => l.trim().split(/\s+/)[3] ?? '');
}

/** The base64 and PEM-body forms of a secret a log line could carry. */
function secretForms(base64: string): string[] {
  const decoded = Buffer.from(base64, 'base64').toString('utf8');
  const pemLines = decoded
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length >= 32 && !l.startsWith('-----'));
  return [base64, ...pemLines, ...(decoded.includes('-----') ? [] : [decoded])];
}

describe('what the manager exposes', () => {
  let set: LocalClusterSet;
  let host: ClusterInfo;
  let member: ClusterInfo;
  let child: ChildProcess | undefined;
  let manager: ManagerProcess | undefined;

  beforeAll(async () => {
    set = await new LocalProvider().up({ clusters: 2 });
    host = set.cluster('host');
    member = set.cluster('member1');
    await prepareHost(host, [member]);
  }, 120_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await manager?.stop('SIGKILL');
    await set?.down();
  });

  it('binds /metrics and the dashboard to 127.0.0.1 by default', async (ctx) => {
    ctx.onTestFinished(() => {
      child?.kill('SIGKILL');
      child = undefined;
    });
    await assertFree(DEFAULT_METRICS);
    await assertFree(DEFAULT_DASHBOARD);
    const probesPort = await freePort();
    // Only what a test must set: the kubeconfig, and probes off the shared default port (probes bind every
    // interface by default, on purpose: the kubelet probes the pod IP).
    child = spawn(
      process.execPath,
      [MAIN, `--kubeconfig=${host.managerKubeconfig}`, `--health-probe-bind-address=127.0.0.1:${probesPort}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    const serving = await waitFor(
      'the manager to log where it serves',
      () => parseLogLines(stderr.split('\n')).find((r) => r.msg === 'serving probes'),
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    expect(new URL(String(serving.metrics)).host).toBe(`127.0.0.1:${DEFAULT_METRICS}`);
    expect(new URL(String(serving.dashboard)).host).toBe(`127.0.0.1:${DEFAULT_DASHBOARD}`);

    const sockets = await listeningSockets(child.pid!);
    process.stderr.write(`[exposure] listening: ${sockets.join(', ')}\n`);
    expect(sockets).toEqual(
      expect.arrayContaining([`127.0.0.1:${DEFAULT_METRICS}`, `127.0.0.1:${DEFAULT_DASHBOARD}`]),
    );
    expect(sockets.filter((s) => !s.startsWith('127.0.0.1:'))).toEqual([]);
    expect((await fetch(`http://127.0.0.1:${DEFAULT_METRICS}/metrics`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${DEFAULT_DASHBOARD}/`)).status).toBe(200);

    // From the machine's own non-loopback addresses, where it has any, both ports are closed.
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && !a.internal && a.family === 'IPv4')
      .map((a) => a!.address);
    process.stderr.write(
      `[exposure] refused from non-loopback addresses: ${external.join(', ') || 'none here'}\n`,
    );
    for (const address of external) {
      expect(await tryConnect(address, DEFAULT_METRICS), `${address}:${DEFAULT_METRICS}`).toBe('refused');
      expect(await tryConnect(address, DEFAULT_DASHBOARD), `${address}:${DEFAULT_DASHBOARD}`).toBe('refused');
    }
  });

  it('logs neither its credentials nor object data, at trace level, through propagation and a conflict', async () => {
    const id = Math.random().toString(36).slice(2);
    const cmMarker = `cm-marker-${id}`;
    const envMarker = `env-marker-${id}`;
    const ns = `exposure-${id}`;
    for (const c of [host, member]) await ensureNamespace(c, ns);

    manager = await startManager({
      kubeconfig: host.managerKubeconfig,
      identity: 'exposure',
      // A Lease of its own: the first test's manager, if it failed before stopping, may still hold the default.
      args: ['--log-level=trace', '--leader-elect-resource-name=exposure'],
    });
    await waitLeading(manager, 60_000, 'the manager');

    await adminCall(host, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: ns },
      data: { secretish: cmMarker },
    });
    await adminCall(
      host,
      'POST',
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      deploymentBody({ namespace: ns, name: 'web', replicas: 2, env: { TOKEN: envMarker } }),
    );
    // 'taken' exists in the member already, not made by Karmada: applying it is a conflict, an error path.
    await adminCall(
      member,
      'POST',
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      deploymentBody({ namespace: ns, name: 'taken', replicas: 1, env: { TOKEN: `${envMarker}-member` } }),
    );
    await adminCall(
      host,
      'POST',
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      deploymentBody({ namespace: ns, name: 'taken', replicas: 3, env: { TOKEN: `${envMarker}-host` } }),
    );
    await adminCall(
      host,
      'POST',
      `/apis/policy.karmada.io/v1alpha1/namespaces/${ns}/propagationpolicies`,
      policyBody(
        ns,
        'all',
        [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' },
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'taken' },
        ],
        [member.name],
      ),
    );
    // The data went through the manager: both markers arrived in the member.
    await waitReplicas([member], ns, 'web', 2, 60_000);
    const cm = await waitFor(
      'the ConfigMap in the member',
      async () => {
        const body = (await adminCall(
          member,
          'GET',
          `/api/v1/namespaces/${ns}/configmaps/settings`,
          undefined,
          [200, 404],
        )) as { data?: Record<string, string> };
        return body.data ? body : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(cm.data?.secretish).toBe(cmMarker);
    const web = JSON.stringify(
      await adminCall(member, 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/web`),
    );
    expect(web).toContain(envMarker);
    // The conflict was met (the Work for 'taken' reports it) before the logs are read.
    await waitFor(
      "the conflict on 'taken' in its Work's status",
      async () => {
        const works = (await adminCall(
          host,
          'GET',
          `/apis/work.karmada.io/v1alpha1/namespaces/karmada-es-${member.name}/works`,
        )) as {
          items: {
            metadata: { name: string };
            status?: { conditions?: { type: string; status: string }[] };
          }[];
        };
        return works.items.some(
          (w) =>
            w.metadata.name.startsWith('taken-') &&
            w.status?.conditions?.some((c) => c.type === 'Applied' && c.status === 'False'),
        );
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );

    const kubeconfig = parse(readFileSync(host.managerKubeconfig, 'utf8')) as {
      users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
    };
    const user = kubeconfig.users[0]!.user;
    const memberSecret = (await adminCall(
      host,
      'GET',
      `/api/v1/namespaces/${CLUSTER_SECRET_NAMESPACE}/secrets/${member.name}`,
    )) as { data: { token: string } };
    const needles: Record<string, readonly string[]> = {
      'client certificate': secretForms(user['client-certificate-data']),
      'client key': secretForms(user['client-key-data']),
      "member's token": secretForms(memberSecret.data.token),
      'ConfigMap data': [cmMarker],
      'Deployment env': [envMarker],
    };
    const logs = manager.logs().join('\n');
    const lines = manager.logs().length;
    process.stderr.write(`[exposure] ${lines} log lines (${logs.length} bytes) searched\n`);
    expect(lines).toBeGreaterThan(50);
    // The search can find what is there: the object names are logged, as they should be.
    expect(logs).toContain(ns);
    const found = Object.entries(needles)
      .filter(([, forms]) => forms.some((f) => logs.includes(f)))
      .map(([what]) => what);
    expect(found).toEqual([]);
  });
});
