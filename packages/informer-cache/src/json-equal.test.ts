import { describe, expect, it } from 'vitest';
import { jsonEqual } from './json-equal.js';

describe('jsonEqual', () => {
  it('ignores key order and treats a key holding undefined as absent, on either side', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, u: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { u: undefined, a: 1 })).toBe(true);
    expect(jsonEqual({ u: undefined }, { v: undefined })).toBe(true);
  });

  it('tells apart an extra, a missing or a different key at any depth', () => {
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual({ a: { b: [1, { c: 'x' }] } }, { a: { b: [1, { c: 'y' }] } })).toBe(false);
    expect(jsonEqual({ a: null }, { a: undefined })).toBe(false);
    expect(jsonEqual({ a: null }, {})).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({ 0: 'x', length: 1 }, ['x'])).toBe(false);
  });

  it('reads only own keys: a key named like an Object.prototype member is data', () => {
    expect(jsonEqual({ constructor: 'x' }, {})).toBe(false);
    expect(jsonEqual({}, { toString: 'x' })).toBe(false);
    expect(jsonEqual(JSON.parse('{"__proto__":{"a":1}}'), {})).toBe(false);
    expect(jsonEqual(JSON.parse('{"__proto__":{"a":1}}'), JSON.parse('{"__proto__":{"a":1}}'))).toBe(true);
    const inheriting = Object.create({ inherited: 1 }) as Record<string, unknown>;
    inheriting.own = 2;
    expect(jsonEqual(inheriting, { own: 2 })).toBe(true);
    expect(jsonEqual({ own: 2 }, inheriting)).toBe(true);
  });
});
