// --skipped-propagating-namespaces: regular expressions, each anchored as ^<expr>$, for namespaces whose
// objects the detector ignores. Default: kube-.*
import { InvalidFlagError } from './errors.js';

const FLAG = 'skipped-propagating-namespaces';

export const DEFAULT_SKIPPED_NAMESPACES: readonly string[] = ['kube-.*'];

/** Splits a string-slice flag value the way pflag does: commas separate, double quotes group. */
export function splitStringSliceFlag(value: string): string[] {
  if (value === '') return [];
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (ch === '"') {
      if (quoted && value[i + 1] === '"') {
        current += '"';
        i++;
      } else quoted = !quoted;
    } else if (ch === ',' && !quoted) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  if (quoted) throw new InvalidFlagError(FLAG, `unbalanced quote in "${value}"`);
  out.push(current);
  return out;
}

/** Compiles each pattern as ^pattern$. Throws InvalidFlagError naming the pattern that does not compile. */
export function compileSkippedNamespaces(patterns: readonly string[] = DEFAULT_SKIPPED_NAMESPACES): RegExp[] {
  return patterns.map((pattern) => {
    try {
      return new RegExp(`^${pattern}$`);
    } catch (error) {
      throw new InvalidFlagError(
        FLAG,
        `"${pattern}" is not a valid regular expression (${(error as Error).message})`,
      );
    }
  });
}
