// Loads a ClusterEndpoint straight from a kubeconfig file or the in-cluster service account, without
// @kubernetes/client-node. Why: client-node's module graph takes most of a second to evaluate, during which the
// event loop answers nothing, so a manager that imports it first cannot be live within a second. Static
// credentials (client certificates, tokens, token files) are handled here; a kubeconfig whose user needs an
// exec plugin or an auth provider returns `undefined`, and the caller falls back to client-node.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import type { ClusterEndpoint } from './endpoint.js';

export class KubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeconfigError';
  }
}

interface NamedCluster {
  readonly name: string;
  readonly cluster: {
    readonly server?: string;
    readonly 'certificate-authority'?: string;
    readonly 'certificate-authority-data'?: string;
    readonly 'insecure-skip-tls-verify'?: boolean;
    readonly 'tls-server-name'?: string;
    readonly 'proxy-url'?: string;
  };
}

interface NamedUser {
  readonly name: string;
  readonly user?: {
    readonly 'client-certificate'?: string;
    readonly 'client-certificate-data'?: string;
    readonly 'client-key'?: string;
    readonly 'client-key-data'?: string;
    readonly token?: string;
    readonly tokenFile?: string;
    readonly exec?: unknown;
    readonly 'auth-provider'?: unknown;
    readonly username?: string;
    readonly password?: string;
  };
}

interface KubeconfigDocument {
  readonly 'current-context'?: string;
  readonly clusters?: readonly NamedCluster[];
  readonly users?: readonly NamedUser[];
  readonly contexts?: readonly {
    readonly name: string;
    readonly context: { readonly cluster: string; readonly user?: string };
  }[];
}

export interface StaticEndpointOptions {
  /** The kubeconfig path; default: $KUBECONFIG (first entry), then ~/.kube/config, then in-cluster. */
  readonly path?: string | undefined;
  /** The name to report in accounting and metrics; default: the kubeconfig's cluster name. */
  readonly name?: string | undefined;
}

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

function candidates(path: string | undefined): string[] {
  if (path) return [path];
  const env = process.env.KUBECONFIG?.split(':').filter(Boolean) ?? [];
  return env.length > 0 ? [env[0]!] : [join(homedir(), '.kube', 'config')];
}

function readMaybe(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A ClusterEndpoint for static credentials, or undefined when the kubeconfig's user needs an exec plugin or an
 * auth provider (use endpointFromKubeConfig with client-node then). Throws KubeconfigError on a broken file.
 */
export function staticEndpoint(options: StaticEndpointOptions = {}): ClusterEndpoint | undefined {
  for (const path of candidates(options.path)) {
    const text = readMaybe(path);
    if (text === undefined) {
      if (options.path) throw new KubeconfigError(`cannot read kubeconfig ${path}: check --kubeconfig`);
      continue;
    }
    return fromDocument(parse(text) as KubeconfigDocument, dirname(path), options.name);
  }
  return inCluster(options.name);
}

function fromDocument(
  doc: KubeconfigDocument,
  base: string,
  name: string | undefined,
): ClusterEndpoint | undefined {
  const contextName = doc['current-context'];
  const context = doc.contexts?.find((c) => c.name === contextName)?.context;
  if (!context)
    throw new KubeconfigError(`kubeconfig has no context "${contextName ?? ''}": set current-context`);
  const cluster = doc.clusters?.find((c) => c.name === context.cluster);
  if (!cluster?.cluster.server)
    throw new KubeconfigError(`kubeconfig has no server for cluster "${context.cluster}"`);
  if (cluster.cluster['proxy-url']) return undefined;
  const user = doc.users?.find((u) => u.name === context.user)?.user ?? {};
  if (user.exec !== undefined || user['auth-provider'] !== undefined) return undefined;
  const file = (p: string | undefined): Buffer | undefined =>
    p ? readFileSync(isAbsolute(p) ? p : join(base, p)) : undefined;
  const data = (d: string | undefined): Buffer | undefined => (d ? Buffer.from(d, 'base64') : undefined);
  const c = cluster.cluster;
  const tokenFile = user.tokenFile
    ? isAbsolute(user.tokenFile)
      ? user.tokenFile
      : join(base, user.tokenFile)
    : undefined;
  const basic =
    user.username !== undefined
      ? Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64')
      : undefined;
  return {
    server: c.server!.replace(/\/+$/, ''),
    name: name ?? cluster.name,
    tls: {
      ca: data(c['certificate-authority-data']) ?? file(c['certificate-authority']),
      cert: data(user['client-certificate-data']) ?? file(user['client-certificate']),
      key: data(user['client-key-data']) ?? file(user['client-key']),
      rejectUnauthorized: c['insecure-skip-tls-verify'] ? false : undefined,
      servername: c['tls-server-name'],
    },
    headers: tokenHeaders(user.token, tokenFile, basic),
  };
}

function inCluster(name: string | undefined): ClusterEndpoint | undefined {
  const host = process.env.KUBERNETES_SERVICE_HOST;
  const port = process.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) {
    throw new KubeconfigError(
      'no kubeconfig found ($KUBECONFIG, ~/.kube/config) and not running in a cluster: pass --kubeconfig',
    );
  }
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    server,
    name: name ?? 'in-cluster',
    tls: { ca: readFileSync(`${SA_DIR}/ca.crt`) },
    headers: tokenHeaders(undefined, `${SA_DIR}/token`, undefined),
  };
}

/** Bearer token headers; a token file is re-read every minute, since projected tokens rotate. */
function tokenHeaders(
  token: string | undefined,
  tokenFile: string | undefined,
  basic: string | undefined,
): () => Promise<Record<string, string>> {
  let cached: { value: string; at: number } | undefined;
  return async () => {
    if (token) return { authorization: `Bearer ${token}` };
    if (tokenFile) {
      if (!cached || Date.now() - cached.at > 60_000)
        cached = { value: readFileSync(tokenFile, 'utf8').trim(), at: Date.now() };
      return { authorization: `Bearer ${cached.value}` };
    }
    if (basic) return { authorization: `Basic ${basic}` };
    return {};
  };
}
