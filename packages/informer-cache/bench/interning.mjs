// Heap and CPU per cached object with and without string interning, on the four objects a multi-cluster
// controller manager caches per workload: the template Deployment, its ResourceBinding, its Work and the member
// cluster's Deployment (fixtures/, taken from a propagated workload). Each copy gets its own names and uids, as
// real objects have. Usage: node --expose-gc bench/interning.mjs [copies]   (after the package's build)
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { StringInterner } from '../dist/string-interner.js';
import { defaultTransform, freezeDeep } from '../dist/transform.js';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const copies = Number(process.argv[2] ?? 20_000);
const UID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const fullGc = () => {
  for (let i = 0; i < 4; i++) globalThis.gc();
};

/** The fixture's text `copies` times, each with its own workload name, uids and resourceVersion, off the heap. */
function texts(fixture) {
  // Compact, as an API server sends it.
  const base = JSON.stringify(
    JSON.parse(readFileSync(new URL(`./fixtures/${fixture}.json`, import.meta.url), 'utf8')),
  );
  const uids = [...new Set(base.match(UID) ?? [])];
  const out = [];
  for (let i = 0; i < copies; i++) {
    let t = base.replaceAll('wl-000000', `wl-${String(i).padStart(6, '0')}`);
    for (const u of uids) t = t.replaceAll(u, randomUUID());
    out.push(Buffer.from(t.replace(/"resourceVersion":"\d+"/, `"resourceVersion":"${1_000_000 + i}"`)));
  }
  return out;
}

function measure(buffers, interner) {
  fullGc();
  const before = process.memoryUsage().heapUsed;
  const kept = [];
  let cpuUs = 0;
  for (const b of buffers) {
    const parsed = JSON.parse(b.toString());
    const t0 = process.cpuUsage();
    kept.push(freezeDeep(defaultTransform(parsed), interner));
    const d = process.cpuUsage(t0);
    cpuUs += d.user + d.system;
  }
  fullGc();
  const bytes = (process.memoryUsage().heapUsed - before) / kept.length;
  return { bytes: Math.round(bytes), cpuUs: cpuUs / kept.length, kept };
}

console.log(`copies: ${copies} of each object`);
console.log('object       JSON    heap, no interning   heap, interned   transform+intern+freeze CPU');
const total = { json: 0, none: 0, interned: 0 };
for (const fixture of ['template', 'binding', 'work', 'member']) {
  const buffers = texts(fixture);
  const json = buffers[0].length;
  const none = measure(buffers, undefined);
  none.kept.length = 0;
  const interned = measure(buffers, new StringInterner());
  interned.kept.length = 0;
  total.json += json;
  total.none += none.bytes;
  total.interned += interned.bytes;
  console.log(
    `${fixture.padEnd(10)} ${String(json).padStart(6)} B ${String(none.bytes).padStart(12)} B ${String(interned.bytes).padStart(15)} B   ${none.cpuUs.toFixed(1)} / ${interned.cpuUs.toFixed(1)} µs`,
  );
}
console.log(
  `${'per workload'.padEnd(10)} ${String(total.json).padStart(4)} B ${String(total.none).padStart(12)} B ${String(total.interned).padStart(15)} B`,
);
