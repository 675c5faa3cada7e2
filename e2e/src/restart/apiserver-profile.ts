// A Go CPU profile of a kube-apiserver over a window of a benchmark. The first propagation is bound by the host
// API server's CPU (issue #16); the profile says which of its handlers, its garbage collector or its watch fan-out
// take it, so a change to what the manager writes can be judged by what it saves there.
import { createWriteStream, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { pipeline } from 'node:stream/promises';
import type { TlsIdentity } from '../cluster/admin-client.js';

export class ApiserverProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApiserverProfileError';
  }
}

/**
 * Writes a `seconds`-long CPU profile (pprof format, for `go tool pprof`) of the API server `id` names to `path`.
 * The server must run with `--profiling=true` and `id` may read `/debug/pprof` (system:masters can).
 */
export async function fetchCpuProfile(
  id: TlsIdentity,
  seconds: number,
  path: string,
  signal?: AbortSignal,
): Promise<void> {
  if (!Number.isInteger(seconds) || seconds < 1)
    throw new ApiserverProfileError(`a CPU profile takes a whole number of seconds, not ${seconds}`);
  const url = new URL(`/debug/pprof/profile?seconds=${seconds}`, id.server);
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, {
      ca: readFileSync(id.caPath),
      cert: id.certPem ?? readFileSync(id.certPath),
      key: id.keyPem ?? readFileSync(id.keyPath),
      signal,
      // The server answers only once the window is over.
      timeout: (seconds + 60) * 1000,
    });
    req.on('response', resolve);
    req.on('timeout', () =>
      req.destroy(new ApiserverProfileError(`GET ${url} got no answer in ${seconds + 60} s`)),
    );
    req.on('error', reject);
    req.end();
  });
  if (res.statusCode !== 200) {
    res.resume();
    throw new ApiserverProfileError(
      res.statusCode === 404
        ? `${id.server} serves no /debug/pprof: start kube-apiserver with --profiling=true`
        : `GET ${url} answered ${res.statusCode}; the identity needs access to /debug/pprof (system:masters has it)`,
    );
  }
  await pipeline(res, createWriteStream(path), { signal });
}
