import { describe, expect, it } from 'vitest';
import { parseDockerSize } from './docker.js';

describe('parseDockerSize', () => {
  it('reads the units docker stats prints', () => {
    expect(parseDockerSize('512MiB')).toBe(512 * 2 ** 20);
    expect(parseDockerSize('1.5GiB')).toBe(1.5 * 2 ** 30);
    expect(parseDockerSize('300kB')).toBe(300_000);
    expect(parseDockerSize(' 12B ')).toBe(12);
  });
  it('answers 0 for what it cannot read', () => {
    expect(parseDockerSize('--')).toBe(0);
  });
});
