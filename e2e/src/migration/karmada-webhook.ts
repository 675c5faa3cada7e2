// Karmada's own admission webhook (karmada-webhook), served on 127.0.0.1 with a certificate from a CA of its own,
// and registered for the mutations that shape Karmada's objects: the permanent-id labels of policies, bindings
// and Works, and the policy defaults and finalizers. Without them Karmada's controllers find every binding's
// Works under the same empty id and delete each other's as orphans. The validating webhooks are left out: they
// refuse bad input but change nothing that is written.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { adminRequest } from '../cluster/admin-client.js';
import { freePort } from '../cluster/local-provider.js';
import { createCa, createServingCert } from '../cluster/pki.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity } from '../karmada/join.js';
import { type KarmadaProcess, startKarmadaProcess } from './karmada-process.js';

const CONFIGURATION = 'karmada-migration-mutating';

/** Each mutating webhook of Karmada's artifacts/deploy/webhook-configuration.yaml that this load reaches. */
const MUTATIONS = [
  ['propagationpolicy', 'policy.karmada.io', 'propagationpolicies', 'Namespaced', ['CREATE', 'UPDATE']],
  [
    'clusterpropagationpolicy',
    'policy.karmada.io',
    'clusterpropagationpolicies',
    'Cluster',
    ['CREATE', 'UPDATE'],
  ],
  ['overridepolicy', 'policy.karmada.io', 'overridepolicies', 'Namespaced', ['CREATE', 'UPDATE']],
  ['resourcebinding', 'work.karmada.io', 'resourcebindings', 'Namespaced', ['CREATE']],
  ['clusterresourcebinding', 'work.karmada.io', 'clusterresourcebindings', 'Cluster', ['CREATE']],
  ['work', 'work.karmada.io', 'works', 'Namespaced', ['CREATE', 'UPDATE']],
] as const;

export interface KarmadaWebhook {
  readonly process: KarmadaProcess;
  /** Unregisters the webhook, then stops it (in that order, so no write meets a webhook that is gone). */
  remove(): Promise<void>;
}

export async function startKarmadaWebhook(
  host: ClusterInfo,
  binary: string,
  workDir: string,
): Promise<KarmadaWebhook> {
  const dir = join(workDir, 'karmada-webhook');
  await mkdir(dir, { recursive: true });
  const ca = await createCa(dir);
  await createServingCert(dir, ca, 'tls');
  const port = await freePort();
  const proc = startKarmadaProcess(
    'karmada-webhook',
    binary,
    [
      '--kubeconfig',
      host.adminKubeconfig,
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${dir}`,
      `--metrics-bind-address=127.0.0.1:${await freePort()}`,
      `--health-probe-bind-address=127.0.0.1:${await freePort()}`,
    ],
    join(workDir, 'karmada-webhook.log'),
  );
  await waitFor(
    'karmada-webhook to accept TLS connections',
    () =>
      new Promise<boolean>((resolve) => {
        if (proc.hasExited()) throw new Error(`karmada-webhook exited:\n${proc.tail()}`);
        const s = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
          s.end();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      }),
    { timeoutMs: 60_000, intervalMs: 250 },
  );
  const caBundle = (await readFile(ca.cert)).toString('base64');
  const id = adminIdentity(host);
  const res = await adminRequest(
    id,
    'POST',
    '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: CONFIGURATION },
      webhooks: MUTATIONS.map(([name, group, resource, scope, operations]) => ({
        name: `${name}.karmada.io`,
        rules: [{ operations, apiGroups: [group], apiVersions: ['*'], resources: [resource], scope }],
        clientConfig: { url: `https://127.0.0.1:${port}/mutate-${name}`, caBundle },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        timeoutSeconds: 10,
      })),
    },
  );
  if (res.status !== 201)
    throw new Error(`registering karmada-webhook: ${res.status} ${res.body.slice(0, 300)}`);
  return {
    process: proc,
    remove: async () => {
      await adminRequest(
        id,
        'DELETE',
        `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${CONFIGURATION}`,
      );
      await proc.stop();
    },
  };
}
