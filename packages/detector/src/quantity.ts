// Kubernetes resource quantities (apimachinery resource.Quantity), exact: parsing into a BigInt-backed
// decimal, MilliValue/Value rounding, and the canonical String() Karmada's bindings carry. Exactness matters:
// a binding whose resourceRequest is spelled differently from what Karmada wrote would be rewritten.
import type { Quantity } from '@warmstart/api';

/** value = mantissa × 10^exp10 × 2^exp2, with exp2 ≥ 0. */
interface Parsed {
  readonly mantissa: bigint;
  readonly exp10: number;
  readonly exp2: number;
}

/** A string that is not a valid resource.Quantity. */
export class InvalidQuantityError extends Error {
  constructor(value: Quantity) {
    super(`"${String(value)}" is not a valid Kubernetes quantity (e.g. "250m", "1.5", "64Mi", "1e3")`);
    this.name = 'InvalidQuantityError';
  }
}

const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE]([+-]?\d+))?$/;
const DECIMAL_SUFFIX: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIX: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

function parse(value: Quantity): Parsed {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = QUANTITY.exec(text);
  if (!m) throw new InvalidQuantityError(value);
  const [, sign, whole = '', fraction = '', suffix = '', exponent] = m;
  if (whole === '' && fraction === '') throw new InvalidQuantityError(value);
  let mantissa = BigInt(`${whole}${fraction}` || '0');
  if (sign === '-') mantissa = -mantissa;
  let exp10 = -fraction.length;
  let exp2 = 0;
  if (exponent !== undefined) exp10 += Number(exponent);
  else if (suffix in DECIMAL_SUFFIX) exp10 += DECIMAL_SUFFIX[suffix]!;
  else if (suffix in BINARY_SUFFIX) exp2 = BINARY_SUFFIX[suffix]!;
  return { mantissa, exp10, exp2 };
}

// Rounds away from zero, as Quantity.AsScale does ("rounding up").
function divideUp(numerator: bigint, denominator: bigint): bigint {
  const q = numerator / denominator;
  if (q * denominator === numerator) return q;
  return numerator > 0n ? q + 1n : q - 1n;
}

function scaled(p: Parsed, exp10Shift: number): bigint {
  const e = p.exp10 + exp10Shift;
  const base = p.mantissa * (1n << BigInt(p.exp2));
  return e >= 0 ? base * 10n ** BigInt(e) : divideUp(base, 10n ** BigInt(-e));
}

/** Quantity.MilliValue(): the value × 1000, rounded up. */
export function milliValue(value: Quantity): bigint {
  return scaled(parse(value), 3);
}

/** Quantity.Value(): the value, rounded up to an integer. */
export function integerValue(value: Quantity): bigint {
  return scaled(parse(value), 0);
}

function decimalSuffix(exponent: number): string {
  for (const [suffix, e] of Object.entries(DECIMAL_SUFFIX)) if (e === exponent) return suffix;
  return exponent === 0 ? '' : `e${exponent}`;
}

/** Canonical DecimalSI text of amount × 10^scale (int64Amount.AsCanonicalBytes + the SI suffixer). */
export function formatDecimalSI(amount: bigint, scale: number): string {
  if (amount === 0n) return '0';
  let mantissa = amount;
  let exponent = scale;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  // Go's % keeps the sign of the dividend: -1 % 3 === -1, like JavaScript's.
  switch (exponent % 3) {
    case 1:
    case -2:
      mantissa *= 10n;
      exponent -= 1;
      break;
    case 2:
    case -1:
      mantissa *= 100n;
      exponent -= 2;
      break;
  }
  return `${mantissa}${decimalSuffix(exponent)}`;
}

/** Canonical BinarySI text of an integer (small values fall back to DecimalSI, as Kubernetes does). */
export function formatBinarySI(amount: bigint): string {
  if (amount > -1024n && amount < 1024n) return formatDecimalSI(amount, 0);
  let mantissa = amount;
  let power = 0;
  while (mantissa % 1024n === 0n) {
    mantissa /= 1024n;
    power += 10;
  }
  const suffix = Object.entries(BINARY_SUFFIX).find(([, p]) => p === power)?.[0] ?? '';
  return `${mantissa}${suffix}`;
}
