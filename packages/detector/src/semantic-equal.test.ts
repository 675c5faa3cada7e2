import { jsonEqual as deepEqualJson } from '@warmstart/informer-cache';
import { describe, expect, it } from 'vitest';
import { semanticallyEqual } from './semantic-equal.js';

describe('semanticallyEqual', () => {
  it.each([
    ['absent and empty list', { a: 1 }, { a: 1, l: [] }],
    ['absent and empty map', { a: 1 }, { a: 1, m: {} }],
    ['null and absent', { a: null }, {}],
    ['nested', { s: { x: [], y: { z: 1 } } }, { s: { y: { z: 1 } } }],
    ['key order', { a: 1, b: 2 }, { b: 2, a: 1 }],
  ])('equal: %s', (_name, a, b) => {
    expect(semanticallyEqual(a, b)).toBe(true);
    expect(semanticallyEqual(b, a)).toBe(true);
  });

  it.each([
    ['false is not absent (pointer fields keep it)', { p: false }, {}],
    ['0 is not absent', { n: 0 }, {}],
    ['"" is not absent', { s: '' }, {}],
    ['list order matters', { l: [1, 2] }, { l: [2, 1] }],
    ['list length', { l: [1] }, { l: [1, 1] }],
    ['number vs string', { q: 1 }, { q: '1' }],
    ['list vs map', { x: [1] }, { x: { 0: 1 } }],
  ])('different: %s', (_name, a, b) => {
    expect(semanticallyEqual(a, b)).toBe(false);
  });
});

describe('deepEqualJson (reflect.DeepEqual on decoded JSON)', () => {
  it('tells an empty list from an absent one', () => {
    expect(deepEqualJson({ l: [] }, {})).toBe(false);
  });

  it('treats an undefined-valued key as absent', () => {
    expect(deepEqualJson({ a: undefined, b: 1 }, { b: 1 })).toBe(true);
  });
});
