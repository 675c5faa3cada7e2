// No etcd, kube-apiserver or kube-controller-manager outlives the harness: not after a test process dies
// with an uncaught error, not after SIGINT.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor } from './wait.js';

const script = fileURLToPath(new URL('../testing/hold-cluster.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function holdCluster(
  mode: 'throw' | 'wait',
): Promise<{ pids: number[]; workDir: string; child: ReturnType<typeof spawn> }> {
  const child = spawn(tsx, [script, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (line.startsWith('{')) return { ...(JSON.parse(line) as { pids: number[]; workDir: string }), child };
  }
  throw new Error(`the child exited before printing its pids (exit ${child.exitCode})`);
}

describe('cluster processes are cleaned up', () => {
  it('after the test process dies of an uncaught error', async () => {
    const { pids, child } = await holdCluster('throw');
    expect(pids.length).toBe(3); // etcd, kube-apiserver, kube-controller-manager
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    expect(child.exitCode).not.toBe(0);
    await waitFor('every cluster process to be gone', () => pids.every((p) => !alive(p)), {
      timeoutMs: 10_000,
    });
  });

  it('after SIGINT, and the work directory is removed', async () => {
    const { pids, workDir, child } = await holdCluster('wait');
    expect(pids.every(alive)).toBe(true);
    const exited = new Promise<string>((r) =>
      child.once('exit', (code, signal) => r(signal ?? `exit ${code}`)),
    );
    child.kill('SIGINT');
    // tsx relays the signal to the node process it runs and then exits 130 (128 + SIGINT) itself.
    expect(['SIGINT', 'exit 130']).toContain(await exited);
    expect(pids.filter(alive)).toEqual([]);
    expect(existsSync(workDir)).toBe(false);
  });
});
