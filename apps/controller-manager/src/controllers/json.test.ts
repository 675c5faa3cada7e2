import { describe, expect, it } from 'vitest';
import { deepCopy } from './json.js';

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
