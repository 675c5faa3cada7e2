import { describe, expect, it } from 'vitest';
import {
  changePathList,
  longStallList,
  type PlainRestartRow,
  restartTable,
  serverLoadList,
} from './restart-table.js';

const row: PlainRestartRow = {
  strategy: 'block-reads',
  restart: 'SIGKILL',
  workloads: 10_000,
  directReads: 0,
  writesAfterRestart: 0,
  livezMs: 320,
  readyzMs: 12_780,
  firstReconcileMs: 12_870,
  changePropagatedMs: 8_600,
  peakRssBytes: 571 * 2 ** 20,
  peakHeapBytes: 291 * 2 ** 20,
  peakEventLoopDelayMs: 199,
  changePath: { detector: 4_000, 'member member1': 8_500 },
  earlyChangeMs: 350,
  firstUsefulWriteMs: 6_100,
  earlyChangePropagatedMs: 7_250,
  earlyChangePath: { detector: 5_750, 'member member1': 6_900 },
};

describe('restartTable', () => {
  it('puts the early change next to /readyz: first useful write and propagation, in seconds after the restart', () => {
    const [header, , line] = restartTable([row], 6_390).split('\n');
    const cells = (l: string | undefined) => l?.split('|').map((c) => c.trim());
    const at = (column: string) => cells(line)?.[cells(header)?.indexOf(column) ?? -1];
    expect(at('/readyz')).toBe('12.78 s');
    expect(at('/readyz ÷ floor')).toBe('2.00x');
    expect(at('first useful write')).toBe('6.10 s');
    expect(at('early change propagated')).toBe('7.25 s');
    expect(at('change propagated')).toBe('8.60 s');
    expect(at('÷ floor just before')).toBe('–');
    expect(at('restart')).toBe('SIGKILL');
    expect(restartTable([{ ...row, restart: 'failover' }], 1).split('\n')[2]).toContain('| fail-over |');
  });

  it('divides /readyz by the floor measured just before the restart too, and gives that floor', () => {
    const [header, , line] = restartTable([{ ...row, floorBeforeMs: 10_650 }], 6_390).split('\n');
    const cells = (l: string | undefined) => l?.split('|').map((c) => c.trim());
    const at = (column: string) => cells(line)?.[cells(header)?.indexOf(column) ?? -1];
    expect(at('/readyz ÷ floor')).toBe('2.00x');
    expect(at('÷ floor just before')).toBe('1.20x (10.65 s)');
  });

  it("gives a fail-over's change propagated after the standby took the Lease, and from the kill", () => {
    const failover = {
      ...row,
      restart: 'failover' as const,
      changePath: { ...row.changePath, leader: 8_200 },
    };
    const [header, , line] = restartTable([failover], 6_390).split('\n');
    const cells = (l: string | undefined) => l?.split('|').map((c) => c.trim());
    expect(cells(line)?.[cells(header)?.indexOf('change propagated') ?? -1]).toBe(
      '0.40 s after the Lease (8.60 s from the kill)',
    );
  });

  it("splits the longest event-loop block into on CPU, GC and off CPU when the row has the stall recorder's figures", () => {
    const block = (r: PlainRestartRow) => {
      const [header, , line] = restartTable([r], 6_390).split('\n');
      const cells = (l: string | undefined) => l?.split('|').map((c) => c.trim());
      return cells(line)?.[cells(header)?.indexOf('longest event-loop block') ?? -1];
    };
    // A row from before the recorder: the lag figure alone, as the tables of that time show it.
    expect(block(row)).toBe('199 ms');
    expect(
      block({
        ...row,
        peakEventLoopDelayMs: 176,
        eventLoopStall: { totalMs: 180, onCpuMs: 41, gcMs: 12, offCpuMs: 139 },
      }),
    ).toBe('176 ms (worst stall since start 180 ms: on CPU 41, GC 12, off CPU 139)');
    expect(
      block({
        ...row,
        peakEventLoopDelayMs: 176,
        eventLoopStall: {
          totalMs: 180,
          onCpuMs: 41,
          gcMs: 12,
          offCpuMs: 139,
          runQueueMs: 120,
          otherThreadsCpuMs: 95,
        },
      }),
    ).toBe(
      '176 ms (worst stall since start 180 ms: on CPU 41, GC 12, off CPU 139 of which waiting for a core 120; other threads on CPU 95)',
    );
    expect(
      block({
        ...row,
        eventLoopStall: { totalMs: 180, onCpuMs: undefined, gcMs: 12, offCpuMs: undefined },
      }),
    ).toBe('199 ms (worst stall since start 180 ms: GC 12, on/off CPU not measured)');
  });

  it("adds the worst stall of the rest of the manager's life when the bench read it again before stopping it", () => {
    const block = (r: PlainRestartRow) => {
      const [header, , line] = restartTable([r], 6_390).split('\n');
      const cells = (l: string | undefined) => l?.split('|').map((c) => c.trim());
      return cells(line)?.[cells(header)?.indexOf('longest event-loop block') ?? -1];
    };
    const early = { totalMs: 180, onCpuMs: 41, gcMs: 12, offCpuMs: 139 };
    expect(
      block({ ...row, peakEventLoopDelayMs: 176, eventLoopStall: early, eventLoopStallUntilStopped: early }),
    ).toBe(
      '176 ms (worst stall since start 180 ms: on CPU 41, GC 12, off CPU 139; none worse until stopped)',
    );
    expect(
      block({
        ...row,
        peakEventLoopDelayMs: 176,
        eventLoopStall: early,
        eventLoopStallUntilStopped: { totalMs: 415, onCpuMs: 130, gcMs: 402, offCpuMs: 285, runQueueMs: 280 },
      }),
    ).toBe(
      '176 ms (worst stall since start 180 ms: on CPU 41, GC 12, off CPU 139; worse later, before it was stopped: 415 ms: on CPU 130, GC 402, off CPU 285 of which waiting for a core 280)',
    );
  });
  it("names a row's own node flags beside its strategy, so two variants of one strategy tell apart", () => {
    const variant = { ...row, nodeArgs: ['--max-semi-space-size=16'] };
    const [header, , plain, flagged] = restartTable([row, variant], 6_390).split('\n');
    const cells = (l: string | undefined) => l?.split('|').map((c) => c.trim());
    const strategy = cells(header)?.indexOf('strategy') ?? -1;
    expect(cells(plain)?.[strategy]).toBe('block-reads');
    expect(cells(flagged)?.[strategy]).toBe('block-reads (`--max-semi-space-size=16`)');
    expect(changePathList([variant]).split('\n').at(-1)).toMatch(
      /^- block-reads \(`--max-semi-space-size=16`\) SIGKILL: /,
    );
  });
});

