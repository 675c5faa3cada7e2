import { describe, expect, it } from 'vitest';
// metav1.LabelSelector compilation: Kubernetes' validation, every problem listed, absent vs empty.
import { InvalidLabelSelectorError } from './errors.js';
import { compileLabelSelector, labelKeyProblems, labelSelectorMatches } from './label-selector.js';

const labels = { app: 'web', tier: 'front', 'example.com/team': 'a' };

describe('labelSelectorMatches', () => {
  it.each([
    ['absent selector matches nothing', undefined, false],
    ['empty selector matches everything', {}, true],
    ['empty lists match everything', { matchLabels: {}, matchExpressions: [] }, true],
    ['matchLabels equal', { matchLabels: { app: 'web' } }, true],
    ['matchLabels differ', { matchLabels: { app: 'db' } }, false],
    ['matchLabels all must hold', { matchLabels: { app: 'web', tier: 'back' } }, false],
    ['prefixed key', { matchLabels: { 'example.com/team': 'a' } }, true],
    ['In', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] }, true],
    ['In, absent key', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, false],
    [
      'NotIn, other value',
      { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['back'] }] },
      true,
    ],
    [
      'NotIn, same value',
      { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] },
      false,
    ],
    [
      'NotIn, absent key matches',
      { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] },
      true,
    ],
    ['Exists', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, true],
    ['Exists, absent', { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, false],
    ['DoesNotExist', { matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, true],
    ['DoesNotExist, present', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, false],
    [
      'labels and expressions are ANDed',
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['back'] }] },
      false,
    ],
  ])('%s', (_name, selector, expected) => {
    expect(labelSelectorMatches(selector, labels)).toBe(expected);
  });

  it('treats absent labels as an empty set', () => {
    expect(
      labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, undefined),
    ).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { a: 'b' } }, undefined)).toBe(false);
  });

  it('does not match inherited object properties as labels', () => {
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'constructor', operator: 'Exists' }] }, {})).toBe(
      false,
    );
  });
});

describe('invalid selectors', () => {
  it.each([
    [
      'unknown operator',
      { matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] },
      'not a valid label selector operator',
    ],
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
      'needs at least one value',
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      'takes no values',
    ],
    ['bad key', { matchLabels: { 'bad key': 'x' } }, 'name part must be'],
    ['bad value', { matchLabels: { a: 'not ok' } }, 'value "not ok"'],
    ['value too long', { matchLabels: { a: 'x'.repeat(64) } }, 'at most 63 characters'],
    ['upper-case prefix', { matchLabels: { 'Example.com/a': 'x' } }, 'prefix must be'],
    ['two slashes', { matchLabels: { 'a/b/c': 'x' } }, "at most one '/'"],
  ])('%s throws a typed error that says why', (_name, selector, fragment) => {
    let caught: unknown;
    try {
      compileLabelSelector(selector);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidLabelSelectorError);
    expect((caught as InvalidLabelSelectorError).message).toContain(fragment);
    expect((caught as InvalidLabelSelectorError).problems.length).toBeGreaterThan(0);
  });

  it('lists every problem, not only the first', () => {
    try {
      compileLabelSelector({
        matchLabels: { 'bad key': 'x' },
        matchExpressions: [{ key: 'a', operator: 'Nope' }],
      });
      expect.unreachable();
    } catch (error) {
      expect((error as InvalidLabelSelectorError).problems).toHaveLength(2);
    }
  });

  it('accepts the label keys Kubernetes accepts', () => {
    expect(labelKeyProblems('app.kubernetes.io/name')).toEqual([]);
    expect(labelKeyProblems('a')).toEqual([]);
    expect(labelKeyProblems('x'.repeat(63))).toEqual([]);
    expect(labelKeyProblems('x'.repeat(64))).not.toEqual([]);
    expect(labelKeyProblems('/a')).not.toEqual([]);
  });
});
