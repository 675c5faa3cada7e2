// What the container suites need before their first test: a Docker engine and the images of
// scripts/kind-setup.sh. Missing pieces fail the suite with the reason (never a silent skip); only
// WARMSTART_SKIP_CONTAINER_TESTS=1 skips, on purpose.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DockerUnavailableError, dockerUnavailableReason } from '../cluster/docker.js';

export interface ContainerEnv {
  readonly kindBin: string;
  readonly nodeImage: string;
  readonly managerImage: string;
  /** etcd + kube-apiserver FROM scratch, for the container provider. */
  readonly apiserverImage: string;
}

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export function containerTestsSkipped(): boolean {
  return process.env.WARMSTART_SKIP_CONTAINER_TESTS === '1';
}

/**
 * Returns the images and kind binary, from the environment scripts/test-containers.sh exports, or by running
 * scripts/kind-setup.sh (every step cached: seconds when nothing changed). Throws when Docker is unusable.
 */
export async function ensureContainerEnv(): Promise<ContainerEnv> {
  const reason = await dockerUnavailableReason();
  if (reason) throw new DockerUnavailableError(reason);
  let {
    WARMSTART_KIND_BIN: kindBin,
    WARMSTART_KIND_NODE_IMAGE: nodeImage,
    WARMSTART_MANAGER_IMAGE: managerImage,
    WARMSTART_APISERVER_IMAGE: apiserverImage,
  } = process.env;
  if (!kindBin || !nodeImage || !managerImage || !apiserverImage) {
    const out = execFileSync('bash', ['scripts/kind-setup.sh'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      timeout: 3_600_000,
    });
    const env = Object.fromEntries(
      out
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    kindBin = env.WARMSTART_KIND_BIN;
    nodeImage = env.WARMSTART_KIND_NODE_IMAGE;
    managerImage = env.WARMSTART_MANAGER_IMAGE;
    apiserverImage = env.WARMSTART_APISERVER_IMAGE;
  }
  if (!kindBin || !nodeImage || !managerImage || !apiserverImage)
    throw new Error('scripts/kind-setup.sh printed no image names');
  process.env.WARMSTART_KIND_BIN = kindBin;
  process.env.WARMSTART_KIND_NODE_IMAGE = nodeImage;
  process.env.WARMSTART_MANAGER_IMAGE = managerImage;
  process.env.WARMSTART_APISERVER_IMAGE = apiserverImage;
  return { kindBin, nodeImage, managerImage, apiserverImage };
}
