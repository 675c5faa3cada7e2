import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../audit/audit-log.js';
import { useTempDirs } from '../testing/temp-dirs.js';
import {
  countFirstPropagation,
  firstPropagationSummary,
  firstPropagationTable,
} from './first-propagation.js';

const T0 = Date.parse('2026-12-02T10:00:00Z');
let id = 0;
const ev = (over: Partial<AuditEvent> & Pick<AuditEvent, 'verb' | 'requestURI'>): AuditEvent => ({
  auditID: `a${id++}`,
  stage: 'ResponseComplete',
  user: { username: 'warmstart-manager' },
  objectRef: {
    resource: 'resourcebindings',
    namespace: 'load-0',
    apiGroup: 'work.karmada.io',
    apiVersion: 'v1alpha2',
  },
  responseStatus: { code: 201 },
  requestReceivedTimestamp: new Date(T0 + 1000).toISOString(),
  stageTimestamp: new Date(T0 + 1010).toISOString(),
  ...over,
});

const tempDir = useTempDirs('first-propagation-');

describe('countFirstPropagation', () => {
  it('counts the writes of the manager in the window by verb and resource, 409s apart, each request once', async () => {
    const dir = tempDir();
    const path = join(dir, 'audit.log');
    const conflict = ev({ verb: 'create', requestURI: '/x', responseStatus: { code: 409 } });
    const events = [
      ev({ verb: 'create', requestURI: '/x' }),
      conflict,
      { ...conflict, stage: 'ResponseStarted' },
      ev({
        verb: 'patch',
        requestURI: '/x/status',
        objectRef: { resource: 'resourcebindings', apiGroup: 'work.karmada.io', subresource: 'status' },
        responseStatus: { code: 200 },
      }),
      ev({ verb: 'get', requestURI: '/x', responseStatus: { code: 200 } }),
      ev({ verb: 'watch', requestURI: '/x?watch=1' }),
      ev({ verb: 'create', requestURI: '/x', user: { username: 'someone-else' } }),
      ev({ verb: 'create', requestURI: '/x', requestReceivedTimestamp: new Date(T0 - 1).toISOString() }),
      ev({ verb: 'create', requestURI: '/x', requestReceivedTimestamp: new Date(T0 + 10_000).toISOString() }),
    ];
    await writeFile(path, `${events.map((e) => JSON.stringify(e)).join('\n')}\n{"partial`);
    const p = await countFirstPropagation(path, 'warmstart-manager', T0, T0 + 10_000, 2);
    expect(p.writes).toEqual({
      'create work.karmada.io/resourcebindings': 2,
      'patch work.karmada.io/resourcebindings/status': 1,
    });
    expect(p.conflicts).toEqual({ 'create work.karmada.io/resourcebindings': 1 });
    expect(p.totalWrites).toBe(3);
    expect(p.totalConflicts).toBe(1);
    expect(p.directReads).toBe(1);
    expect(firstPropagationTable(p)).toContain('| create work.karmada.io/resourcebindings | 2 | 1.00 | 1 |');
    // 2 workloads in 10 s.
    expect(p.workloadsPerSecond).toBe(0.2);
  });
});

describe('firstPropagationSummary', () => {
  const p = {
    workloads: 10_000,
    durationMs: 800_000,
    workloadsPerSecond: 12.5,
    writes: {},
    conflicts: {},
    totalWrites: 0,
    totalConflicts: 0,
    directReads: 0,
    directReadDetail: {},
  };

  it('gives throughput and, per measured process, its share of the machine with its CPU seconds', () => {
    const summary = firstPropagationSummary({
      ...p,
      cpu: {
        cpus: 2,
        seconds: { 'host kube-apiserver': 880, etcd: 160, manager: 240 },
        share: { 'host kube-apiserver': 0.55, etcd: 0.1, manager: 0.15 },
      },
    });
    expect(summary.split('\n')).toEqual([
      '| workloads | duration | workloads/s | host kube-apiserver CPU of 2 cores | etcd CPU of 2 cores | manager CPU of 2 cores |',
      '|---:|---:|---:|---:|---:|---:|',
      '| 10000 | 800.0 s | 12.50 | 55.0% (880.0 s) | 10.0% (160.0 s) | 15.0% (240.0 s) |',
    ]);
  });

  it('leaves the CPU out where it was not measured', () => {
    expect(firstPropagationSummary(p).split('\n')[2]).toBe('| 10000 | 800.0 s | 12.50 |');
  });
});
