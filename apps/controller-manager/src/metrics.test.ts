import type { EventLoopStall, EventLoopStallTotals } from '@warmstart/sync-gate';
import { describe, expect, it } from 'vitest';
import { type EventLoopStallSource, ManagerMetrics } from './metrics.js';

describe('ManagerMetrics', () => {
  it("exposes the process's own figures next to the manager's, each registry its own", async () => {
    const a = await new ManagerMetrics('block-reads').registry.metrics();
    const b = await new ManagerMetrics('gate-start').registry.metrics();
    for (const name of [
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'warmstart_event_loop_stall_max_seconds',
      'warmstart_event_loop_stalls_total',
      'warmstart_event_loop_stall_seconds_total',
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

describe('ManagerMetrics event-loop stalls', () => {
  const noStall: EventLoopStallTotals = {
    stalls: 0,
    over100Ms: 0,
    over200Ms: 0,
    gapMs: 0,
    onCpuMs: 0,
    gcMs: 0,
    offCpuMs: 0,
    runQueueMs: 0,
  };
  /** A recorder's figures, changed by the test between scrapes. */
  function source(): EventLoopStallSource & {
    worst: EventLoopStall | undefined;
    sums: EventLoopStallTotals;
  } {
    return {
      worst: undefined,
      sums: noStall,
      totals() {
        return this.sums;
      },
    };
  }

  it('exports the worst stall by part, the counts over 100 and 200 ms and the summed seconds, as of each scrape', async () => {
    const stalls = source();
    const m = new ManagerMetrics('block-reads', { eventLoopStalls: stalls });
    const before = await m.registry.metrics();
    expect(before).toContain('warmstart_event_loop_stall_max_seconds{part="total"} 0');
    expect(before).toContain('warmstart_event_loop_stall_max_seconds{part="off_cpu"} 0');
    expect(before).toContain('warmstart_event_loop_stalls_total{min_seconds="0.2"} 0');

    stalls.worst = {
      gapMs: 250,
      onCpuMs: 60,
      gcMs: 15,
      offCpuMs: 190,
      runQueueMs: 170,
      otherThreadsCpuMs: 80,
      endMs: 1,
    };
    stalls.sums = {
      stalls: 4,
      over100Ms: 2,
      over200Ms: 1,
      gapMs: 500,
      onCpuMs: 200,
      gcMs: 40,
      offCpuMs: 300,
      runQueueMs: 250,
    };
    const text = await m.registry.metrics();
    expect(text).toContain('warmstart_event_loop_stall_max_seconds{part="total"} 0.25');
    expect(text).toContain('warmstart_event_loop_stall_max_seconds{part="on_cpu"} 0.06');
    expect(text).toContain('warmstart_event_loop_stall_max_seconds{part="gc"} 0.015');
    expect(text).toContain('warmstart_event_loop_stall_max_seconds{part="off_cpu"} 0.19');
    expect(text).toContain('warmstart_event_loop_stall_max_seconds{part="run_queue"} 0.17');
    expect(text).toContain('warmstart_event_loop_stall_max_seconds{part="other_threads"} 0.08');
    expect(text).toContain('warmstart_event_loop_stalls_total{min_seconds="0.1"} 2');
    expect(text).toContain('warmstart_event_loop_stalls_total{min_seconds="0.2"} 1');
    expect(text).toContain('warmstart_event_loop_stall_seconds_total{part="total"} 0.5');
    expect(text).toContain('warmstart_event_loop_stall_seconds_total{part="on_cpu"} 0.2');
    expect(text).toContain('warmstart_event_loop_stall_seconds_total{part="gc"} 0.04');
    expect(text).toContain('warmstart_event_loop_stall_seconds_total{part="off_cpu"} 0.3');
    expect(text).toContain('warmstart_event_loop_stall_seconds_total{part="run_queue"} 0.25');
  });

  it('leaves out on_cpu and off_cpu where the thread CPU clock is missing', async () => {
    const stalls = source();
    stalls.worst = {
      gapMs: 120,
      onCpuMs: undefined,
      gcMs: 0,
      offCpuMs: undefined,
      runQueueMs: undefined,
      otherThreadsCpuMs: undefined,
      endMs: 1,
    };
    stalls.sums = {
      ...noStall,
      stalls: 1,
      over100Ms: 1,
      gapMs: 120,
      onCpuMs: undefined,
      offCpuMs: undefined,
      runQueueMs: undefined,
    };
    const text = await new ManagerMetrics('block-reads', { eventLoopStalls: stalls }).registry.metrics();
    expect(text).toContain('warmstart_event_loop_stall_max_seconds{part="total"} 0.12');
    expect(text).toContain('warmstart_event_loop_stall_seconds_total{part="gc"} 0');
    expect(text).not.toContain('part="on_cpu"');
    expect(text).not.toContain('part="off_cpu"');
    expect(text).not.toContain('part="run_queue"');
  });
});
