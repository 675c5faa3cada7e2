// A deliberate change of one workload's template around a restart: its replica count, set to a value the change
// before did not set, so the manager must write the binding, the Works and every member's Deployment again.
import { adminRequest } from '../cluster/admin-client.js';
import { waitFor } from '../cluster/wait.js';
import { adminIdentity } from '../karmada/join.js';
import { namespaceOf, workloadName } from '../load/workloads.js';
import type { LoadedSet } from './scenario.js';

export interface ReplicaChange {
  readonly namespace: string;
  readonly name: string;
  readonly replicas: number;
  /** When the template was patched (epoch ms, just before the request). */
  readonly at: number;
}

/**
 * Changes made so far by this process. The seed sets 1 to 5 replicas; these cycle through 7 to 16, so two changes
 * in a row never set the same value on one workload (an unchanged template would need no write and "propagate" at
 * once) as long as fewer than ten workloads take turns.
 */
let changes = 0;

/** Patches workload `index`'s replica count. */
export async function changeReplicas(set: LoadedSet, index: number): Promise<ReplicaChange> {
  const name = workloadName(index);
  const namespace = namespaceOf(index, set);
  const replicas = 7 + (changes++ % 10);
  const at = Date.now();
  const patch = await adminRequest(
    adminIdentity(set.host),
    'PATCH',
    `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`,
    { spec: { replicas } },
    undefined,
    'application/merge-patch+json',
  );
  if (patch.status !== 200)
    throw new Error(`patching ${namespace}/${name}: ${patch.status} ${patch.body.slice(0, 200)}`);
  return { namespace, name, replicas, at };
}

/** Waits until every member's Deployment has the change; returns when it saw that, in ms after `from`. */
export async function waitInEveryMember(
  set: LoadedSet,
  change: ReplicaChange,
  from: number,
  timeoutMs: number,
): Promise<number> {
  const { namespace, name, replicas } = change;
  return waitFor(
    `${namespace}/${name} with ${replicas} replicas in every member`,
    async () => {
      for (const m of set.members) {
        const res = await adminRequest(
          adminIdentity(m),
          'GET',
          `/apis/apps/v1/namespaces/${namespace}/deployments/${name}`,
        );
        if (
          res.status !== 200 ||
          (JSON.parse(res.body) as { spec: { replicas: number } }).spec.replicas !== replicas
        )
          return undefined;
      }
      return Date.now() - from;
    },
    { timeoutMs, intervalMs: 100 },
  );
}
