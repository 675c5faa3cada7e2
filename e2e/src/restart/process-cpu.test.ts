import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  cpuMeter,
  cpuShare,
  EVERY_PROCESS,
  ProcStatFormatError,
  parseMachineBusySeconds,
  parseProcStat,
} from './process-cpu.js';

// /proc/<pid>/stat of a process whose command name holds spaces and parentheses; utime 1234, stime 566,
// cutime 300, cstime 100 (fields 14 to 17, in 1/100 s).
const STAT =
  '4242 (kube (api) server) S 1 4242 4242 0 -1 4194560 9000 0 12 0 1234 566 300 100 20 0 12 0 1178011 3133440 410 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n';

describe('parseProcStat', () => {
  it('reads own and reaped children CPU seconds, counting fields from the last parenthesis', () => {
    expect(parseProcStat(STAT)).toEqual({ ownSeconds: 18, reapedChildrenSeconds: 4 });
  });

  it('refuses text that is not a stat line', () => {
    expect(() => parseProcStat('Name:\tetcd\n')).toThrow(ProcStatFormatError);
    expect(() => parseProcStat('1 (x) S 1 2 3')).toThrow(ProcStatFormatError);
  });
});

describe('cpuShare', () => {
  it('divides CPU seconds by the interval times the cores', () => {
    // 30 CPU seconds in 60 s on 2 cores: a quarter of the machine.
    expect(cpuShare(30, 60_000, 2)).toBe(0.25);
    expect(cpuShare(120, 60_000, 2)).toBe(1);
    expect(cpuShare(5, 0, 2)).toBe(0);
  });
});

describe('cpuMeter', () => {
  it("counts a running process's CPU and, for the replaced child, the CPU of children that exited meanwhile", () => {
    const meter = cpuMeter({ self: process.pid });
    // A child that spins for 120 ms of its own CPU time, then exits and is waited for. Small amounts: on a machine
    // whose cores are taken (CI beside a benchmark) CPU time comes slowly, and spawnSync holds the test's timer.
    const child = spawnSync(process.execPath, [
      '-e',
      'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 120_000);',
    ]);
    expect(child.status).toBe(0);
    // And this process spins for 80 ms of CPU.
    const t = process.cpuUsage();
    while (process.cpuUsage(t).user < 80_000);
    // The child named here is gone (pid 0 is never a process): only the reaped children's CPU counts for it.
    const { seconds, share, cpus } = meter.stop({ name: 'manager', pid: 0 });
    // With no child exiting in between, nothing.
    expect(cpuMeter({}).stop({ name: 'manager', pid: 0 }).seconds.manager).toBe(0);
    expect(seconds.self).toBeGreaterThanOrEqual(0.06);
    expect(seconds.manager).toBeGreaterThanOrEqual(0.1);
    expect(cpus).toBeGreaterThan(0);
    expect(share.self).toBeGreaterThan(0);
    expect(share.self).toBeLessThanOrEqual(1);
    // The machine was at least as busy as this process and its child together.
    expect(seconds[EVERY_PROCESS]).toBeGreaterThanOrEqual(0.15);
  }, 30_000);
});

describe('parseMachineBusySeconds', () => {
  it('adds user, nice, system, irq and softirq, leaving idle, iowait and steal out', () => {
    // user 100, nice 20, system 30, idle 5000, iowait 400, irq 5, softirq 15, steal 70 (ticks of 10 ms).
    expect(
      parseMachineBusySeconds('cpu  100 20 30 5000 400 5 15 70 0 0\ncpu0 50 10 15 2500 200 2 7 35 0 0\n'),
    ).toBe(1.7);
  });

  it('refuses a text whose first line is not the aggregate cpu line', () => {
    expect(parseMachineBusySeconds('cpu0 1 2 3 4 5 6 7 8\n')).toBeUndefined();
    expect(parseMachineBusySeconds('cpu  1 2 3\n')).toBeUndefined();
    expect(parseMachineBusySeconds('cpu  1 2 x 4 5 6 7 8\n')).toBeUndefined();
  });
});
