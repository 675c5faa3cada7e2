// Where and how to reach one cluster's API server: URL, TLS material and auth headers, read from a client-node
// KubeConfig (which runs exec plugins, token files and OIDC refreshes for us). The HTTP itself is ours.
import { readFileSync } from 'node:fs';
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

/**
 * Builds a ClusterEndpoint from the current context of a KubeConfig. TLS material is read now; credentials are
 * asked of the KubeConfig per request (cached for `credentialTtlMs`), so rotating tokens, token files and exec
 * plugins keep working. Not supported: proxy-url, and client certificates that only an exec plugin supplies.
 */
export function endpointFromKubeConfig(
  kc: KubeConfig,
  options: KubeConfigEndpointOptions = {},
): ClusterEndpoint {
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
  const user = kc.getCurrentUser();
  const ttl = options.credentialTtlMs ?? 30_000;
  let cached: { headers: Record<string, string>; at: number } | undefined;
  return {
    server: cluster.server.replace(/\/+$/, ''),
    name: options.name ?? cluster.name,
    tls: {
      ca: fileOrData(cluster.caFile, cluster.caData),
      cert: fileOrData(user?.certFile, user?.certData),
      key: fileOrData(user?.keyFile, user?.keyData),
      rejectUnauthorized: cluster.skipTLSVerify ? false : undefined,
      servername: cluster.tlsServerName,
    },
    async headers() {
      if (cached === undefined || Date.now() - cached.at > ttl) {
        cached = { headers: await authHeaders(kc), at: Date.now() };
      }
      return cached.headers;
    },
    invalidate() {
      cached = undefined;
    },
  };
}

function fileOrData(file: string | undefined, data: string | undefined): Buffer | undefined {
  if (file !== undefined && file !== '') return readFileSync(file);
  if (data !== undefined && data !== '') return Buffer.from(data, 'base64');
  return undefined;
}

async function authHeaders(kc: KubeConfig): Promise<Record<string, string>> {
  const options: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(options);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  if (typeof options.auth === 'string' && options.auth !== '' && headers.Authorization === undefined) {
    headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  }
  return headers;
}
