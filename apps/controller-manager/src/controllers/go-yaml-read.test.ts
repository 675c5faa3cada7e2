import { describe, expect, it } from 'vitest';
import { readGoYaml, YamlContentError } from './go-yaml-read.js';

describe('readGoYaml', () => {
  it('refuses aliases that expand a small text without bound', () => {
    const laughs = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      laughs.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    expect(() => readGoYaml(laughs.join('\n'))).toThrow(YamlContentError);
  });

  it('refuses an alias inside its own anchor instead of recursing forever', () => {
    expect(() => readGoYaml('a: &x [1, *x]\n')).toThrow();
  });

  it('reads YAML 1.1 scalars as yaml.v2 does', () => {
    expect(readGoYaml('a: yes\nb: 010\nc: 0x1F\nd: 1:20\ne: 2001-12-14\nf: ~\ng: 1_000\n')).toEqual({
      a: true,
      b: 8,
      c: 31,
      d: '1:20',
      e: '2001-12-14',
      f: null,
      g: 1000,
    });
  });
});
