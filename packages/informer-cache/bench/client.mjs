// Child process: syncs N Deployments with one client and prints {mode, count, syncMs, heapPerObject} as JSON.
// Modes: warmstart (defaults), warmstart-list (paged LIST, no WatchList), warmstart-nointern, client-node
// (@kubernetes/client-node's makeInformer), raw-list (paged LIST + JSON.parse of each page, nothing kept).
import { AppsV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
import { InformerManager } from '../dist/index.js';

const [mode, kubeconfig] = process.argv.slice(2);
const kc = new KubeConfig();
kc.loadFromString(kubeconfig);
const gvr = { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true, kind: 'Deployment' };

async function settle() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

await settle();
const before = process.memoryUsage().heapUsed;
const started = performance.now();
let count = 0;
if (mode.startsWith('warmstart')) {
  const manager = InformerManager.fromKubeConfig(kc, {
    informers: {
      internStrings: mode !== 'warmstart-nointern',
      watchList: mode === 'warmstart-list' ? 'never' : 'auto',
    },
  });
  manager.forResource(gvr);
  manager.start();
  await manager.waitForSync({ timeoutMs: 600_000 });
  globalThis.keep = manager;
  count = manager.lister(gvr).list().length;
} else if (mode === 'client-node') {
  const api = kc.makeApiClient(AppsV1Api);
  const informer = makeInformer(kc, '/apis/apps/v1/deployments', () => api.listDeploymentForAllNamespaces());
  await informer.start();
  globalThis.keep = informer;
  count = informer.list().length;
} else if (mode === 'raw-list') {
  const server = kc.getCurrentCluster().server;
  let token = '';
  do {
    const url = `${server}/apis/apps/v1/deployments?limit=500&resourceVersion=0${token ? `&continue=${token}` : ''}`;
    const res = await fetch(url, { headers: { Authorization: `Bearer ${kc.getCurrentUser().token}` } });
    const page = JSON.parse(await res.text());
    count += page.items.length;
    token = page.metadata.continue ?? '';
  } while (token);
} else {
  throw new Error(`unknown mode ${mode}`);
}
const syncMs = Math.round(performance.now() - started);
await settle();
const heapPerObject = mode === 'raw-list' ? 0 : Math.round((process.memoryUsage().heapUsed - before) / count);
process.stdout.write(`${JSON.stringify({ mode, count, syncMs, heapPerObject })}\n`);
process.exit(0);
