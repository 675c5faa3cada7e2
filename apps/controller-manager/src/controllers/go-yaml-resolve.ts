// How go.yaml.in/yaml/v2 (the YAML library under sigs.k8s.io/yaml, which Karmada's fieldOverrider uses) reads an
// unquoted scalar: YAML 1.1 booleans (yes, on, n ...), nulls, ints in any Go base (0x, 0o, 0b, leading-0 octal,
// underscores dropped), floats, and timestamps, which it keeps as strings when decoding into an untyped value.
// Both directions depend on it: reading decides a scalar's type, writing quotes a string that would read back as
// something else.

/** What an unquoted scalar reads as. */
export type Resolved =
  | { readonly tag: 'str' | 'timestamp'; readonly value: string }
  | { readonly tag: 'bool'; readonly value: boolean }
  | { readonly tag: 'null'; readonly value: null }
  | { readonly tag: 'int'; readonly value: number | bigint }
  | { readonly tag: 'float'; readonly value: number }
  | { readonly tag: 'merge'; readonly value: '<<' };

const WORDS = new Map<string, Resolved>();
const word = (r: Resolved, list: string): void => {
  for (const w of list.split(' ')) WORDS.set(w, r);
};
word({ tag: 'bool', value: true }, 'y Y yes Yes YES true True TRUE on On ON');
word({ tag: 'bool', value: false }, 'n N no No NO false False FALSE off Off OFF');
word({ tag: 'null', value: null }, '~ null Null NULL');
WORDS.set('', { tag: 'null', value: null });
word({ tag: 'float', value: Number.NaN }, '.nan .NaN .NAN');
word({ tag: 'float', value: Number.POSITIVE_INFINITY }, '.inf .Inf .INF +.inf +.Inf +.INF');
word({ tag: 'float', value: Number.NEGATIVE_INFINITY }, '-.inf -.Inf -.INF');
WORDS.set('<<', { tag: 'merge', value: '<<' });

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** resolve("", s) of yaml.v2. */
export function resolvePlain(s: string): Resolved {
  const hint = s === '' ? 'N' : hintOf(s.charCodeAt(0));
  if (hint === undefined) return { tag: 'str', value: s };
  const known = WORDS.get(s);
  if (known !== undefined) return known;
  if (hint === '.') {
    const f = parseGoFloat(s);
    if (f !== undefined) return { tag: 'float', value: f };
  } else if (hint === 'D' || hint === 'S') {
    if (isTimestamp(s)) return { tag: 'timestamp', value: s };
    const plain = s.replaceAll('_', '');
    const int = parseGoInt(plain);
    if (int !== undefined) return { tag: 'int', value: intValue(int) };
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = parseGoFloat(plain);
      if (f !== undefined) return { tag: 'float', value: f };
    }
    if (plain.startsWith('0b') || plain.startsWith('-0b')) {
      const neg = plain.startsWith('-');
      const digits = plain.slice(neg ? 3 : 2);
      if (/^[01]+$/.test(digits)) {
        const v = BigInt(`0b${digits}`) * (neg ? -1n : 1n);
        if (v >= INT64_MIN && v <= UINT64_MAX) return { tag: 'int', value: intValue(v) };
      }
    }
  }
  return { tag: 'str', value: s };
}

// Go keeps all 64 bits; a number loses them past 2^53, so such an int stays a bigint.
function intValue(v: bigint): number | bigint {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** The Marshal side: a string written plain only if it reads back as that string. */
export function plainReadsAsString(s: string): boolean {
  return resolvePlain(s).tag === 'str' && !isBase60Float(s);
}

function hintOf(c: number): 'S' | 'D' | 'M' | '.' | undefined {
  const ch = String.fromCharCode(c);
  if (ch === '+' || ch === '-') return 'S';
  if (ch >= '0' && ch <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(ch)) return 'M';
  if (ch === '.') return '.';
  return undefined;
}

function isBase60Float(s: string): boolean {
  if (s === '') return false;
  const c = s[0]!;
  if (!(c === '+' || c === '-' || (c >= '0' && c <= '9')) || !s.includes(':')) return false;
  return BASE60_FLOAT.test(s);
}

// strconv.ParseInt(s, 0, 64), then ParseUint(s, 0, 64): optional sign (ParseUint takes none), then 0x/0o/0b or a
// leading 0 for octal.
function parseGoInt(s: string): bigint | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (m === null) return undefined;
  const body = m[2]!;
  let v: bigint;
  if (/^0[oO]/.test(body)) v = BigInt(`0o${body.slice(2)}`);
  else if (/^0[xXbB]/.test(body)) v = BigInt(`0${body[1]!.toLowerCase()}${body.slice(2)}`);
  else if (body.length > 1 && body.startsWith('0')) v = BigInt(`0o${body.slice(1)}`);
  else v = BigInt(body);
  if (m[1] === '-') v = -v;
  if (v >= INT64_MIN && v < 2n ** 63n) return v;
  if (m[1] === '' && v <= UINT64_MAX) return v;
  return undefined;
}

// strconv.ParseFloat(s, 64) for the decimal forms these callers pass; Go also takes "inf", hex floats and
// underscores, which cannot reach here past the regular expressions and the hint table.
function parseGoFloat(s: string): number | undefined {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return undefined;
  const f = Number(s);
  // Go reports a range error for a finite literal that overflows.
  return Number.isFinite(f) ? f : undefined;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// parseTimestamp: a four-digit year, then one of yaml.v2's layouts, parsed by Go's time.Parse (one- or two-digit
// month, day, hour, minute and second; the fraction optional; the day checked against the month).
function isTimestamp(s: string): boolean {
  const m =
    /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:([Tt])|( ))(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(
      s,
    );
  if (m === null) return false;
  const [, year, month, day, t, space, hour, minute, second, zone] = m;
  const y = Number(year);
  const mo = Number(month);
  const d = Number(day);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (d > (mo === 2 && !leap ? 28 : DAYS[mo - 1]!)) return false;
  if (hour === undefined) return true;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return false;
  // The T layouts need a zone; the space layout has none.
  if (t !== undefined) return zone !== undefined && zoneOk(zone);
  return space !== undefined && zone === undefined;
}

function zoneOk(zone: string): boolean {
  if (zone === 'Z') return true;
  return Number(zone.slice(1, 3)) <= 24 && Number(zone.slice(4, 6)) <= 59;
}
