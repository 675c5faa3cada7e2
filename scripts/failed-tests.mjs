// Names every failed test in the given vitest JSON reports, with its first message line, so a CI log that keeps
// only its tail still says what failed; and every file that failed outside its tests (a throwing beforeAll). Prints nothing when every test passed.
import { existsSync, readFileSync } from 'node:fs';

for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const file of report.testResults) {
    // A hook that throws (beforeAll, afterAll) fails the file while its tests count as skipped, not failed.
    if (file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')) {
      const why =
        (file.message ?? '').split('\n')[0].slice(0, 300) ||
        'a hook failed (beforeAll/afterAll); its error is in the log above';
      console.log(`FAILED SUITE ${file.name.replace(`${process.cwd()}/`, '')}: ${why}`);
    }
    for (const test of file.assertionResults) {
      if (test.status !== 'failed') continue;
      const message = (test.failureMessages[0] ?? '').split('\n')[0].slice(0, 300);
      console.log(`FAILED ${file.name.replace(`${process.cwd()}/`, '')} > ${test.fullName}: ${message}`);
    }
  }
}
