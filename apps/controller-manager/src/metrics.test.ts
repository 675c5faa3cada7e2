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
