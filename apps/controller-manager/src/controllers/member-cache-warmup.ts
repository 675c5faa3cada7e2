// Member caches started from what the host caches already say, on every replica, leading or not. The execution
// and work status controllers open a member informer the first time a Work needs its kind, and that read waits
// for the member's initial list. After a restart that list started only when the Work cache had synced, and
// after a fail-over only once the standby led: a change made then waited seconds for member caches the process
// could have listed while it was syncing the host or standing by (issue #16: "member informers registered late").
//
// So, as soon as the small host caches (Clusters, their Secrets, the propagation policies) have synced, each
// usable Cluster's member is built and informers are opened for every kind a policy selects; once the Work
// cache has synced, for every kind a Work of that cluster holds too. Nothing here writes, and nothing reads the
// host API server: only informers' lists and watches of the members, which the leader needs anyway.
import {
  BuiltinResources,
  type Cluster,
  type ClusterPropagationPolicy,
  KarmadaResources,
  type PropagationPolicy,
  type Work,
} from '@warmstart/api';
import { type KubeObject, resource, type SharedInformer } from '@warmstart/informer-cache';
import type { Runnable } from '@warmstart/runtime';
import { yieldIfBusy } from '@warmstart/workqueue';
import type { ManagerContext } from '../context.js';
import type { Logger } from '../logger.js';
import type { Member, MemberRegistry } from '../members.js';
import { clusterAccess, clusterSecretRef, type SecretData } from './cluster-access.js';
import { parseGroupVersion } from './execution.js';

/** A kind by its apiVersion and kind, as policies and manifests name it. */
interface KindRef {
  readonly apiVersion: string;
  readonly kind: string;
}

const kindKey = (k: KindRef): string => `${k.apiVersion}/${k.kind}`;

/** The kinds the policies select: each may be propagated to any member. */
export function policyKinds(policies: Iterable<Readonly<Pick<PropagationPolicy, 'spec'>>>): KindRef[] {
  const kinds = new Map<string, KindRef>();
  for (const p of policies)
    for (const s of p.spec?.resourceSelectors ?? [])
      if (s.apiVersion && s.kind) kinds.set(kindKey(s), { apiVersion: s.apiVersion, kind: s.kind });
  return [...kinds.values()];
}

/** The kinds the given Works hold in their manifests (unparseable manifests are the execution controller's). */
export function workKinds(works: Iterable<Readonly<Work>>): KindRef[] {
  const kinds = new Map<string, KindRef>();
  for (const w of works)
    for (const m of w.spec?.workload?.manifests ?? []) {
      if (typeof m !== 'object' || m === null) continue;
      const { apiVersion, kind } = m as { apiVersion?: unknown; kind?: unknown };
      if (typeof apiVersion === 'string' && typeof kind === 'string' && apiVersion && kind)
        kinds.set(kindKey({ apiVersion, kind }), { apiVersion, kind });
    }
  return [...kinds.values()];
}

/** How many Works one slice of `workKindsInSlices` looks at before it checks the event loop's turn. */
const WORKS_PER_SLICE = 512;

/**
 * workKinds over many Works, giving the event loop its turn between slices: this runs the moment the Work cache
 * syncs, and one pass over 50,000 Works held the loop for ~25 ms of a 188 ms stall (issue #16).
 */
export async function workKindsInSlices(works: readonly Readonly<Work>[]): Promise<KindRef[]> {
  const kinds = new Map<string, KindRef>();
  for (let from = 0; from < works.length; from += WORKS_PER_SLICE) {
    for (const k of workKinds(works.slice(from, from + WORKS_PER_SLICE))) kinds.set(kindKey(k), k);
    await yieldIfBusy();
  }
  return [...kinds.values()];
}

interface SecretObject extends KubeObject, SecretData {}

/**
 * The warm-up, to run with the caches (whether or not this replica leads). Built after the controllers: it uses
 * the host informers they registered (the Secret informer is the cluster controller's, limited to the Clusters'
 * namespace) and is a no-op when the controllers that would use member caches are not enabled.
 */
