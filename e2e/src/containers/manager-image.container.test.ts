// The manager image (scripts/build-manager-image.sh) under testcontainers, against an API server container:
// it runs as the non-root user of deploy/, on a read-only root filesystem, and a SIGTERM (docker stop, as a
// kubelet sends it) ends it with exit code 0 within the grace period.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminRequest } from '../cluster/admin-client.js';
import { type ContainerClusterSet, ContainerProvider } from '../cluster/container-provider.js';
import { docker } from '../cluster/docker.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity, installCrds } from '../karmada/join.js';
import { containerTestsSkipped } from '../testing/container-env.js';
import { type StartedManager, startManagerContainer } from './manager-container.js';

const LABEL = 'manager-image';
/** deploy/30-deployment.yaml leaves terminationGracePeriodSeconds at the Pod default. */
const GRACE_SECONDS = 30;
const run = promisify(execFile);

describe.skipIf(containerTestsSkipped())('the manager image under testcontainers', () => {
  let set: ContainerClusterSet;
  let manager: StartedManager;

  beforeAll(async () => {
    const env = inject('containerEnv');
    set = await new ContainerProvider({ image: env.apiserverImage, label: LABEL }).up({ clusters: 1 });
    const host = set.clusters[0]!;
    await installCrds(host);
    await adminRequest(adminIdentity(host), 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'karmada-system' },
    });
    manager = await startManagerContainer(env.managerImage, set.frontNetwork, host, LABEL);
    await waitFor('the manager to be ready', async () => (await manager.readyz()) === 200, {
      timeoutMs: 120_000,
      intervalMs: 250,
    });
  });

  afterAll(async () => {
    await manager?.container.stop({ timeout: 0 }).catch(() => undefined);
    await set?.down();
  });

  it('runs as the non-root user 65532', async () => {
    const id = await manager.container.exec(['id', '-u']);
    expect(id.output.trim()).toBe('65532');
    const { stdout } = await docker(['inspect', '-f', '{{.Config.User}}', manager.container.getId()]);
    expect(stdout.trim()).toBe('65532:65532');
  });

  it('serves from a read-only root filesystem', async () => {
    const { stdout } = await docker([
      'inspect',
      '-f',
      '{{.HostConfig.ReadonlyRootfs}}',
      manager.container.getId(),
    ]);
    expect(stdout.trim()).toBe('true');
    const write = await manager.container.exec(['sh', '-c', 'touch /app/probe || touch /tmp/probe']);
    expect(write.exitCode).not.toBe(0);
    expect(write.output).toMatch(/Read-only file system/);
    expect(await manager.readyz()).toBe(200);
  });

  it(`stops on SIGTERM within the ${GRACE_SECONDS} s grace period with exit code 0`, async () => {
    const host = set.clusters[0]!;
    const id = manager.container.getId();
    const t0 = Date.now();
    // docker stop sends SIGTERM and, after the timeout, SIGKILL: exactly a kubelet's pod termination.
    await run('docker', ['stop', '-t', String(GRACE_SECONDS), id], { timeout: (GRACE_SECONDS + 30) * 1000 });
    const stoppedMs = Date.now() - t0;
    const { stdout } = await docker(['inspect', '-f', '{{.State.ExitCode}} {{.State.OOMKilled}}', id]);
    const [exitCode] = stdout.trim().split(' ');
    process.stderr.write(`[manager image] SIGTERM -> exit ${exitCode} in ${stoppedMs} ms\n`);
    expect(exitCode).toBe('0');
    expect(stoppedMs).toBeLessThan(GRACE_SECONDS * 1000);
    const logs = await docker(['logs', id]);
    expect(`${logs.stdout}${logs.stderr}`).toMatch(/"signal":"SIGTERM".*"msg":"stopping"/);
    // Reported, not asserted (yet): the Lease should be released on the way out, but the release request
    // races the shutdown of the caches' HTTP agent ("could not release the lease: socket hang up"), so a
    // successor waits out the lease duration. See the kind branch's report.
    const lease = await adminRequest(
      adminIdentity(host),
      'GET',
      '/apis/coordination.k8s.io/v1/namespaces/karmada-system/leases/karmada-controller-manager',
    );
    const holder =
      (JSON.parse(lease.body) as { spec?: { holderIdentity?: string } }).spec?.holderIdentity ?? '';
    process.stderr.write(
      `[manager image] Lease after SIGTERM: ${holder ? `still held by ${holder}` : 'released'}\n`,
    );
  });
});
