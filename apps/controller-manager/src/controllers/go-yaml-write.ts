// A JSON value to YAML text byte for byte as sigs.k8s.io/yaml's JSONToYAML writes it (go.yaml.in/yaml/v2 Marshal),
// which is what Karmada writes back into a field after a YAML fieldOverrider: map keys in yaml.v2's natural order
// (letters before other characters, digit runs compared as numbers), two-space indents, sequences in a mapping not
// indented, numbers as they read back from JSON text (int, else Go's shortest float), and each string plain,
// single-quoted, double-quoted or literal (`|`) by libyaml's rules, folded at a space past column 80.
import { formatGoFloat } from './go-float.js';
import { plainReadsAsString, resolvePlain } from './go-yaml-resolve.js';

/** YAML that go.yaml.in/yaml/v2 would refuse to read back (sigs.k8s.io/yaml reads the JSON text first). */
export class YamlWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlWriteError';
  }
}

// libyaml's preferred line width: plain and quoted scalars fold at a space once past it.
const WIDTH = 80;

/** The YAML text of a JSON value (as parsed from JSON: objects, arrays, strings, finite numbers, booleans, null). */
export function writeGoYaml(value: unknown): string {
  const out: string[] = [];
  if (isCollection(value) && !isEmpty(value)) writeBlock(out, value, 0);
  // A lone scalar is indented as a flow node is at the root.
  else out.push(`${inlineValue(value, 2, 0)}\n`);
  return out.join('');
}

type Json = Record<string, unknown> | unknown[];

function isCollection(v: unknown): v is Json {
  return typeof v === 'object' && v !== null;
}

function isEmpty(v: Json): boolean {
  return Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
}

const runes = (s: string): number => [...s].length;

// A non-empty mapping or sequence whose entries start at column `indent`; with `continuing`, the first entry goes
// on the current line (after the "- " or ": " of its parent, which ends at that column).
function writeBlock(out: string[], value: Json, indent: number, continuing = false): void {
  const pad = ' '.repeat(indent);
  let first = true;
  const start = (): string => {
    const s = first && continuing ? '' : pad;
    first = false;
    return s;
  };
  // After "- " or ": " a collection continues the line, an empty one or a scalar follows a space.
  const after = (item: unknown, childIndent: number, column: number): void => {
    if (isCollection(item) && !isEmpty(item)) {
      out.push(' ');
      writeBlock(out, item, childIndent, true);
    } else {
      out.push(` ${inlineValue(item, indent + 2, column + 1)}\n`);
    }
  };
  if (Array.isArray(value)) {
    for (const item of value) {
      out.push(`${start()}-`);
      after(item, indent + 2, indent + 1);
    }
    return;
  }
  const entries = Object.keys(value).map((key): [string, unknown] => [asReadBack(key), value[key]]);
  // Where keyList.Less is not a consistent order (the digit runs of "09", "0b1" and "1" compare in a cycle),
  // Karmada's own output varies from run to run, as yaml.v2 sorts the keys of a Go map in its random order.
  for (const [k, item] of entries.sort(([a], [b]) => compareKeys(a, b))) {
    if (/[\r\n\u0085\u2028\u2029]/.test(k) || Buffer.byteLength(k, 'utf8') > 128) {
      // Not a simple key for libyaml: the explicit "? key" / ": value" form.
      out.push(`${start()}? ${scalar(k, indent + 2, indent + 2, false)}\n${pad}:`);
      after(item, indent + 2, indent + 1);
      continue;
    }
    const text = scalar(k, indent + 2, indent, true);
    out.push(`${start()}${text}:`);
    if (isCollection(item) && !isEmpty(item)) {
      out.push('\n');
      writeBlock(out, item, Array.isArray(item) ? indent : indent + 2);
    } else {
      out.push(` ${inlineValue(item, indent + 2, indent + runes(text) + 2)}\n`);
    }
  }
}

// A scalar or an empty collection starting at `column`; `indent` is where continuation lines start.
function inlineValue(value: unknown, indent: number, column: number): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberText(value);
  if (typeof value === 'string') return scalar(asReadBack(value), indent, column, false).replace(/\n$/, '');
  if (Array.isArray(value)) return '[]';
  return '{}';
}

