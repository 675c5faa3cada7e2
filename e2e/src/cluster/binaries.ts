// Finds or builds the etcd, kube-apiserver and kube-controller-manager binaries. The build itself is
// e2e/scripts/build-k8s-binaries.sh (a shell script so that it also runs by hand); this module runs it,
// streams its progress and turns a failure into an error that says what is missing.
import { spawn } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_K8S_VERSION = '1.37.2';
export const DEFAULT_ETCD_VERSION = '3.6.16';

export interface Binaries {
  readonly etcd: string;
  readonly kubeApiserver: string;
  readonly kubeControllerManager: string;
  readonly k8sVersion: string;
  readonly etcdVersion: string;
}

export interface EnsureBinariesOptions {
  readonly k8sVersion?: string | undefined;
  readonly etcdVersion?: string | undefined;
  /** Defaults to $WARMSTART_CACHE_DIR, else ~/.cache/warmstart. */
  readonly cacheDir?: string | undefined;
  /** Receives each progress line of the build. Defaults to stderr. */
  readonly onProgress?: ((line: string) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

export class BinaryBuildError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
    this.name = 'BinaryBuildError';
  }
}

export function cacheDir(explicit?: string): string {
  return (
    explicit ??
    process.env.WARMSTART_CACHE_DIR ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'warmstart')
  );
}

const script = resolve(fileURLToPath(import.meta.url), '../../../scripts/build-k8s-binaries.sh');

/** Where the binaries of these versions live, built or not. */
export function binaryPaths(options: EnsureBinariesOptions = {}): Binaries {
  const k8sVersion = options.k8sVersion ?? process.env.WARMSTART_K8S_VERSION ?? DEFAULT_K8S_VERSION;
  const etcdVersion = options.etcdVersion ?? process.env.WARMSTART_ETCD_VERSION ?? DEFAULT_ETCD_VERSION;
  const bin = join(cacheDir(options.cacheDir), 'bin', `k8s-v${k8sVersion}-etcd-v${etcdVersion}`);
  return {
    etcd: join(bin, 'etcd'),
    kubeApiserver: join(bin, 'kube-apiserver'),
    kubeControllerManager: join(bin, 'kube-controller-manager'),
    k8sVersion,
    etcdVersion,
  };
}

async function executable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Returns the binaries, building them first (once per version, into the cache) when they are missing. */
export async function ensureBinaries(options: EnsureBinariesOptions = {}): Promise<Binaries> {
  const paths = binaryPaths(options);
  const present = await Promise.all(
    [paths.etcd, paths.kubeApiserver, paths.kubeControllerManager].map(executable),
  );
  if (present.every(Boolean)) return paths;

  const progress = options.onProgress ?? ((line: string) => process.stderr.write(`${line}\n`));
  progress(
    `[warmstart] building etcd v${paths.etcdVersion} and Kubernetes v${paths.k8sVersion} from the Go module proxy ` +
      '(once per machine; a cold build took ~15 minutes on 2 cores)',
  );
  const child = spawn(
    'bash',
    [script, '--k8s', paths.k8sVersion, '--etcd', paths.etcdVersion, '--cache', cacheDir(options.cacheDir)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: options.signal,
    },
  );
  let output = '';
  let pending = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    // go's per-module "downloading" lines are noise at the scale of hundreds; keep the build's own milestones.
    for (const line of lines)
      if (!line.startsWith('go: downloading') && !line.startsWith('go: added')) progress(line);
  });
  child.stdout.resume();
  const code = await new Promise<number | null>((resolvePromise, reject) => {
    child.once('error', reject);
    child.once('close', resolvePromise);
  });
  if (code !== 0) {
    const last = output.trim().split('\n').slice(-15).join('\n');
    throw new BinaryBuildError(
      `building the Kubernetes binaries failed (exit ${code}). The last lines of the build:\n${last}\n` +
        `Run ${script} by hand to see everything; it needs Go >= 1.26 and the Go module proxy.`,
      output,
    );
  }
  return paths;
}
