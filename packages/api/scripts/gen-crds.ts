// Writes packages/api/crds/*.yaml from the CRDs defined in src/schema (run: pnpm --filter @warmstart/api gen:crds).
// Files that no longer correspond to a CRD are removed, so the directory always mirrors `crds`.
import { readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { crdFileName, crds, crdYaml } from '../src/crds.js';

const dir = fileURLToPath(new URL('../crds/', import.meta.url));
const wanted = new Map(crds.map((crd) => [crdFileName(crd), crdYaml(crd)]));

for (const file of await readdir(dir)) {
  if (file.endsWith('.yaml') && !wanted.has(file)) await rm(new URL(file, `file://${dir}`));
}
for (const [file, text] of wanted) {
  await writeFile(new URL(file, `file://${dir}`), text);
  process.stdout.write(`wrote crds/${file}\n`);
}
