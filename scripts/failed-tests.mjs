// Names every failed test in the given vitest JSON reports, with its first message line, so a CI log that keeps
// only its tail still says what failed. Prints nothing when every test passed.
import { existsSync, readFileSync } from 'node:fs';

for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status !== 'failed') continue;
      const message = (test.failureMessages[0] ?? '').split('\n')[0].slice(0, 300);
      console.log(`FAILED ${file.name.replace(`${process.cwd()}/`, '')} > ${test.fullName}: ${message}`);
    }
  }
}