// JSONToYAML reads the number back from its JSON text: an int (or uint) if it parses as one, else a float.
function numberText(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (!Number.isFinite(n)) throw new YamlWriteError(`json: unsupported value: ${n}`);
  const text = String(n);
  return resolvePlain(text).tag === 'int' ? BigInt(text).toString() : formatGoFloat(n);
}

// A string as yaml.v2 reads it back out of the JSON text: encoding/json leaves NEL (U+0085) unescaped and the
// double-quoted scanner folds it like a line break (one becomes a space, n become n-1 newlines, blanks around
// dropped); and the reader refuses DEL, the other C1 controls and U+FFFE/U+FFFF, which encoding/json leaves too.
function asReadBack(s: string): string {
  if (/[\u007f-\u0084\u0086-\u009f\ufffe\uffff]/.test(s)) {
    throw new YamlWriteError('yaml: control characters are not allowed');
  }
  if (!s.includes('\u0085')) return s;
  return s.replace(/ *\u0085(?: *\u0085)* */g, (m) => {
    const n = m.split('\u0085').length - 1;
    return n === 1 ? ' ' : '\n'.repeat(n - 1);
  });
}

// encoder.stringv then yaml_emitter_select_scalar_style, in block context.
function scalar(s: string, indent: number, column: number, simpleKey: boolean): string {
  const a = analyze(s);
  const breaks = !simpleKey;
  if (s.includes('\n')) {
    if (!a.blockAllowed || simpleKey) return doubleQuoted(s, indent, column, breaks);
    return literal(s, indent);
  }
  if (!plainReadsAsString(s)) return doubleQuoted(s, indent, column, breaks);
  if (a.blockPlainAllowed && s !== '') return plain(s, indent, column, breaks);
  if (a.singleQuotedAllowed) return singleQuoted(s, indent, column, breaks);
  return doubleQuoted(s, indent, column, breaks);
}

interface Analysis {
  readonly blockPlainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
}

const isBreak = (c: string): boolean =>
  c === '\r' || c === '\n' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

// libyaml's is_printable, by code point: 4-byte UTF-8 (outside the BMP) counts as not printable.
function isPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

