// Go's strconv.FormatFloat(f, 'g', -1, bits), which go.yaml.in/yaml/v2 writes floats with and sigs.k8s.io/yaml
// turns float map keys into text with.

/**
 * strconv.FormatFloat(f, 'g', -1, bits): the shortest digits that read back as f (at that width), in exponent
 * form, with at least two exponent digits, when the decimal exponent is below -4 or at least 6.
 */
export function formatGoFloat(f: number, bits: 'float32' | 'float64' = 'float64'): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Number.POSITIVE_INFINITY) return '+Inf';
  if (f === Number.NEGATIVE_INFINITY) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, expText] = shortestExponential(f, bits).split('e') as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  // 'g' with the shortest precision switches to %e when exp < -4 || exp >= 6.
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}${frac === '' ? '' : `.${frac}`}`;
}

// The shortest decimal that reads back as f at the given width. JavaScript's toExponential() is shortest for
// float64; for float32 try increasing precision until Math.fround round-trips.
function shortestExponential(f: number, bits: 'float32' | 'float64'): string {
  if (bits === 'float64') return f.toExponential();
  for (let p = 0; p < 17; p++) {
    const s = f.toExponential(p);
    if (Math.fround(Number(s)) === f) return s.replace(/\.?0+e/, 'e');
  }
  return f.toExponential();
}
