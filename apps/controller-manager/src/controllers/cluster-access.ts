// Whether a Cluster says enough to reach its member: an apiEndpoint that parses as an http(s) URL, a secretRef,
// and a Secret with a token. Each problem is a value with a reason and a message a user can act on, which the
// cluster controller turns into Ready=False and a Warning Event (never a thrown TypeError and a retry loop).
import { type Cluster, Namespaces } from '@warmstart/api';
import type { MemberCredentials } from '../members.js';

/** Ready=False reasons for a Cluster that cannot be used as written; the fix is on the Cluster or its Secret. */
export const ClusterAccessReason = {
  InvalidAPIEndpoint: 'InvalidAPIEndpoint',
  MissingSecretRef: 'MissingSecretRef',
  SecretNotFound: 'SecretNotFound',
  InvalidSecret: 'InvalidSecret',
} as const;
export type ClusterAccessReason = (typeof ClusterAccessReason)[keyof typeof ClusterAccessReason];

export interface ClusterAccessProblem {
  readonly ok: false;
  readonly reason: ClusterAccessReason;
  readonly message: string;
}

export type SecretRefResult =
  | { readonly ok: true; readonly namespace: string; readonly name: string }
  | ClusterAccessProblem;

export type ClusterAccess =
  | { readonly ok: true; readonly credentials: MemberCredentials }
  | ClusterAccessProblem;

const problem = (reason: ClusterAccessReason, message: string): ClusterAccessProblem => ({
  ok: false,
  reason,
  message,
});

/** Why an apiEndpoint cannot be used, or undefined when it can. */
export function apiEndpointProblem(endpoint: string | undefined): string | undefined {
  if (endpoint === undefined || endpoint.trim() === '')
    return 'spec.apiEndpoint is empty; set it to the member API server URL, e.g. https://10.0.0.1:6443';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `spec.apiEndpoint "${endpoint}" is not a URL; set it to the member API server URL, e.g. https://10.0.0.1:6443`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `spec.apiEndpoint "${endpoint}" has scheme "${url.protocol.replace(/:$/, '')}"; use https:// (or http://)`;
  if (url.hostname === '') return `spec.apiEndpoint "${endpoint}" has no host`;
  return undefined;
}

/** The endpoint and Secret reference of a Cluster, checked before anything is read or dialled. */
export function clusterSecretRef(cluster: Readonly<Cluster>): SecretRefResult {
  const endpoint = apiEndpointProblem(cluster.spec?.apiEndpoint);
  if (endpoint !== undefined) return problem(ClusterAccessReason.InvalidAPIEndpoint, endpoint);
  const ref = cluster.spec.secretRef;
  if (!ref?.name)
    return problem(
      ClusterAccessReason.MissingSecretRef,
      `spec.secretRef is not set: the manager has no credentials for cluster ${cluster.metadata.name}; point it at a Secret with a "token" key (and "caBundle")`,
    );
  return { ok: true, namespace: ref.namespace || Namespaces.KarmadaCluster, name: ref.name };
}

/** The data of the Secret a Cluster points at (base64 values, as the API serves them). */
export interface SecretData {
  readonly data?: Readonly<Record<string, string>> | undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The credentials to reach a member, from its Cluster and Secret; or what is wrong with them. */
export function clusterAccess(
  cluster: Readonly<Cluster>,
  secret: Readonly<SecretData> | undefined,
): ClusterAccess {
  const ref = clusterSecretRef(cluster);
  if (!ref.ok) return ref;
  const where = `secret ${ref.namespace}/${ref.name}`;
  if (secret === undefined)
    return problem(
      ClusterAccessReason.SecretNotFound,
      `${where} does not exist; create it with a "token" key (and "caBundle"), or fix spec.secretRef`,
    );
  const token = secret.data?.token;
  if (!token) return problem(ClusterAccessReason.InvalidSecret, `${where} has no "token" key`);
  if (!BASE64.test(token))
    return problem(ClusterAccessReason.InvalidSecret, `${where}: the "token" value is not base64`);
  const caBundle = secret.data?.caBundle;
  if (caBundle !== undefined && !BASE64.test(caBundle))
    return problem(ClusterAccessReason.InvalidSecret, `${where}: the "caBundle" value is not base64`);
  const ca = caBundle ? Buffer.from(caBundle, 'base64').toString() : undefined;
  if (ca !== undefined && !ca.includes('-----BEGIN CERTIFICATE-----'))
    return problem(
      ClusterAccessReason.InvalidSecret,
      `${where}: "caBundle" holds no PEM certificate; store the member's CA certificate(s) there, or remove the key`,
    );
  return {
    ok: true,
    credentials: {
      server: cluster.spec.apiEndpoint as string,
      token: Buffer.from(token, 'base64').toString().trim(),
      caBundle: ca,
      insecureSkipTLSVerification: cluster.spec.insecureSkipTLSVerification === true,
    },
  };
}
