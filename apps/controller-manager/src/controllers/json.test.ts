import { describe, expect, it } from 'vitest';
import { compareStrings, deepCopy, sortStrings } from './json.js';

describe('deepCopy', () => {
  it('copies every level, unfrozen, leaving the frozen original as it was', () => {
    const original = Object.freeze({
      a: Object.freeze({ b: Object.freeze([1, Object.freeze({ c: 'x' })]) }),
      n: null,
      t: true,
    });
    const copy = deepCopy(original);
    expect(copy).toEqual(original);
    expect(Object.isFrozen(copy)).toBe(false);
    expect(copy.a).not.toBe(original.a);
    expect(copy.a.b).not.toBe(original.a.b);
    (copy.a.b[1] as { c: string }).c = 'changed';
    expect((original.a.b[1] as { c: string }).c).toBe('x');
  });

  it('keeps a "__proto__" key as data, as JSON.parse does', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"x":1}') as Record<string, unknown>;
    const copy = deepCopy(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'x']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"x":1}');
  });
});

describe('compareStrings', () => {
  const utf8Order = (a: string, b: string): number =>
    Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

  it("orders as Go's sort.Strings does (UTF-8 bytes), including where UTF-16 code units would not", () => {
    // U+FF21 sorts before U+1F600 in UTF-8 but after its surrogate pair in UTF-16; a lone surrogate is U+FFFD.
    const keys = [
      '',
      'a',
      'A',
      'app',
      'app.kubernetes.io/name',
      'app/x',
      'Z',
      'é',
      'e\u0301',
      '\uff21',
      '\u{1f600}',
      'x\u{1f600}',
      'x\uff21',
      'x\ud800',
      'x\udfff',
      'x\ufffd',
      '\u07ff',
      '\u0800',
    ];
    for (const a of keys)
      for (const b of keys) expect(Math.sign(compareStrings(a, b)), `${a} ${b}`).toBe(utf8Order(a, b));
    expect([...keys].sort(compareStrings)).toEqual([...keys].sort(utf8Order));
    expect(sortStrings([...keys])).toEqual([...keys].sort(utf8Order));
    const ascii = ['work.karmada.io/name', 'app', 'Z', 'app.kubernetes.io/name', 'app/x', 'a'];
    expect(sortStrings([...ascii])).toEqual([...ascii].sort(utf8Order));
  });
});
