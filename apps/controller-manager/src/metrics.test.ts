import { describe, expect, it } from 'vitest';
import { ManagerMetrics } from './metrics.js';

describe('ManagerMetrics', () => {
  it("exposes the process's own figures next to the manager's, each registry its own", async () => {
    const a = await new ManagerMetrics('block-reads').registry.metrics();
    const b = await new ManagerMetrics('gate-start').registry.metrics();
    for (const name of [
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(a).toContain(`# TYPE ${name} `);
      expect(b).toContain(`# TYPE ${name} `);
    }
    expect(a).toContain('warmstart_cache_sync_strategy{strategy="block-reads"} 1');
    expect(b).not.toContain('strategy="block-reads"');
  });
});

describe('ManagerMetrics series', () => {
  const labels = (cluster: string) => ({ cluster, resource: 'apps/v1/deployments' });

  it('exports warmstart_direct_reads_total as 0 before the first direct read', async () => {
    const m = new ManagerMetrics('block-reads');
    expect(await m.registry.metrics()).toMatch(/^warmstart_direct_reads_total 0$/m);
    expect(await m.directReads()).toBe(0);
    m.requestCompleted(
      { cluster: 'host', verb: 'get', resource: 'apps/v1/deployments', source: 'binding', code: 200 },
      1,
    );
    expect(await m.directReads()).toBe(1);
  });

  it("drops every series of a removed cluster and keeps the others'", async () => {
    const m = new ManagerMetrics('block-reads');
    for (const c of ['member1', 'member2']) {
      m.synced(labels(c), true);
      m.objects(labels(c), 3);
      m.listCompleted(labels(c), 'list', 20);
      m.requestCompleted(
        { cluster: c, verb: 'list', resource: 'apps/v1/deployments', source: 'informer', code: 200 },
        5,
      );
    }
    await m.forgetCluster('member1');
    const text = await m.registry.metrics();
    expect(text).not.toContain('cluster="member1"');
    expect(text).toContain('warmstart_informer_synced{cluster="member2",resource="apps/v1/deployments"} 1');
    expect(text).toContain('warmstart_informer_list_duration_seconds_count{cluster="member2"');
  });
});