// yaml_emitter_analyze_scalar.
function analyze(s: string): Analysis {
  if (s === '') return { blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  const chars = [...s];
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  chars.forEach((c, i) => {
    const followedByWhitespace = i + 1 >= chars.length || isBlank(chars[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      else if ((c === '?' || c === ':' || c === '-') && followedByWhitespace) blockIndicators = true;
    } else if (c === ':' && followedByWhitespace) blockIndicators = true;
    else if (c === '#' && precededByWhitespace) blockIndicators = true;
    if (!isPrintable(c.codePointAt(0)!)) special = true;
    const last = i + 1 === chars.length;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlank(c) || isBreak(c) || c === '\0';
  });
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks || blockIndicators) blockPlainAllowed = false;
  return { blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

// yaml_emitter_write_plain_scalar: past the width, a single space (not one of a run) becomes a line break.
function plain(s: string, indent: number, column: number, allowBreaks: boolean): string {
  let out = '';
  let col = column;
  let spaces = false;
  const chars = [...s];
  chars.forEach((c, i) => {
    if (c === ' ') {
      if (allowBreaks && !spaces && col > WIDTH && chars[i + 1] !== ' ') {
        out += `\n${' '.repeat(indent)}`;
        col = indent;
      } else {
        out += c;
        col++;
      }
      spaces = true;
    } else {
      out += c;
      col++;
      spaces = false;
    }
  });
  return out;
}

// yaml_emitter_write_single_quoted_scalar: folds as plain does (never at the first or last character); after a
// line separator (U+2028/U+2029, the only breaks that get here) the text continues at the indent.
function singleQuoted(s: string, indent: number, column: number, allowBreaks: boolean): string {
  let out = "'";
  let col = column + 1;
  let spaces = false;
  let breaks = false;
  const chars = [...s];
  chars.forEach((c, i) => {
    if (c === ' ') {
      if (allowBreaks && !spaces && col > WIDTH && i > 0 && i < chars.length - 1 && chars[i + 1] !== ' ') {
        out += `\n${' '.repeat(indent)}`;
        col = indent;
      } else {
        out += c;
        col++;
      }
      spaces = true;
    } else if (isBreak(c)) {
      out += c;
      col = 0;
      breaks = true;
    } else {
      if (breaks) {
        out += ' '.repeat(indent);
        col = indent;
      }
      if (c === "'") {
        out += "'";
        col++;
      }
      out += c;
      col++;
      spaces = false;
      breaks = false;
    }
  });
  return `${out}'`;
}

const ESCAPES: Record<number, string> = {
  0: '0',
  7: 'a',
  8: 'b',
  9: 't',
  10: 'n',
  11: 'v',
  12: 'f',
  13: 'r',
  27: 'e',
  34: '"',
  92: '\\',
  133: 'N',
  160: '_',
  8232: 'L',
  8233: 'P',
};

// yaml_emitter_write_double_quoted_scalar: escapes what is not printable, the BOM, line breaks, '"' and '\\';
// past the width a space becomes a line break, and a space right after it is escaped to survive.
function doubleQuoted(s: string, indent: number, column: number, allowBreaks: boolean): string {
  let out = '"';
  let col = column + 1;
  let spaces = false;
  const chars = [...s];
  chars.forEach((c, i) => {
    const cp = c.codePointAt(0)!;
    if (!isPrintable(cp) || cp === 0xfeff || isBreak(c) || c === '"' || c === '\\') {
      const named = ESCAPES[cp];
      const escaped =
        named !== undefined
          ? `\\${named}`
          : cp <= 0xff
            ? `\\x${hex(cp, 2)}`
            : cp <= 0xffff
              ? `\\u${hex(cp, 4)}`
              : `\\U${hex(cp, 8)}`;
      out += escaped;
      col += escaped.length;
      spaces = false;
    } else if (c === ' ') {
      if (allowBreaks && !spaces && col > WIDTH && i > 0 && i < chars.length - 1) {
        out += `\n${' '.repeat(indent)}`;
        col = indent;
        if (chars[i + 1] === ' ') {
          out += '\\';
          col++;
        }
      } else {
        out += c;
        col++;
      }
      spaces = true;
    } else {
      out += c;
      col++;
      spaces = false;
    }
  });
  return `${out}"`;
}

function hex(n: number, width: number): string {
  return n.toString(16).toUpperCase().padStart(width, '0');
}

// yaml_emitter_write_literal_scalar with its hints: an indentation digit when the text starts with a space or a
// break; "-" when it does not end in a break, "+" when it ends in two (or is one).
function literal(s: string, indent: number): string {
  let header = '|';
  if (s.startsWith(' ') || isBreak(s[0]!)) header += '2';
  const chars = [...s];
  const last = chars.at(-1)!;
  if (!isBreak(last)) header += '-';
  else if (chars.length === 1 || isBreak(chars.at(-2)!)) header += '+';
  const pad = ' '.repeat(indent);
  let body = '';
  let atLineStart = true;
  for (const c of chars) {
    if (isBreak(c)) {
      body += c === '\n' ? '\n' : c;
      atLineStart = true;
    } else {
      if (atLineStart) body += pad;
      body += c;
      atLineStart = false;
    }
  }
  return `${header}\n${body}`;
}

// yaml.v2's keyList.Less for string keys: runs of letters compare by code point, a letter sorts before anything
// else, and digit runs compare by value (then by length), so "a2" < "a10".
export function compareKeys(a: string, b: string): number {
  return keyLess(a, b) ? -1 : keyLess(b, a) ? 1 : 0;
}

const isLetter = (c: string): boolean => /\p{L}/u.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && /\p{Nd}/u.test(c);

function keyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    // int64 arithmetic, wrapping as Go's does on a long digit run.
    for (; ai < ar.length && isDigit(ar[ai]); ai++)
      an = BigInt.asIntN(64, an * 10n + BigInt(ar[ai]!.codePointAt(0)! - 48));
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++)
      bn = BigInt.asIntN(64, bn * 10n + BigInt(br[bi]!.codePointAt(0)! - 48));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}
