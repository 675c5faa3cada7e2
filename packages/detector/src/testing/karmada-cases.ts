// Loads the test tables transcribed from Karmada's Go tests (testdata/karmada/*.json): each file holds the
// tables of one Go test file at one Karmada commit, as data, so a test here can name the Go test it repeats.
// The caller names the file by URL because each package keeps the tables of the Go tests it repeats beside its
// own tests; a path resolved here would always point into this package.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One Go test function's table: its cases, and the variables declared before the table that cases use. */
export interface KarmadaTable<C> {
  readonly cases: readonly C[];
  readonly fixtures: Readonly<Record<string, unknown>>;
}

interface KarmadaTestFile {
  readonly source: string;
  readonly commit: string;
  readonly tests: Readonly<Record<string, KarmadaTable<unknown>>>;
}

/**
 * The table of Go test `test` from the transcribed file at `file` (for example
 * `new URL('./testdata/karmada/pkg-util-selector_test.json', import.meta.url)`), with a label for test titles.
 */
export function karmadaTable<C>(file: URL, test: string): KarmadaTable<C> & { readonly label: string } {
  const doc: KarmadaTestFile = JSON.parse(readFileSync(file, 'utf8'));
  const table = doc.tests[test];
  if (table === undefined)
    throw new Error(
      `${basename(fileURLToPath(file))} has no table for ${test}; regenerate it from Karmada's tests`,
    );
  const source = doc.source.split(' ').at(-1);
  return {
    cases: (table.cases ?? []) as readonly C[],
    fixtures: table.fixtures,
    label: `Karmada ${doc.commit.slice(0, 8)} ${source} ${test}`,
  };
}
