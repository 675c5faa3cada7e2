// Heap per cached Deployment and sync time, warmstart vs @kubernetes/client-node, against a fake API server in a
// separate process. Usage: node bench/heap.mjs [count] [modes...]   (after `pnpm --filter @warmstart/informer-cache build`)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const count = Number(process.argv[2] ?? 20_000);
const modes =
  process.argv.length > 3
    ? process.argv.slice(3)
    : ['raw-list', 'warmstart', 'warmstart-list', 'client-node'];

const server = spawn(process.execPath, [here('./fake-server.mjs'), String(count)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
let kubeconfig = '';
for await (const chunk of server.stdout) {
  kubeconfig += chunk;
  if (kubeconfig.includes('\n')) break;
}
try {
  const rows = [];
  for (const mode of modes) {
    const client = spawn(process.execPath, ['--expose-gc', here('./client.mjs'), mode, kubeconfig.trim()], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    client.stdout.on('data', (c) => {
      out += c;
    });
    await once(client, 'exit');
    rows.push(JSON.parse(out));
  }
  const raw = rows.find((r) => r.mode === 'raw-list');
  const cn = rows.find((r) => r.mode === 'client-node');
  console.log(`objects: ${count}`);
  for (const r of rows) {
    const vsRaw = raw && r !== raw ? ` (${(r.syncMs / raw.syncMs).toFixed(2)}x raw list)` : '';
    const vsCn =
      cn && r !== cn && r.heapPerObject
        ? ` (${((100 * r.heapPerObject) / cn.heapPerObject).toFixed(0)}% of client-node)`
        : '';
    console.log(
      `${r.mode.padEnd(20)} sync ${String(r.syncMs).padStart(6)} ms${vsRaw}   heap/object ${String(r.heapPerObject).padStart(6)} B${vsCn}`,
    );
  }
} finally {
  server.kill();
}
