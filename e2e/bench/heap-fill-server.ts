// One API server of the heap-fill benchmark, in its own process: the in-process fake kube-apiserver of
// @warmstart/informer-cache/testing serving one of the manager's four big kinds per workload (host Deployments,
// ResourceBindings, Works; member Deployments), filled from one real object of that kind (fixtures/heap-fill, taken
// from a 100k restart run) made unique per workload. Where the 100k restart run keeps kube-apiserver's watch cache
// (Deployments, host and member) it serves WatchList; where the run turns it off (Works and ResourceBindings) it
// refuses WatchList and serves paged LISTs of 500, as kube-apiserver then does, so the informer process falls back,
// parses, transforms, interns and freezes exactly as the manager does there; serving is CPU work here too, as it is
// there. One process per kind, so one server's work does not hold up the others' responses.
// The parent talks to it over IPC: it answers { ready } once filled, and on { churn } replaces objects at a rate.
//
// Usage (the parent runs it): node --conditions=@warmstart/source --import tsx heap-fill-server.ts <kind> <count>
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '@warmstart/informer-cache';
import { FakeApiServer } from '@warmstart/informer-cache/testing';
import {
  type HeapFillKind,
  type ParentMessage,
  type ServerMessage,
  servedKinds,
} from './heap-fill-protocol.js';

const kindArg = process.argv[2];
const perKind = Number(process.argv[3]);
const served = servedKinds.find((k) => k.kind === kindArg);
if (served === undefined || !Number.isInteger(perKind) || perKind < 1)
  throw new Error(`usage: heap-fill-server.ts <${servedKinds.map((k) => k.kind).join('|')}> <objects>`);
const send = (message: ServerMessage) => process.send?.(message);
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'heap-fill');

/** The fixture as one line of JSON text, so each workload's copy is a few string replacements and one parse. */
function fixtureText(kind: HeapFillKind): string {
  return JSON.stringify(JSON.parse(readFileSync(join(fixtures, `${kind}.json`), 'utf8')));
}

const UID = /([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-[0-9a-f]{12}/g;

/**
 * Workload i's copy: its own name and namespace (100 namespaces, as the restart bench seeds), and every UID made
 * unique to it, so references to other objects intern no better than real ones would.
 */
function instance(text: string, i: number): KubeObject {
  const name = `wl-${String(i).padStart(6, '0')}`;
  const suffix = i.toString(16).padStart(12, '0');
  return JSON.parse(
    text
      .replaceAll('wl-000000', name)
      .replaceAll('"load-0"', `"load-${i % 100}"`)
      .replace(UID, (_m, a: string, b: string, c: string, d: string) => `${a}-${b}-${c}-${d}-${suffix}`),
  ) as KubeObject;
}

const gvr = served.gvr;
const server = await FakeApiServer.start({ watchList: served.watchCache, watchCache: served.watchCache });
server.addResource(gvr);
const text = fixtureText(served.kind);
const started = performance.now();
for (let i = 0; i < perKind; i++) {
  server.create(gvr, instance(text, i));
  if ((i + 1) % 50_000 === 0) {
    const s = (performance.now() - started) / 1000;
    process.stderr.write(
      `[heap-fill server ${served.kind}] ${i + 1}/${perKind} objects, ${Math.round((i + 1) / s)}/s\n`,
    );
    // Let the event loop breathe so the parent's IPC is not starved while filling.
    await new Promise((r) => setImmediate(r));
  }
}
send({ type: 'ready', kubeconfig: server.kubeConfigYaml(served.cluster) });

/** Replaces `perSecond` objects a second for `seconds`. */
async function churn(seconds: number, perSecond: number): Promise<void> {
  const until = performance.now() + seconds * 1000;
  const tickMs = 50;
  const perTick = Math.max(1, Math.round((perSecond * tickMs) / 1000));
  let n = 0;
  while (performance.now() < until) {
    for (let c = 0; c < perTick; c++, n++) {
      const object = instance(text, (n * 7919) % perKind);
      // A label stands in for the status changes the manager's writes and the members' controllers cause.
      const labels = { ...object.metadata.labels, churn: String(n) };
      server.update(gvr, { ...object, metadata: { ...object.metadata, labels } });
    }
    await new Promise((r) => setTimeout(r, tickMs));
  }
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'churn') void churn(message.seconds, message.perSecond);
  else if (message.type === 'stop') void server.close().then(() => process.exit(0));
});
