import { describe, expect, it } from 'vitest';
import {
  describeMachineDuring,
  describeMachinePauses,
  type MachineCounters,
  MachineSampler,
  machineDuring,
  machinePauses,
  monotonicUs,
  parseMajorFaults,
  parsePressure,
  parseProcStatCpu,
  readMachineCounters,
} from './machine-pressure.js';

describe('the /proc parsers', () => {
  it('reads steal and iowait from the aggregate cpu line, in ms', () => {
    const stat =
      'cpu  10657006 33591 933277 3564527 26154 0 115813 8079 0 0\ncpu0 5301914 16426 457305 1829901 5825 0 53537 4103 0 0\n';
    expect(parseProcStatCpu(stat)).toEqual({ stealMs: 80_790, iowaitMs: 261_540 });
    expect(parseProcStatCpu('cpu0 1 2 3 4 5 6 7 8\n')).toBeUndefined();
    expect(parseProcStatCpu('cpu  1 2 3\n')).toBeUndefined();
  });

  it('reads the some and full totals of a pressure file, and only those it has', () => {
    const memory =
      'some avg10=0.00 avg60=0.00 avg300=0.00 total=312193997\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=80171412\n';
    expect(parsePressure(memory)).toEqual({ someUs: 312_193_997, fullUs: 80_171_412 });
    expect(parsePressure('some avg10=1.00 avg60=0.00 avg300=0.00 total=5\n')).toEqual({ someUs: 5 });
    expect(parsePressure('')).toEqual({});
  });

  it('reads pgmajfault, not a counter whose name ends the same', () => {
    expect(parseMajorFaults('pgfault 99\nx_pgmajfault 7\npgmajfault 8323658\n')).toBe(8_323_658);
    expect(parseMajorFaults('pgfault 99\n')).toBeUndefined();
  });
});

const at = (ms: number, c: Omit<MachineCounters, 'monotonicUs'>): MachineCounters => ({
  monotonicUs: ms * 1000,
  ...c,
});

describe('machineDuring', () => {
  const samples = [
    at(1_000, { stealMs: 10, memoryFullUs: 0, majorFaults: 5 }),
    at(1_100, { stealMs: 10, memoryFullUs: 0, majorFaults: 5 }),
    at(1_200, { stealMs: 250, memoryFullUs: 40_000, majorFaults: 9 }),
    at(1_300, { stealMs: 260, memoryFullUs: 41_000, majorFaults: 9 }),
  ];

  it('takes the last sample at or before the start and the first at or after the end', () => {
    expect(machineDuring(samples, 1_150_000, 1_190_000)).toMatchObject({
      coveredMs: 100,
      stealMs: 240,
      memoryFullMs: 40,
      majorFaults: 4,
    });
    expect(machineDuring(samples, 1_100_000, 1_300_000)).toMatchObject({ coveredMs: 200, stealMs: 250 });
  });

  it('says nothing about a window the samples do not bracket, and leaves out counters the kernel lacks', () => {
    expect(machineDuring(samples, 900_000, 1_100_000)).toBeUndefined();
    expect(machineDuring(samples, 1_250_000, 1_400_000)).toBeUndefined();
    const d = machineDuring(samples, 1_000_000, 1_100_000);
    expect(d?.ioFullMs).toBeUndefined();
    expect(describeMachineDuring(d ?? { coveredMs: 0 })).toBe(
      'over the 100 ms the samples bracket: steal 0 ms, memory full 0 ms, 0 major faults machine-wide',
    );
  });
});

describe('MachineSampler on this machine', () => {
  it('brackets a window it sampled across with the kernel counters Linux has', {
    timeout: 10_000,
  }, async () => {
    const sampler = new MachineSampler(10);
    const from = monotonicUs();
    // Three sampling intervals, measured on the clock the samples use.
    const deadline = Date.now() + 5_000;
    while (monotonicUs() - from < 30_000) {
      if (Date.now() > deadline) throw new Error('the monotonic clock did not advance 30 ms in 5 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const to = monotonicUs();
    sampler.stop();
    sampler.stop();
    const d = sampler.during(from, to);
    expect(d?.coveredMs).toBeGreaterThanOrEqual(Math.floor((to - from) / 1000));
    if (process.platform === 'linux') {
      expect(d?.stealMs).toBeGreaterThanOrEqual(0);
      expect(d?.majorFaults).toBeGreaterThanOrEqual(0);
      expect(readMachineCounters().iowaitMs).toBeGreaterThanOrEqual(0);
    }
    expect(sampler.during(from - 60_000_000, to)).toBeUndefined();
  });
});

describe('VM pauses: the wall clock getting ahead of CLOCK_MONOTONIC', () => {
  // 100 ms apart on the monotonic clock; between the 2nd and 3rd sample the wall clock jumped 10 s (the VM was
  // paused and its monotonic clock with it), between the 4th and 5th it was set back 0.5 s.
  const samples: MachineCounters[] = [
    { monotonicUs: 1_000_000, wallMs: 50_000 },
    { monotonicUs: 1_100_000, wallMs: 50_100 },
    { monotonicUs: 1_200_000, wallMs: 60_203 },
    { monotonicUs: 1_300_000, wallMs: 60_303 },
    { monotonicUs: 1_400_000, wallMs: 59_903 },
  ];

  it('lists each jump of at least the given size, with when the machine ran again', () => {
    expect(machinePauses(samples, 100)).toEqual([
      { resumedAtMs: 60_203, monotonicUs: 1_200_000, jumpMs: 10_003 },
      { resumedAtMs: 59_903, monotonicUs: 1_400_000, jumpMs: -500 },
    ]);
    expect(machinePauses(samples, 1_000)).toHaveLength(1);
    // Only pairs of samples inside the window count.
    expect(machinePauses(samples, 100, 1_250_000)).toHaveLength(1);
    expect(machinePauses(samples, 100, 1_000_000, 1_150_000)).toEqual([]);
    expect(describeMachinePauses(machinePauses(samples, 100))).toBe(
      '10.0 s paused, resumed at 00:01:00; wall clock set back 0.5 s at 00:00:59',
    );
    expect(describeMachinePauses([])).toBe('none');
  });

  it("puts a pause inside a stall's window into what the machine did across it", () => {
    const d = machineDuring(samples, 1_150_000, 1_160_000);
    expect(d).toMatchObject({ coveredMs: 100, pausedMs: 10_003 });
    expect(describeMachineDuring(d ?? { coveredMs: 0 })).toBe(
      'over the 100 ms the samples bracket: wall clock ahead of the monotonic one by 10003 ms (the VM paused)',
    );
    // A few ms of skew between the two clocks' reads is no pause.
    expect(describeMachineDuring({ coveredMs: 100, pausedMs: 3 })).toBe(
      'over the 100 ms the samples bracket: ',
    );
  });
});
