// Label selectors with apimachinery's grammar, validation and semantics: the string form (`a=b,c in (x,y),!d`),
// the structured metav1.LabelSelector and node/field selector requirements (Gt, Lt), all compiled to a
// Selector that matches a label map. The one label-selector module of warmstart.
import type { LabelSelector, LabelSelectorRequirement } from '@warmstart/meta';
import { InvalidLabelSelectorError, InvalidSelectorError } from './errors.js';

export type { LabelSelector } from '@warmstart/meta';

export type SelectorOperator = 'exists' | 'doesNotExist' | '=' | '!=' | 'in' | 'notin' | '>' | '<';

/** One clause of a selector. `values` is empty for exists/doesNotExist and has one entry for =, !=, > and <. */
export interface Requirement {
  readonly key: string;
  readonly operator: SelectorOperator;
  readonly values: readonly string[];
}

/** A compiled label selector. */
export interface Selector {
  /** The clauses, all of which must match (AND). */
  readonly requirements: readonly Requirement[];
  /** True when the selector matches every object. */
  readonly empty: boolean;
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** The canonical string form, parseable again. */
  toString(): string;
}

/**
 * One structured requirement as specs carry it: metav1.LabelSelectorRequirement (In, NotIn, Exists,
 * DoesNotExist) or a NodeSelectorRequirement (also Gt, Lt). The operator is a string because specs are user input.
 * The type is @warmstart/meta's, by the name this module has always used.
 */
export type SelectorRequirement = LabelSelectorRequirement;

function validateKey(source: string, key: string): void {
  const problems = labelKeyProblems(key);
  if (problems.length > 0) throw new InvalidSelectorError(source, problems.join('; '));
}

function validateValue(source: string, key: string, value: string): void {
  const problems = labelValueProblems(key, value);
  if (problems.length > 0) throw new InvalidSelectorError(source, problems.join('; '));
}

function validateInteger(source: string, value: string): void {
  if (!/^-?\d+$/.test(value)) throw new InvalidSelectorError(source, `"${value}" is not an integer`);
}

function matchRequirement(r: Requirement, labels: Readonly<Record<string, string>> | undefined): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'exists':
      return has;
    case 'doesNotExist':
      return !has;
    case '=':
      return has && value === r.values[0];
    case '!=':
      return !has || value !== r.values[0];
    case 'in':
      return has && r.values.includes(value as string);
    case 'notin':
      return !has || !r.values.includes(value as string);
    case '>':
    case '<': {
      const actual = has ? int64(value as string) : undefined;
      const bound = int64(r.values[0] ?? '');
      if (actual === undefined || bound === undefined) return false;
      return r.operator === '>' ? actual > bound : actual < bound;
    }
  }
}

function requirementToString(r: Requirement): string {
  switch (r.operator) {
    case 'exists':
      return r.key;
    case 'doesNotExist':
      return `!${r.key}`;
    case 'in':
    case 'notin':
      return `${r.key} ${r.operator} (${r.values.join(',')})`;
    default:
      return `${r.key}${r.operator}${r.values[0] ?? ''}`;
  }
}

class CompiledSelector implements Selector {
  readonly empty: boolean;
  constructor(readonly requirements: readonly Requirement[]) {
    this.empty = requirements.length === 0;
  }
  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    for (const r of this.requirements) if (!matchRequirement(r, labels)) return false;
    return true;
  }
  toString(): string {
    return this.requirements.map(requirementToString).join(',');
  }
}

/** A selector that matches everything. */
export const everything: Selector = new CompiledSelector([]);

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'op'; text: '=' | '==' | '!=' | '!' | '>' | '<' | ',' | '(' | ')' };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
    } else if (c === '=' && source[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '==' });
      i += 2;
    } else if (c === '!' && source[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '!=' });
      i += 2;
    } else if (c === '=' || c === '!' || c === '>' || c === '<' || c === ',' || c === '(' || c === ')') {
      tokens.push({ kind: 'op', text: c });
      i++;
    } else {
      let j = i;
      while (j < source.length && !' \t\n\r=!<>,()'.includes(source[j] as string)) j++;
      tokens.push({ kind: 'word', text: source.slice(i, j) });
      i = j;
    }
  }
  return tokens;
}

