// Child process: a fake API server seeded with N Deployments; prints its kubeconfig on one line when ready.
// Kept out of the measured process so the server's own copies of the objects do not count as client heap.
import { FakeApiServer } from '../dist/testing/index.js';
import { deployment } from './deployment.mjs';

const count = Number(process.argv[2] ?? 20_000);
const watchCache = process.argv[3] !== 'no-watch-cache';
const server = await FakeApiServer.start({ objectsPerChunk: 50, watchCache });
const gvr = { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true, kind: 'Deployment' };
server.addResource(gvr);
for (let i = 0; i < count; i++) server.create(gvr, deployment(i));
process.stdout.write(`${server.kubeConfigYaml()}\n`);