export function memberCacheWarmup(ctx: ManagerContext, members: MemberRegistry): Runnable {
  const { host, log } = ctx;
  const clusters = host.informer(KarmadaResources.Cluster);
  const secrets = host.informer(resource<SecretObject>(BuiltinResources.Secret));
  const works = host.informer(KarmadaResources.Work);
  if (!clusters || !secrets || !works) return { name: 'member-cache-warmup', start: () => undefined };
  const policies: readonly (SharedInformer<PropagationPolicy> | SharedInformer<ClusterPropagationPolicy>)[] =
    [
      host.informer(KarmadaResources.PropagationPolicy),
      host.informer(KarmadaResources.ClusterPropagationPolicy),
    ].filter((p) => p !== undefined);
  return warmup({ clusters, secrets, works, policies }, members, log);
}

interface HostCaches {
  readonly clusters: SharedInformer<Cluster>;
  readonly secrets: SharedInformer<SecretObject>;
  readonly works: SharedInformer<Work>;
  readonly policies: readonly (
    | SharedInformer<PropagationPolicy>
    | SharedInformer<ClusterPropagationPolicy>
  )[];
}

function warmup(caches: HostCaches, members: MemberRegistry, log: Logger): Runnable {
  const { clusters, secrets, works, policies } = caches;

  const synced = (
    informers: readonly Pick<SharedInformer, 'waitForSync'>[],
    signal: AbortSignal,
  ): Promise<unknown> => Promise.all(informers.map((i) => i.waitForSync({ signal })));

  /** The member of every Cluster whose access is usable now, built (or reused) as the cluster controller would. */
  async function usableMembers(): Promise<Member[]> {
    const out: Member[] = [];
    for (const cluster of clusters.lister.list()) {
      if (cluster.metadata.deletionTimestamp) continue;
      const ref = clusterSecretRef(cluster);
      if (!ref.ok) continue;
      const access = clusterAccess(cluster, secrets.lister.get({ namespace: ref.namespace, name: ref.name }));
      if (!access.ok) continue;
      out.push(await members.ensure(cluster.metadata.name, access.credentials));
    }
    return out;
  }

  async function open(member: Member, kinds: readonly KindRef[], signal: AbortSignal): Promise<number> {
    let opened = 0;
    for (const k of kinds) {
      const gv = parseGroupVersion(k.apiVersion);
      if (!gv) continue;
      try {
        const gvr = await member.mapper.resourceFor(gv.group, gv.version, k.kind, signal);
        if (member.informers.informer(gvr) !== undefined) continue;
        member.informers.forResource(gvr);
        opened++;
      } catch (error) {
        // A kind the member does not serve (yet): the Work that needs it reports that, not the warm-up.
        if (signal.aborted) throw error;
        log.debug({ cluster: member.name, kind: kindKey(k), err: String(error) }, 'member kind not warmed');
      }
    }
    return opened;
  }

  async function warm(signal: AbortSignal): Promise<void> {
    await synced([clusters, secrets, ...policies], signal);
    const selected = policyKinds(
      policies.flatMap((p): readonly Readonly<Pick<PropagationPolicy, 'spec'>>[] => p.lister.list()),
    );
    for (const member of await usableMembers()) {
      const opened = await open(member, selected, signal);
      if (opened > 0)
        log.info({ cluster: member.name, informers: opened }, 'member caches warming (policy kinds)');
    }
    await synced([works], signal);
    for (const member of await usableMembers()) {
      const held = await workKindsInSlices(works.lister.list({ namespace: `karmada-es-${member.name}` }));
      const opened = await open(member, held, signal);
      if (opened > 0)
        log.info({ cluster: member.name, informers: opened }, 'member caches warming (Work kinds)');
    }
  }

  return {
    name: 'member-cache-warmup',
    start: (signal) => {
      void warm(signal).catch((error: unknown) => {
        if (signal.aborted) return;
        // The controllers still open every informer they need on first use; only the head start is lost.
        log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'member cache warm-up failed',
        );
      });
    },
  };
}