/** Parses the string form (`kubectl -l`, `?labelSelector=`). An empty string selects everything. */
export function parseSelector(source: string): Selector {
  const tokens = tokenize(source);
  const requirements: Requirement[] = [];
  let i = 0;
  const peek = (): Token | undefined => tokens[i];
  const fail = (detail: string): never => {
    throw new InvalidSelectorError(source, detail);
  };
  const word = (what: string): string => {
    const t = tokens[i];
    if (t?.kind !== 'word') return fail(`expected ${what}${t ? ` but found "${t.text}"` : ' at the end'}`);
    i++;
    return t.text;
  };
  const valueOrEmpty = (): string => {
    const t = peek();
    if (t?.kind === 'word') {
      i++;
      return t.text;
    }
    return '';
  };

  while (i < tokens.length) {
    const first = peek() as Token;
    if (first.kind === 'op' && first.text === '!') {
      i++;
      const key = word('a key after "!"');
      validateKey(source, key);
      requirements.push({ key, operator: 'doesNotExist', values: [] });
    } else {
      const key = word('a key');
      validateKey(source, key);
      const op = peek();
      if (op === undefined || (op.kind === 'op' && op.text === ',')) {
        requirements.push({ key, operator: 'exists', values: [] });
      } else if (op.kind === 'word' && (op.text === 'in' || op.text === 'notin')) {
        i++;
        const open = peek();
        if (open?.kind !== 'op' || open.text !== '(') fail(`expected "(" after "${op.text}"`);
        i++;
        const values: string[] = [];
        for (;;) {
          const t = peek();
          if (t === undefined) fail('missing ")"');
          if (t?.kind === 'op' && t.text === ')') {
            // `a in ()` and `a in (x,)` carry an empty value, as apimachinery's parser does.
            if (values.length === 0 || tokens[i - 1]?.text === ',') values.push('');
            i++;
            break;
          }
          if (t?.kind === 'op' && t.text === ',') {
            if (values.length === 0 || tokens[i - 1]?.text === ',' || tokens[i - 1]?.text === '(')
              values.push('');
            i++;
            continue;
          }
          const v = word('a value');
          validateValue(source, key, v);
          values.push(v);
        }
        requirements.push({ key, operator: op.text, values: [...new Set(values)].sort() });
      } else if (op.kind === 'op' && (op.text === '=' || op.text === '==' || op.text === '!=')) {
        i++;
        const v = valueOrEmpty();
        validateValue(source, key, v);
        requirements.push({ key, operator: op.text === '!=' ? '!=' : '=', values: [v] });
      } else if (op.kind === 'op' && (op.text === '>' || op.text === '<')) {
        i++;
        const v = word('an integer');
        validateInteger(source, v);
        requirements.push({ key, operator: op.text, values: [v] });
      } else {
        fail(`unexpected "${op.text}" after key "${key}"`);
      }
    }
    const sep = peek();
    if (sep === undefined) break;
    if (sep.kind !== 'op' || sep.text !== ',') fail(`expected "," but found "${sep.text}"`);
    i++;
    if (i === tokens.length) fail('trailing ","');
  }
  return new CompiledSelector(requirements);
}

const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, within int64. */
function int64(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

/** Problems with a label key (validation.IsQualifiedName), empty when valid. */
export function labelKeyProblems(key: string): string[] {
  const parts = key.split('/');
  const problems: string[] = [];
  let name: string;
  if (parts.length === 1) {
    name = key;
  } else if (parts.length === 2) {
    const prefix = parts[0] as string;
    name = parts[1] as string;
    if (prefix === '') problems.push(`key "${key}": prefix part must be non-empty`);
    else if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) {
      problems.push(`key "${key}": prefix must be a lower-case DNS subdomain of at most 253 characters`);
    }
  } else {
    return [`key "${key}": a qualified name has at most one '/'`];
  }
  if (name === '') problems.push(`key "${key}": name part must be non-empty`);
  else if (name.length > 63) problems.push(`key "${key}": name part must be at most 63 characters`);
  else if (!LABEL_NAME.test(name)) {
    problems.push(
      `key "${key}": name part must be alphanumerics, '-', '_' or '.', starting and ending alphanumeric`,
    );
  }
  return problems;
}

/** Problems with a label value (validation.IsValidLabelValue), empty when valid. */
export function labelValueProblems(key: string, value: string): string[] {
  if (value === '') return [];
  if (value.length > 63) return [`value "${value}" of "${key}": must be at most 63 characters`];
  if (!LABEL_NAME.test(value)) {
    return [
      `value "${value}" of "${key}": must be alphanumerics, '-', '_' or '.', starting and ending alphanumeric`,
    ];
  }
  return [];
}

