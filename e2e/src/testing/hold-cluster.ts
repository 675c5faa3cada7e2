// Child process for the cleanup test: brings a local cluster up, prints the pids it started, then either
// throws (an abnormal end with no cleanup code of the test's own) or waits for a signal.
import { LocalProvider } from '../cluster/local-provider.js';

const mode = process.argv[2] ?? 'wait';
const set = await new LocalProvider({ log: () => undefined }).up({ clusters: 1 });
process.stdout.write(`${JSON.stringify({ pids: set.pids(), workDir: set.workDir })}\n`);
if (mode === 'throw') {
  throw new Error('simulated test failure with the cluster still up');
}
// Keep the event loop alive until a signal arrives; the supervisor's signal hooks do the cleanup.
setInterval(() => undefined, 1 << 30);
