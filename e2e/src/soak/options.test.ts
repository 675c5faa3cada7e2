import { describe, expect, it } from 'vitest';
import { parseSoakOptions, SoakOptionError } from './options.js';

describe('parseSoakOptions', () => {
  it('has the documented defaults and reads the flags', () => {
    const d = parseSoakOptions([]);
    expect(d).toMatchObject({ minutes: 30, restartEveryMinutes: 5, rate: 5, population: 100 });
    expect(d.rssBoundBytes).toBe(512 * 2 ** 20);
    const o = parseSoakOptions(['--minutes', '5', '--restart-every', '1', '--rate', '2.5', '--seed', '9']);
    expect(o).toMatchObject({ minutes: 5, restartEveryMinutes: 1, rate: 2.5, seed: 9 });
    expect(parseSoakOptions(['--restart-every', '0']).restartEveryMinutes).toBe(0);
    // Relative to where the command was typed (pnpm runs the script in e2e/), absolute as given.
    expect(parseSoakOptions(['--json', 'e2e/results/soak.json'], '/repo').json).toBe(
      '/repo/e2e/results/soak.json',
    );
    expect(parseSoakOptions(['--json', '/tmp/s.json'], '/repo').json).toBe('/tmp/s.json');
  });

  it('refuses what it cannot run, saying how to call it', () => {
    expect(() => parseSoakOptions(['--minutes', '0'])).toThrow(SoakOptionError);
    expect(() => parseSoakOptions(['--rate', 'fast'])).toThrow(
      /--rate must be a positive number.*usage: pnpm soak/,
    );
    expect(() => parseSoakOptions(['--population', '2.5'])).toThrow(/whole number/);
  });
});
