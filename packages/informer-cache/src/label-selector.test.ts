import { describe, expect, it } from 'vitest';
import { InvalidSelectorError } from './errors.js';
import { parseSelector, selectorFromLabelSelector, toSelector } from './label-selector.js';

const web = { app: 'web', tier: 'frontend', version: '3' };
const db = { app: 'db', tier: 'backend' };
const none = undefined;

describe('parseSelector', () => {
  it.each([
    ['', [true, true, true]],
    ['app=web', [true, false, false]],
    ['app==web', [true, false, false]],
    ['app!=web', [false, true, true]],
    ['app in (web,db)', [true, true, false]],
    ['app notin (web)', [false, true, true]],
    ['tier', [true, true, false]],
    ['!tier', [false, false, true]],
    ['version>2', [true, false, false]],
    ['version<3', [false, false, false]],
    ['app=web,tier=frontend', [true, false, false]],
    ['app=web, tier=backend', [false, false, false]],
    ['  app in ( web , db ) , !version ', [false, true, false]],
    ['app=', [false, false, false]],
    ['example.com/role=x', [false, false, false]],
  ] as const)('%j matches web/db/unlabelled as %j', (source, expected) => {
    const s = parseSelector(source);
    expect([s.matches(web), s.matches(db), s.matches(none)]).toEqual(expected);
  });

  it('prints a canonical form that parses to the same requirements', () => {
    const s = parseSelector('b in (y,x), a!=1, !c, d');
    expect(s.toString()).toBe('b in (x,y),a!=1,!c,d');
    expect(parseSelector(s.toString()).requirements).toEqual(s.requirements);
  });

  it.each([
    'app=web,',
    'app in web',
    'app in (web',
    '=web',
    'app=web=x',
    'app>x',
    '-app=x',
    'app=-x',
    `a=${'x'.repeat(64)}`,
    'Bad_Prefix/a=b',
  ])('rejects %j with InvalidSelectorError', (source) => {
    expect(() => parseSelector(source)).toThrow(InvalidSelectorError);
  });
});

describe('selectorFromLabelSelector', () => {
  it('ANDs matchLabels and matchExpressions', () => {
    const s = selectorFromLabelSelector({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['frontend', 'edge'] },
        { key: 'canary', operator: 'DoesNotExist' },
      ],
    });
    expect(s.matches(web)).toBe(true);
    expect(s.matches({ ...web, canary: 'true' })).toBe(false);
    expect(s.matches(db)).toBe(false);
  });

  it('treats an empty selector as everything', () => {
    expect(selectorFromLabelSelector({}).matches(undefined)).toBe(true);
    expect(selectorFromLabelSelector({}).empty).toBe(true);
  });

  it('rejects In without values and Exists with values', () => {
    expect(() =>
      selectorFromLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }),
    ).toThrow(InvalidSelectorError);
    expect(() =>
      selectorFromLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }),
    ).toThrow(/takes no values/);
  });
});

describe('toSelector', () => {
  it('returns the same compiled selector for a repeated string', () => {
    expect(toSelector('app=web')).toBe(toSelector('app=web'));
    const compiled = parseSelector('a');
    expect(toSelector(compiled)).toBe(compiled);
    expect(toSelector({ matchLabels: { app: 'db' } }).matches(db)).toBe(true);
  });
});