describe('changePathList', () => {
  it("lists each restart's early and late change paths", () => {
    expect(changePathList([row]).split('\n').at(-1)).toBe(
      '- block-reads SIGKILL: early, made at 350 after the restart: detector 5750, member member1 6900; late: detector 4000, member member1 8500; reached every member 8600',
    );
  });
});

describe('longStallList', () => {
  it("gives each restart's long stalls with the manager's split and what the machine did across them", () => {
    const stall = {
      time: Date.UTC(2026, 11, 6, 17, 1, 2, 345),
      endMonotonicUs: 5_000_000,
      totalMs: 284,
      onCpuMs: 19,
      gcMs: 0,
      offCpuMs: 265,
      runQueueMs: 0,
      majorFaults: 0,
      afterProbes: true,
    };
    const list = longStallList([
      {
        ...row,
        longStalls: [],
        machinePauses: [{ resumedAtMs: Date.UTC(2026, 11, 6, 21, 34, 52), monotonicUs: 1, jumpMs: 9_749 }],
      },
      {
        ...row,
        restart: 'failover',
        longStalls: [
          { ...stall, machine: { coveredMs: 391, stealMs: 270, memoryFullMs: 0, majorFaults: 3 } },
          { ...stall, totalMs: 230, afterProbes: false },
        ],
      },
      { ...row, strategy: 'gate-start' },
    ]).split('\n');
    expect(list[2]).toBe(
      '- block-reads SIGKILL: none. VM paused during the measurement: 9.7 s paused, resumed at 21:34:52',
    );
    expect(list[3]).toBe(
      '- block-reads fail-over: 284 ms at 17:01:02.345 (on CPU 19, GC 0, off CPU 265 of which waiting for a core 0; 0 major faults of its own; over the 391 ms the samples bracket: steal 270 ms, memory full 0 ms, 3 major faults machine-wide); 230 ms at 17:01:02.345, before the probes (on CPU 19, GC 0, off CPU 265 of which waiting for a core 0; 0 major faults of its own; machine not sampled)',
    );
    // A row the bench did not look at is left out; no row looked at, no section.
    expect(list).toHaveLength(4);
    expect(longStallList([row])).toBe('');
  });
});

describe('serverLoadList', () => {
  it("gives the servers during the run's floor and during each floor just before a restart", () => {
    const load = {
      durationMs: 178_300,
      cpuSeconds: { 'kube-apiserver': 200, etcd: 20 },
      rssBytes: { 'kube-apiserver': 6 * 2 ** 30 },
    };
    const list = serverLoadList(
      [row, { ...row, strategy: 'gate-start', serversDuringFloorBefore: { ...load, durationMs: 359_900 } }],
      2,
      load,
    ).split('\n');
    expect(list.slice(2)).toEqual([
      "- the run's floor (178.3 s): kube-apiserver 200.0 CPU-s (56% of 2 cores), RSS 6.00 GiB; etcd 20.0 CPU-s (6% of 2 cores)",
      '- just before gate-start SIGKILL (359.9 s): kube-apiserver 200.0 CPU-s (28% of 2 cores), RSS 6.00 GiB; etcd 20.0 CPU-s (3% of 2 cores)',
    ]);
    expect(serverLoadList([row], 2)).toBe('');
  });

  it('says what the idle manager relisted while a floor was measured, where the bench read it', () => {
    const load = { durationMs: 361_200, cpuSeconds: { 'kube-apiserver': 480 }, rssBytes: {} };
    const works = {
      cluster: 'host',
      resource: 'work.karmada.io/v1alpha1/works',
      reason: 'expired',
      count: 1,
    };
    const list = serverLoadList(
      [{ ...row, serversDuringFloorBefore: load, managerRelistsDuringFloorBefore: [works] }],
      2,
      { ...load, durationMs: 196_300 },
      [],
    ).split('\n');
    expect(list.slice(2)).toEqual([
      "- the run's floor (196.3 s): kube-apiserver 480.0 CPU-s (122% of 2 cores); the idle manager relisted meanwhile: none",
      '- just before block-reads SIGKILL (361.2 s): kube-apiserver 480.0 CPU-s (66% of 2 cores); the idle manager relisted meanwhile: host work.karmada.io/v1alpha1/works (expired)',
    ]);
  });
});
