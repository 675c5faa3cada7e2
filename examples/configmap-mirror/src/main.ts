// Runs the mirror against the cluster of $KUBECONFIG (or ~/.kube/config, or in-cluster):
//   pnpm start <from-namespace> <to-namespace>
import { ApiTransport, staticEndpoint } from '@warmstart/informer-cache';
import { Manager } from '@warmstart/runtime';
import { configMapMirror } from './mirror.js';

const [from, to] = process.argv.slice(2);
const endpoint = staticEndpoint({ name: 'host' });
if (!from || !to || !endpoint) {
  console.error('usage: main.ts <from-namespace> <to-namespace> (with a kubeconfig or in a Pod)');
  process.exit(2);
}
const manager = new Manager({
  transport: new ApiTransport(endpoint),
  probes: { host: '127.0.0.1', port: 8081 },
});
configMapMirror(manager, from, to);
const stop = new AbortController();
process.once('SIGTERM', () => stop.abort('SIGTERM'));
process.once('SIGINT', () => stop.abort('SIGINT'));
process.exitCode = (await manager.run(stop.signal)) === 'stopped' ? 0 : 1;
