// BENCH_LOG=1 in a benchmark's child process: the informers' own log lines (retries, fallbacks, relists) on
// stderr, to explain an odd figure.
export const stderrLogger = {
  debug: (m: string, f?: object) => process.stderr.write(`debug ${m} ${JSON.stringify(f ?? {})}\n`),
  info: (m: string, f?: object) => process.stderr.write(`info ${m} ${JSON.stringify(f ?? {})}\n`),
  warn: (m: string, f?: object) => process.stderr.write(`warn ${m} ${JSON.stringify(f ?? {})}\n`),
  error: (m: string, f?: object) => process.stderr.write(`error ${m} ${JSON.stringify(f ?? {})}\n`),
};
