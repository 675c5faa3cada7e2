// A client identity of its own for one manager replica (or one least-privilege run): a certificate signed by
// the set's CA with its own username, and a kubeconfig for it. Two replicas with two users are two writers
// the API server's audit log can tell apart, which one shared manager user cannot.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeKubeconfig } from '../cluster/kubeconfig.js';
import { MANAGER_GROUP } from '../cluster/local-provider.js';
import { createClientCert } from '../cluster/pki.js';
import type { ClusterInfo, ClusterSet } from '../cluster/provider.js';

export interface ClientIdentity {
  /** The username the API server sees (the certificate's CN). */
  readonly user: string;
  readonly kubeconfig: string;
}

export interface MintOptions {
  /** Groups (O entries). Default: the manager group, which a `cluster-admin` set binds to cluster-admin. */
  readonly groups?: readonly string[] | undefined;
  /** The kubeconfig's server, e.g. a proxy in front of the cluster's API server. Default: the cluster's. */
  readonly server?: string | undefined;
}

/**
 * Signs a client certificate for `user` with the CA a local set keeps in its work directory, and writes a
 * kubeconfig for it against `cluster`.
 */
export async function mintIdentity(
  set: Pick<ClusterSet, 'workDir'>,
  cluster: ClusterInfo,
  user: string,
  options: MintOptions = {},
): Promise<ClientIdentity> {
  const dir = join(set.workDir, 'identities');
  await mkdir(dir, { recursive: true });
  const ca = { cert: join(set.workDir, 'ca.crt'), key: join(set.workDir, 'ca.key') };
  const pair = await createClientCert(dir, ca, user, options.groups ?? [MANAGER_GROUP]);
  const kubeconfig = await writeKubeconfig({
    path: join(dir, `${cluster.name}-${user}.kubeconfig`),
    name: cluster.name,
    server: options.server ?? cluster.server,
    caPath: cluster.caPath,
    user,
    certPath: pair.cert,
    keyPath: pair.key,
  });
  return { user, kubeconfig };
}
