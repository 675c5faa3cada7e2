// The API servers of the heap-fill benchmark, in their own process: a host (the manager's three big kinds:
// Deployments, ResourceBindings, Works) and a member (its Deployments), each the in-process fake kube-apiserver of
// @warmstart/informer-cache/testing, filled from one real object per kind (fixtures/heap-fill, taken from a 100k
// restart run) made unique per workload. It serves WatchList as kube-apiserver does, so the informer child parses,
// transforms, interns and freezes exactly as the manager does; serving is CPU work here too, as it is there.
// The parent talks to it over IPC: it answers { ready } once filled, and on { churn } replaces objects at a rate.
//
// Usage (the parent runs it): node --conditions=@warmstart/source --import tsx heap-fill-server.ts <per kind>
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

const perKind = Number(process.argv[2]);
if (!Number.isInteger(perKind) || perKind < 1)
  throw new Error('usage: heap-fill-server.ts <objects per kind>');
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

const host = await FakeApiServer.start();
const member = await FakeApiServer.start();
const kinds = servedKinds.map((k) => ({
  ...k,
  server: k.cluster === 'host' ? host : member,
  text: fixtureText(k.kind),
}));
for (const k of kinds) k.server.addResource(k.gvr);

const started = performance.now();
let done = 0;
for (const k of kinds) {
  for (let i = 0; i < perKind; i++) {
    k.server.create(k.gvr, instance(k.text, i));
    if (++done % 50_000 === 0) {
      const s = (performance.now() - started) / 1000;
      process.stderr.write(
        `[heap-fill server] ${done}/${perKind * kinds.length} objects, ${Math.round(done / s)}/s\n`,
      );
      // Let the event loop breathe so the parent's IPC is not starved while filling.
      await new Promise((r) => setImmediate(r));
    }
  }
}

send({
  type: 'ready',
  host: host.kubeConfigYaml('host'),
  member: member.kubeConfigYaml('member'),
});

/** Replaces `perSecond` objects a second, spread over the kinds, for `seconds`; answers how many it replaced. */
async function churn(seconds: number, perSecond: number): Promise<void> {
  const until = performance.now() + seconds * 1000;
  const tickMs = 50;
  const perTick = Math.max(1, Math.round((perSecond * tickMs) / 1000));
  let n = 0;
  while (performance.now() < until) {
    for (let c = 0; c < perTick; c++, n++) {
      const k = kinds[n % kinds.length];
      if (k === undefined) continue;
      const i = (n * 7919) % perKind;
      const object = instance(k.text, i);
      // A label stands in for the status changes the manager's writes and the members' controllers cause.
      const changed = {
        ...object,
        metadata: { ...object.metadata, labels: { ...object.metadata.labels, churn: String(n) } },
      };
      k.server.update(k.gvr, changed);
    }
    await new Promise((r) => setTimeout(r, tickMs));
  }
  send({ type: 'churned', objects: n });
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'churn') void churn(message.seconds, message.perSecond);
  else if (message.type === 'stop')
    void Promise.all([host.close(), member.close()]).then(() => process.exit(0));
});
