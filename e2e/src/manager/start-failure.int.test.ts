// A manager that cannot start must exit, not linger: its probe server opens before anything else (so /livez
// answers at once), and a start-up failure after that (a kubeconfig that cannot be read, a serving certificate
// that does not load) used to leave that server, and so a live-looking process, running. The kubelet would
// never restart it.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../../apps/controller-manager/dist/main.js', import.meta.url));

/** Runs the built manager with `args`; resolves its exit code and stderr, or rejects after `timeoutMs`. */
function runToExit(
  args: readonly string[],
  timeoutMs: number,
): Promise<{ code: number | null; log: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        MAIN,
        '--health-probe-bind-address=127.0.0.1:0',
        '--metrics-bind-address=0',
        '--dashboard-bind-address=0',
        ...args,
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      log += c;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the manager was still running after ${timeoutMs} ms:\n${log.slice(-1000)}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, log });
    });
  });
}

describe('a manager that cannot start', () => {
  it('exits 1 when its kubeconfig cannot be read, saying which file', async () => {
    const { code, log } = await runToExit(['--kubeconfig=/nonexistent/kubeconfig'], 15_000);
    expect(code).toBe(1);
    expect(log).toContain('manager failed');
    expect(log).toContain('/nonexistent/kubeconfig');
  });

  it('exits 1 when its serving certificate does not load, naming both flags', async () => {
    const host = inject('clusters')[0]!;
    const dir = await mkdtemp(join(tmpdir(), 'warmstart-not-a-cert-'));
    const notPem = join(dir, 'not-a-cert.pem');
    await writeFile(notPem, 'not a certificate\n');
    const { code, log } = await runToExit(
      [
        `--kubeconfig=${host.managerKubeconfig}`,
        `--tls-cert-file=${notPem}`,
        `--tls-private-key-file=${notPem}`,
      ],
      15_000,
    ).finally(() => rm(dir, { recursive: true, force: true }));
    expect(code).toBe(1);
    expect(log).toContain('ServingCertificateError');
    expect(log).toContain('--tls-private-key-file');
  });
});
