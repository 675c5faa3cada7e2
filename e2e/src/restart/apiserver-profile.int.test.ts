// The bench's --apiserver-cpu-profile against a real kube-apiserver: a profile with --profiling=true, and an error
// that says what is missing for an identity the server refuses.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalClusterSet, LocalProvider } from '../cluster/local-provider.js';
import { adminIdentity, kubeconfigIdentity } from '../karmada/join.js';
import { ApiserverProfileError, fetchCpuProfile } from './apiserver-profile.js';

describe('fetchCpuProfile', () => {
  let profiled: LocalClusterSet;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'apiserver-profile-'));
    profiled = await new LocalProvider({ apiserverArgs: ['--profiling=true'] }).up({
      clusters: 1,
      controllerManager: false,
      managerAccess: 'none',
    });
  }, 120_000);

  afterAll(async () => {
    await profiled?.down();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a gzipped pprof profile of the window asked for', async () => {
    const file = join(dir, 'host.pprof');
    await fetchCpuProfile(adminIdentity(profiled.cluster('host')), 1, file);
    const bytes = await readFile(file);
    // pprof is a gzipped protocol buffer: the gzip magic, then a body that inflates.
    expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(gunzipSync(bytes).length).toBeGreaterThan(0);
  }, 30_000);

  it('refuses a whole-number window only, before asking the server', async () => {
    await expect(
      fetchCpuProfile(adminIdentity(profiled.cluster('host')), 0.5, join(dir, 'x')),
    ).rejects.toThrow(ApiserverProfileError);
  });

  it('says which access is missing for an identity that may not read /debug/pprof', async () => {
    // With managerAccess none the manager's user is bound to nothing: the server answers 403.
    const host = profiled.cluster('host');
    await expect(
      fetchCpuProfile(kubeconfigIdentity(host, host.managerKubeconfig), 1, join(dir, 'forbidden.pprof')),
    ).rejects.toThrow(/answered 403; the identity needs access to \/debug\/pprof/);
  }, 30_000);
});
