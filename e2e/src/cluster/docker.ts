// The few Docker engine calls the container providers and tests make, through the docker CLI (the engine is
// started by scripts/docker-setup.sh). Everything the harness creates carries the label `warmstart.e2e`, so
// what a crashed run left behind can be found and removed.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Label on every container and network the e2e harness creates; its value names the run or suite. */
export const E2E_LABEL = 'warmstart.e2e';

export class DockerUnavailableError extends Error {
  constructor(reason: string) {
    super(
      `no usable Docker engine: ${reason}. Run \`bash scripts/docker-setup.sh\` as root (it installs docker.io, ` +
        'starts dockerd with the runc wrapper these VMs need); set WARMSTART_SKIP_CONTAINER_TESTS=1 only to skip the ' +
        'container suites on purpose.',
    );
    this.name = 'DockerUnavailableError';
  }
}

export interface DockerResult {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `docker ...args`; rejects with the command and its stderr when it fails. */
export async function docker(
  args: readonly string[],
  options: { readonly timeoutMs?: number; readonly signal?: AbortSignal | undefined } = {},
): Promise<DockerResult> {
  try {
    const { stdout, stderr } = await run('docker', [...args], {
      timeout: options.timeoutMs ?? 120_000,
      signal: options.signal,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr };
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`docker ${args.join(' ')}: ${(e.stderr ?? '').trim() || e.message}`, { cause: error });
  }
}

/** Says why Docker cannot be used here, or undefined when `docker info` answers. */
export async function dockerUnavailableReason(): Promise<string | undefined> {
  try {
    await run('docker', ['version', '--format', '{{.Client.Version}}'], { timeout: 10_000 });
  } catch {
    return 'the docker CLI is not installed';
  }
  try {
    await run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 15_000 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    return `the engine does not answer \`docker info\`${stderr ? ` (${stderr.split('\n')[0]})` : ''}`;
  }
  return undefined;
}

/** Memory a container uses now (the cgroup's usage, as `docker stats` shows it), in bytes. */
export async function containerMemoryBytes(name: string): Promise<number> {
  const { stdout } = await docker(['stats', '--no-stream', '--format', '{{.MemUsage}}', name], {
    timeoutMs: 30_000,
  });
  return parseDockerSize(stdout.split('/')[0]?.trim() ?? '');
}

/** `512MiB`, `1.2GiB`, `300kB` -> bytes. */
export function parseDockerSize(text: string): number {
  const m = /^([\d.]+)\s*([KMGT]?i?B)$/i.exec(text.trim());
  if (!m) return 0;
  const units: Record<string, number> = {
    B: 1,
    KB: 1e3,
    MB: 1e6,
    GB: 1e9,
    TB: 1e12,
    KIB: 1024,
    MIB: 1024 ** 2,
    GIB: 1024 ** 3,
    TIB: 1024 ** 4,
  };
  return Math.round(Number(m[1]) * (units[m[2]!.toUpperCase()] ?? 0));
}

/** Removes every container, then every network, carrying `label` (`key` or `key=value`). Returns how many. */
export async function removeByLabel(label: string): Promise<number> {
  const containers = (await docker(['ps', '-aq', '--filter', `label=${label}`])).stdout
    .split('\n')
    .filter(Boolean);
  if (containers.length > 0) await docker(['rm', '-f', '-v', ...containers]);
  const networks = (await docker(['network', 'ls', '-q', '--filter', `label=${label}`])).stdout
    .split('\n')
    .filter(Boolean);
  for (const n of networks) await docker(['network', 'rm', n]).catch(() => undefined);
  return containers.length + networks.length;
}
