// Label selectors with apimachinery's grammar and semantics: the string form (`a=b,c in (x,y),!d`) and the
// structured metav1.LabelSelector, both compiled to a Selector that matches a label map.
import { InvalidSelectorError } from './errors.js';

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

/** metav1.LabelSelector, as it appears in specs (Deployment.spec.selector, PropagationPolicy resourceSelectors). */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>> | undefined;
  readonly matchExpressions?:
    | readonly {
        readonly key: string;
        readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
        readonly values?: readonly string[] | undefined;
      }[]
    | undefined;
}

const NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function validateKey(source: string, key: string): void {
  const slash = key.lastIndexOf('/');
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (slash >= 0) {
    const prefix = key.slice(0, slash);
    if (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) {
      throw new InvalidSelectorError(source, `key prefix "${prefix}" must be a DNS subdomain`);
    }
  }
  if (name.length === 0 || name.length > 63 || !NAME.test(name)) {
    throw new InvalidSelectorError(
      source,
      `key "${key}" must be 63 characters or less, alphanumeric, '-', '_' or '.', and start and end alphanumeric`,
    );
  }
}

function validateValue(source: string, value: string): void {
  if (value.length === 0) return;
  if (value.length > 63 || !NAME.test(value)) {
    throw new InvalidSelectorError(
      source,
      `value "${value}" must be 63 characters or less, alphanumeric, '-', '_' or '.', and start and end alphanumeric`,
    );
  }
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
      if (!has || !/^-?\d+$/.test(value as string)) return false;
      const actual = Number(value);
      const bound = Number(r.values[0]);
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
          validateValue(source, v);
          values.push(v);
        }
        requirements.push({ key, operator: op.text, values: [...new Set(values)].sort() });
      } else if (op.kind === 'op' && (op.text === '=' || op.text === '==' || op.text === '!=')) {
        i++;
        const v = valueOrEmpty();
        validateValue(source, v);
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

/** Compiles a metav1.LabelSelector. An empty selector ({}) selects everything, as the API server treats it. */
export function selectorFromLabelSelector(selector: LabelSelector): Selector {
  const requirements: Requirement[] = [];
  const source = JSON.stringify(selector);
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    validateKey(source, key);
    validateValue(source, value);
    requirements.push({ key, operator: '=', values: [value] });
  }
  for (const expr of selector.matchExpressions ?? []) {
    validateKey(source, expr.key);
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) {
          throw new InvalidSelectorError(source, `operator ${expr.operator} on "${expr.key}" needs values`);
        }
        for (const v of values) validateValue(source, v);
        requirements.push({
          key: expr.key,
          operator: expr.operator === 'In' ? 'in' : 'notin',
          values: [...new Set(values)].sort(),
        });
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) {
          throw new InvalidSelectorError(
            source,
            `operator ${expr.operator} on "${expr.key}" takes no values`,
          );
        }
        requirements.push({
          key: expr.key,
          operator: expr.operator === 'Exists' ? 'exists' : 'doesNotExist',
          values: [],
        });
        break;
      default:
        throw new InvalidSelectorError(source, `unknown operator "${String(expr.operator)}"`);
    }
  }
  return new CompiledSelector(requirements);
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
