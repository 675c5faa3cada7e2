import { describe, expect, it } from 'vitest';
import { StringInterner } from './string-interner.js';

describe('StringInterner', () => {
  it('shares a value once two objects have had it', () => {
    const interner = new StringInterner();
    interner.beginObject();
    interner.intern('RollingUpdate');
    interner.beginObject();
    interner.intern('RollingUpdate');
    expect(interner.size).toBe(1);
    expect(interner.shared).toBe(0);
    interner.beginObject();
    expect(interner.intern('RollingUpdate')).toBe('RollingUpdate');
    expect(interner.shared).toBe(1);
  });

  it('shares a value repeated within one object from its second copy on, without learning it', () => {
    const interner = new StringInterner();
    interner.beginObject();
    for (let i = 0; i < 4; i++) expect(interner.intern('wl-000001')).toBe('wl-000001');
    expect(interner.shared).toBe(2);
    expect(interner.size).toBe(0);
    // The next object starts afresh: its own repeats are shared among themselves.
    interner.beginObject();
    interner.intern('wl-000002');
    interner.intern('wl-000002');
    expect(interner.shared).toBe(2);
    expect(interner.size).toBe(0);
  });

  it('leaves strings over maxLength alone', () => {
    const interner = new StringInterner({ maxLength: 4 });
    for (let i = 0; i < 3; i++) {
      interner.beginObject();
      interner.intern('abcde');
      interner.intern('abcd');
    }
    expect(interner.size).toBe(1);
    expect(interner.shared).toBe(1);
  });

  it('stops learning when full and still returns every string unchanged', () => {
    const interner = new StringInterner({ maxEntries: 1 });
    for (const value of ['ab', 'cd']) {
      interner.beginObject();
      interner.intern(value);
      interner.beginObject();
      expect(interner.intern(value)).toBe(value);
    }
    expect(interner.size).toBe(1);
  });

  it('forgets the candidates when they reach maxCandidates, so unique values cannot grow it', () => {
    const interner = new StringInterner({ maxCandidates: 2 });
    interner.beginObject();
    interner.intern('a');
    interner.intern('b');
    interner.intern('c'); // forgets a and b
    interner.beginObject();
    interner.intern('a'); // seen once again, from the start
    expect(interner.size).toBe(0);
    interner.beginObject();
    interner.intern('a');
    expect(interner.size).toBe(1);
  });

  it('clear() forgets everything it learnt', () => {
    const interner = new StringInterner();
    for (let i = 0; i < 2; i++) {
      interner.beginObject();
      interner.intern('x');
    }
    interner.clear();
    expect(interner.size).toBe(0);
    interner.beginObject();
    interner.intern('x');
    expect(interner.size).toBe(0);
  });
});
