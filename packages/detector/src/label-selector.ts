// metav1.LabelSelector evaluation with apimachinery's semantics: an absent selector matches nothing, an empty
// one matches everything, and keys and values are validated the way labels.NewRequirement validates them.
import type { LabelSelector, StringMap } from '@warmstart/api';
import { InvalidLabelSelectorError } from './errors.js';

/** A compiled selector. */
export interface LabelMatcher {
  matches(labels: StringMap | undefined): boolean;
}

type Requirement = (labels: StringMap) => boolean;

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Problems with a label key (validation.IsQualifiedName), empty when valid. */
export function labelKeyProblems(key: string): string[] {
  const parts = key.split('/');
  const problems: string[] = [];
  let name: string;
  if (parts.length === 1) {
    name = key;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix === '') problems.push(`key "${key}": prefix part must be non-empty`);
    else if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) {
      problems.push(`key "${key}": prefix must be a lower-case DNS subdomain of at most 253 characters`);
    }
  } else {
    return [`key "${key}": a qualified name has at most one '/'`];
  }
  if (name === '') problems.push(`key "${key}": name part must be non-empty`);
  else if (name.length > 63) problems.push(`key "${key}": name part must be at most 63 characters`);
  else if (!NAME.test(name)) {
    problems.push(
      `key "${key}": name part must be alphanumerics, '-', '_' or '.', starting and ending alphanumeric`,
    );
  }
  return problems;
}

/** Problems with a label value (validation.IsValidLabelValue), empty when valid. */
export function labelValueProblems(key: string, value: string): string[] {
  if (value.length > 63) return [`value "${value}" of "${key}": must be at most 63 characters`];
  if (!LABEL_VALUE.test(value)) {
    return [
      `value "${value}" of "${key}": must be alphanumerics, '-', '_' or '.', starting and ending alphanumeric`,
    ];
  }
  return [];
}

const has = (labels: StringMap, key: string): boolean => Object.hasOwn(labels, key);

// matchLabels entries become equality requirements; the operator is internal, not one a selector may name.
const EQUALS = Symbol('equals');

function requirement(
  key: string,
  operator: string | typeof EQUALS,
  values: readonly string[],
  problems: string[],
): Requirement | undefined {
  const before = problems.length;
  problems.push(...labelKeyProblems(key));
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) problems.push(`key "${key}": operator ${operator} needs at least one value`);
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) problems.push(`key "${key}": operator ${operator} takes no values`);
      break;
    case EQUALS:
      break;
    default:
      problems.push(`"${operator}" is not a valid label selector operator (In, NotIn, Exists, DoesNotExist)`);
  }
  for (const value of values) problems.push(...labelValueProblems(key, value));
  if (problems.length > before) return undefined;

  const set = new Set(values);
  switch (operator) {
    case 'In':
    case EQUALS:
      return (labels) => has(labels, key) && set.has(labels[key]!);
    case 'NotIn':
      return (labels) => !has(labels, key) || !set.has(labels[key]!);
    case 'Exists':
      return (labels) => has(labels, key);
    default:
      return (labels) => !has(labels, key);
  }
}

const NOTHING: LabelMatcher = { matches: () => false };
const EVERYTHING: LabelMatcher = { matches: () => true };
const EMPTY: StringMap = {};

/**
 * Compiles a selector (metav1.LabelSelectorAsSelector). Throws InvalidLabelSelectorError listing every
 * problem when Kubernetes would reject it.
 */
export function compileLabelSelector(selector: LabelSelector | undefined): LabelMatcher {
  if (selector === undefined) return NOTHING;
  const matchLabels = Object.entries(selector.matchLabels ?? {});
  const expressions = selector.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return EVERYTHING;

  const problems: string[] = [];
  const requirements: Requirement[] = [];
  for (const [key, value] of matchLabels) {
    const r = requirement(key, EQUALS, [value], problems);
    if (r) requirements.push(r);
  }
  for (const expr of expressions) {
    const r = requirement(expr.key, expr.operator, expr.values ?? [], problems);
    if (r) requirements.push(r);
  }
  if (problems.length > 0) throw new InvalidLabelSelectorError(problems);
  return { matches: (labels) => requirements.every((r) => r(labels ?? EMPTY)) };
}

/** Whether `labels` satisfy `selector`. Throws InvalidLabelSelectorError for an invalid selector. */
export function labelSelectorMatches(
  selector: LabelSelector | undefined,
  labels: StringMap | undefined,
): boolean {
  return compileLabelSelector(selector).matches(labels);
}
