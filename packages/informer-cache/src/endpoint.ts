// Where and how to reach one cluster's API server: URL, TLS material and auth headers, read from a client-node
// KubeConfig (which runs exec plugins, token files and OIDC refreshes for us). The HTTP itself is ours.
import type https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** TLS settings and credentials for one API server. */
export interface ClusterEndpoint {
  /** Base URL, e.g. `https://10.0.0.1:6443` (a path prefix is kept). */
  readonly server: string;
  /** Name used in accounting, metrics and errors. */
  readonly name: string;
  readonly tls: {
    readonly ca?: string | Buffer | undefined;
    readonly cert?: string | Buffer | undefined;
    readonly key?: string | Buffer | undefined;
    readonly rejectUnauthorized?: boolean | undefined;
    readonly servername?: string | undefined;
  };
  /** Auth headers for the next request (Authorization, Impersonate-User). Called per request; cache inside. */
  headers(): Promise<Readonly<Record<string, string>>>;
  /** Drops cached credentials, after a 401, so the next `headers()` fetches fresh ones. */
  invalidate?(): void;
}

export interface KubeConfigEndpointOptions {
  /** The name to report; defaults to the kubeconfig's current cluster name. */
  readonly name?: string;
  /** How long auth headers are reused before the kubeconfig is asked again (token files, exec plugins). */
  readonly credentialTtlMs?: number;
}

/** Builds a ClusterEndpoint from the current context of a KubeConfig. */
export async function endpointFromKubeConfig(
  kc: KubeConfig,
  options: KubeConfigEndpointOptions = {},
): Promise<ClusterEndpoint> {
  const cluster = kc.getCurrentCluster();
  if (cluster === null) {
    throw new Error(
      `kubeconfig has no cluster for current context "${kc.getCurrentContext()}": set current-context to a context whose cluster exists`,
    );
  }
  if (cluster.proxyUrl !== undefined && cluster.proxyUrl !== '') {
    throw new Error(
      `cluster "${cluster.name}" uses proxy-url, which @warmstart/informer-cache does not support yet`,
    );
  }
  const first = await applied(kc);
  const ttl = options.credentialTtlMs ?? 30_000;
  let cached: { headers: Record<string, string>; at: number } | undefined = {
    headers: first.headers,
    at: Date.now(),
  };
  return {
    server: cluster.server.replace(/\/+$/, ''),
    name: options.name ?? cluster.name,
    tls: {
      ca: first.options.ca as string | Buffer | undefined,
      cert: first.options.cert as string | Buffer | undefined,
      key: first.options.key as string | Buffer | undefined,
      rejectUnauthorized: first.options.rejectUnauthorized,
      servername: first.options.servername ?? undefined,
    },
    async headers() {
      if (cached === undefined || Date.now() - cached.at > ttl) {
        cached = { headers: (await applied(kc)).headers, at: Date.now() };
      }
      return cached.headers;
    },
    invalidate() {
      cached = undefined;
    },
  };
}

async function applied(
  kc: KubeConfig,
): Promise<{ options: https.RequestOptions; headers: Record<string, string> }> {
  const options: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(options);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  if (typeof options.auth === 'string' && options.auth !== '' && headers.Authorization === undefined) {
    headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  }
  return { options, headers };
}
