import { describe, expect, it } from 'vitest';
import { APISERVER, describeServerLoad, measureServers } from './server-load.js';

const exposition = (gcs: number) =>
  [
    '# HELP go_gc_duration_seconds A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.',
    '# TYPE go_gc_duration_seconds summary',
    'go_gc_duration_seconds{quantile="0.5"} 0.0001',
    'go_gc_duration_seconds_sum 0.5',
    `go_gc_duration_seconds_count ${gcs}`,
    'go_memstats_heap_inuse_bytes 6.442450944e+09',
    '',
  ].join('\n');

describe('measureServers', () => {
  it("gives each server's CPU and resident set, and the API server's Go heap and GCs from its /metrics", async () => {
    let gcs = 1200;
    const { result, load } = await measureServers(
      { pid: process.pid, metrics: async () => exposition(gcs) },
      { etcd: process.pid },
      async () => {
        // This process stands in for both servers; the API server collects seven times meanwhile.
        gcs += 7;
        return 'floor';
      },
    );
    expect(result).toBe('floor');
    expect(load.apiserverGcs).toBe(7);
    expect(load.apiserverHeapInuseBytes).toBe(6 * 2 ** 30);
    expect(Object.keys(load.cpuSeconds).sort()).toEqual(['etcd', APISERVER]);
    expect(load.cpuSeconds[APISERVER]).toBeGreaterThanOrEqual(0);
    expect(load.rssBytes.etcd).toBeGreaterThan(0);
  });

  it('leaves the heap and GC figures out when /metrics cannot be read, and a server that is gone out', async () => {
    const { load } = await measureServers(
      { pid: process.pid, metrics: async () => undefined },
      { etcd: 2 ** 22 + 1 },
      async () => undefined,
    );
    expect(load.apiserverGcs).toBeUndefined();
    expect(load.apiserverHeapInuseBytes).toBeUndefined();
    expect(load.cpuSeconds.etcd).toBeUndefined();
    expect(load.rssBytes.etcd).toBeUndefined();
    expect(load.rssBytes[APISERVER]).toBeGreaterThan(0);
  });
});

describe('describeServerLoad', () => {
  it("puts the API server's heap and GCs after its own CPU and RSS, and etcd's beside", () => {
    expect(
      describeServerLoad(
        {
          durationMs: 200_000,
          cpuSeconds: { [APISERVER]: 228, etcd: 30.5 },
          rssBytes: { [APISERVER]: 7 * 2 ** 30, etcd: 2 ** 31 },
          apiserverHeapInuseBytes: 5.5 * 2 ** 30,
          apiserverGcs: 1204,
        },
        2,
      ),
    ).toBe(
      'kube-apiserver 228.0 CPU-s (57% of 2 cores), RSS 7.00 GiB, Go heap in use 5.50 GiB, 1204 GCs; etcd 30.5 CPU-s (8% of 2 cores), RSS 2.00 GiB',
    );
  });
});
