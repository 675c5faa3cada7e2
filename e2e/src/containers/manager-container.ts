// The manager image started with testcontainers on a container set's front network, the way deploy/ runs it:
// non-root (the image's user), read-only root filesystem, probes and metrics on published ports.
import { chmodSync } from 'node:fs';
import { GenericContainer, type StartedTestContainer } from 'testcontainers';
import type { ContainerCluster } from '../cluster/container-provider.js';
import { E2E_LABEL } from '../cluster/docker.js';
import { waitFor } from '../cluster/wait.js';

/** GenericContainer with the one HostConfig field testcontainers has no method for. */
class ManagerContainer extends GenericContainer {
  readOnlyRootFilesystem(): this {
    this.hostConfig.ReadonlyRootfs = true;
    return this;
  }
}

export interface StartedManager {
  readonly container: StartedTestContainer;
  readonly probes: string;
  readonly metrics: string;
  readyz(): Promise<number>;
}

export async function startManagerContainer(
  image: string,
  network: string,
  host: ContainerCluster,
  label: string,
  extraArgs: readonly string[] = [],
): Promise<StartedManager> {
  // Ryuk would be pulled from a registry; the suites remove their containers by label instead.
  process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  // The image's user (65532) must read it; it holds a throwaway test identity.
  chmodSync(host.internalManagerKubeconfig, 0o644);
  const container = await new ManagerContainer(image)
    .readOnlyRootFilesystem()
    .withLabels({ [E2E_LABEL]: label })
    .withNetworkMode(network)
    // A bind mount, as a Secret volume would be: nothing can be copied into a read-only root filesystem.
    .withBindMounts([
      { source: host.internalManagerKubeconfig, target: '/etc/warmstart/kubeconfig', mode: 'ro' },
    ])
    .withCommand([
      '--kubeconfig=/etc/warmstart/kubeconfig',
      '--leader-elect=true',
      '--leader-elect-resource-namespace=karmada-system',
      '--health-probe-bind-address=:10357',
      '--metrics-bind-address=:8080',
      ...extraArgs,
    ])
    .withExposedPorts(10357, 8080)
    .start();
  const probes = `http://127.0.0.1:${container.getMappedPort(10357)}`;
  const metrics = `http://127.0.0.1:${container.getMappedPort(8080)}/metrics`;
  const readyz = async (): Promise<number> => {
    try {
      return (await fetch(`${probes}/readyz`, { signal: AbortSignal.timeout(2000) })).status;
    } catch {
      return 0;
    }
  };
  await waitFor(
    'the manager container to answer /livez',
    async () => {
      const res = await fetch(`${probes}/livez`, { signal: AbortSignal.timeout(2000) }).catch(
        () => undefined,
      );
      return res?.status === 200;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  return { container, probes, metrics, readyz };
}
