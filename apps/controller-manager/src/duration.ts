// Go-style durations ("15s", "2m", "1h30m", "500ms"), because operators copy flags between Karmada's manager
// and ours and expect the same syntax.
const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

export class DurationSyntaxError extends Error {
  constructor(text: string) {
    super(
      `"${text}" is not a duration: use a number with a unit, e.g. 500ms, 15s, 2m, 1h30m (units: ns, us, ms, s, m, h)`,
    );
    this.name = 'DurationSyntaxError';
  }
}

/** Parses a Go-style duration into milliseconds. "0" alone is allowed. */
export function parseDuration(text: string): number {
  const t = text.trim();
  if (t === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(t); m !== null; m = re.exec(t)) {
    total += Number(m[1]) * (UNITS[m[2]!] ?? Number.NaN);
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== t.length || !Number.isFinite(total)) throw new DurationSyntaxError(text);
  return total;
}

/** Formats milliseconds the way Go prints a duration (for --help and logs). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}
