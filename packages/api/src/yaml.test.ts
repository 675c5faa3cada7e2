import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml } from './yaml.js';

describe('toYaml', () => {
  it("writes block style with sequences at their key's indent", () => {
    expect(toYaml({ a: { b: ['p', 'q'] }, c: [{ d: 1, e: true }] })).toBe(
      ['a:', '  b:', '    - p', '    - q', 'c:', '  - d: 1', '    e: true', ''].join('\n'),
    );
  });

  it.each([
    ['a string a YAML reader would take for a bool', 'yes'],
    ['a null word', 'null'],
    ['a YAML 1.1 one-letter bool', 'y'],
    ['a number-looking string', '1.5'],
    ['an octal-looking string', '0755'],
    ['a string with ": "', 'a: b'],
    ['a string with a comment marker', 'a #b'],
    ['a leading dash', '-x'],
    ['an empty string', ''],
    ['a multi-line string', 'line one\nline two'],
    ['unicode', 'naïve — ok'],
    ['a JSONPath', '.status.conditions[?(@.type=="Ready")].status'],
    ['both kinds of quote', `it's "quoted"`],
    ['a quote and a backslash', 'a"\\b'],
    ['a regular expression', '^(\\+|-)?[0-9]+$'],
  ])('round-trips %s', (_label, value) => {
    const doc = { key: value, list: [value] };
    expect(parse(toYaml(doc))).toEqual(doc);
  });

  it('single-quotes a string whose only escapes would be double quotes', () => {
    expect(toYaml({ k: 'say "hi"' })).toBe(`k: 'say "hi"'\n`);
  });

  it('round-trips empty collections, nested sequences, numbers and null', () => {
    const doc = { empty: {}, none: [], nested: [[1, 2], [], [{}]], n: -0.5, z: null, big: 1e21 };
    expect(parse(toYaml(doc))).toEqual(doc);
  });

  it('refuses values JSON cannot hold', () => {
    expect(() => toYaml({ x: Number.NaN })).toThrow(TypeError);
  });
});