export interface RequirementOptions {
  /** Also accept Gt and Lt with one integer value (node and field selectors); label selectors do not. */
  readonly numeric?: boolean | undefined;
}

/**
 * labels.NewRequirement for a structured requirement: the Requirement, or undefined with the reasons pushed to
 * `problems` when apimachinery would return an error.
 */
export function requirementOf(
  r: SelectorRequirement,
  problems: string[],
  options: RequirementOptions = {},
): Requirement | undefined {
  const before = problems.length;
  const { key, operator } = r;
  const values = r.values ?? [];
  problems.push(...labelKeyProblems(key));
  let op: SelectorOperator | undefined;
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) problems.push(`key "${key}": operator ${operator} needs at least one value`);
      for (const value of values) problems.push(...labelValueProblems(key, value));
      op = operator === 'In' ? 'in' : 'notin';
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) problems.push(`key "${key}": operator ${operator} takes no values`);
      op = operator === 'Exists' ? 'exists' : 'doesNotExist';
      break;
    case 'Gt':
    case 'Lt':
      if (options.numeric) {
        if (values.length !== 1 || int64(values[0] as string) === undefined) {
          problems.push(`key "${key}": operator ${operator} needs exactly one integer value`);
        }
        op = operator === 'Gt' ? '>' : '<';
        break;
      }
      problems.push(`"${operator}" is not a valid label selector operator (In, NotIn, Exists, DoesNotExist)`);
      break;
    default:
      problems.push(`"${operator}" is not a valid label selector operator (In, NotIn, Exists, DoesNotExist)`);
  }
  if (op === undefined || problems.length > before) return undefined;
  return { key, operator: op, values: op === 'in' || op === 'notin' ? [...new Set(values)].sort() : values };
}

/** A selector that matches nothing: what an absent (nil) metav1.LabelSelector selects. */
export const nothing: Selector = {
  requirements: [],
  empty: false,
  matches: () => false,
  toString: () => '',
};

/** A Selector of requirements already built (with requirementOf), all of which must match. */
export function selectorOf(requirements: readonly Requirement[]): Selector {
  return new CompiledSelector(requirements);
}

/**
 * Compiles a metav1.LabelSelector (metav1.LabelSelectorAsSelector): absent selects nothing, empty ({})
 * selects everything. Throws InvalidLabelSelectorError listing every problem when Kubernetes would reject it.
 */
export function compileLabelSelector(selector: LabelSelector | undefined): Selector {
  if (selector === undefined) return nothing;
  const problems: string[] = [];
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    const before = problems.length;
    problems.push(...labelKeyProblems(key), ...labelValueProblems(key, value));
    if (problems.length === before) requirements.push({ key, operator: '=', values: [value] });
  }
  for (const expression of selector.matchExpressions ?? []) {
    const r = requirementOf(expression, problems);
    if (r) requirements.push(r);
  }
  if (problems.length > 0) throw new InvalidLabelSelectorError(JSON.stringify(selector), problems);
  return requirements.length === 0 ? everything : new CompiledSelector(requirements);
}

/** Compiles a present metav1.LabelSelector; see compileLabelSelector. */
export function selectorFromLabelSelector(selector: LabelSelector): Selector {
  return compileLabelSelector(selector);
}

/** Whether `labels` satisfy `selector`. Throws InvalidLabelSelectorError for an invalid selector. */
export function labelSelectorMatches(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return compileLabelSelector(selector).matches(labels);
}

const parsed = new Map<string, Selector>();
const PARSED_CACHE_SIZE = 256;

/** Accepts any selector form; strings are parsed once and remembered, since controllers repeat the same few. */
export function toSelector(selector: string | LabelSelector | Selector | undefined): Selector {
  if (selector === undefined) return everything;
  if (typeof selector === 'string') {
    let s = parsed.get(selector);
    if (s === undefined) {
      s = parseSelector(selector);
      if (parsed.size >= PARSED_CACHE_SIZE) parsed.clear();
      parsed.set(selector, s);
    }
    return s;
  }
  if ('matches' in selector && typeof selector.matches === 'function') return selector;
  return selectorFromLabelSelector(selector as LabelSelector);
}
