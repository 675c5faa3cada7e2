// The execution controller: applies each Work's manifests to its member cluster by server-side apply, deletes
// them when the Work goes, and keeps the Work's Applied condition. Member objects are read from the member's
// informer caches (registered the first time a kind is seen; the read waits for that cache). A manifest
// already applied at this Work generation is not applied again, so a restart rewrites nothing.
import {
  type Cluster,
  clusterNameFromExecutionNamespace,
  KarmadaResources,
  type UnstructuredObject,
  type Work,
} from '@warmstart/api';
import type { GroupVersionResource, KubeObject, KubeObjectInput, Lister } from '@warmstart/informer-cache';
import { Controller } from '@warmstart/runtime';
import type { ManagerContext } from '../context.js';
import type { Member, MemberRegistry } from '../members.js';
import { RestMapper } from '../rest-mapper.js';
import { conditionChanged, findCondition, setCondition } from './conditions.js';
import {
  appliedCondition,
  type ManifestOutcome,
  type ParsedManifest,
  parseErrorOutcome,
  parseManifests,
  planWorkDeletion,
  planWorkSync,
  skippedOutcome,
} from './execution.js';

export const EXECUTION_CONTROLLER = 'execution';
/** Stamped on member objects: the Work uid and generation they were last applied from. */
export const APPLIED_FROM_ANNOTATION = 'warmstart.io/applied-from-work';

type CachedWork = Work & KubeObject;

export function executionController(ctx: ManagerContext, members: MemberRegistry): Controller {
  const writer = ctx.manager.writer(EXECUTION_CONTROLLER);
  const mappers = new Map<string, RestMapper>();
  members.onChange((name) => mappers.delete(name));
  const mapperFor = (m: Member): RestMapper => {
    let mapper = mappers.get(m.name);
    if (!mapper) {
      mapper = new RestMapper(m.name, m.transport);
      mappers.set(m.name, mapper);
    }
    return mapper;
  };

  const controller: Controller = new Controller(ctx.manager, {
    name: EXECUTION_CONTROLLER,
    concurrency: ctx.options.concurrentWorkSyncs,
    reconcile: async (key, { signal }) => {
      const [namespace, name] = key.split('/') as [string, string];
      const work = await reader.get<CachedWork>(KarmadaResources.Work, { namespace, name }, { signal });
      if (!work) return;
      const clusterName = clusterNameFromExecutionNamespace(namespace);
      if (!clusterName) return;
      const cluster = await reader.get<Cluster & KubeObject>(KarmadaResources.Cluster, clusterName, {
        signal,
      });
      const member = members.get(clusterName);
      // Resolve every manifest's member cache first, so the pure planners can look objects up synchronously.
      const listers = new Map<number, { gvr: GroupVersionResource; lister: Lister }>();
      const resolveErrors: ManifestOutcome[] = [];
      if (member) {
        for (const parsed of parseManifests(work)) {
          if (!parsed.ok) continue;
          const m = parsed.manifest;
          try {
            const gvr = await mapperFor(member).resourceFor(m.group, m.version, m.kind, signal);
            listers.set(m.ordinal, { gvr, lister: await member.reader.lister(gvr, { signal }) });
          } catch (error) {
            resolveErrors.push({
              ordinal: m.ordinal,
              applied: false,
              message: error instanceof Error ? error.message : String(error),
            });
          }
        }
      }
      const lookup = (m: ParsedManifest): Readonly<UnstructuredObject> | undefined =>
        listers.get(m.ordinal)?.lister.get({ namespace: m.namespace, name: m.name }) as
          | Readonly<UnstructuredObject>
          | undefined;

      if (work.metadata.deletionTimestamp) {
        const plan = planWorkDeletion(work, cluster, lookup);
        if (plan.kind === 'blocked') throw new Error(plan.message);
        if (plan.kind !== 'cleanup') return;
        for (const c of plan.cleanups) {
          const target = listers.get(c.manifest.ordinal);
          if (!member || !target) continue;
          const objKey = { namespace: c.manifest.namespace, name: c.manifest.name };
          if (c.action === 'delete') {
            await member.writer
              .delete(target.gvr, objKey, { signal, propagationPolicy: c.propagationPolicy })
              .catch((e: { code?: number }) => {
                if (e.code !== 404) throw e;
              });
          } else if (c.action === 'strip-metadata') {
            const nulls = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, null]));
            await member.writer.patch(
              target.gvr,
              objKey,
              {
                type: 'merge',
                patch: { metadata: { labels: nulls(c.labels), annotations: nulls(c.annotations) } },
              },
              { signal },
            );
          }
        }
        if (plan.finalizers) {
          await writer.patch(
            KarmadaResources.Work,
            { namespace, name },
            {
              type: 'merge',
              patch: {
                metadata: { resourceVersion: work.metadata.resourceVersion, finalizers: plan.finalizers },
              },
            },
            { signal },
          );
        }
        return;
      }

      const plan = planWorkSync(work, cluster, lookup);
      if (plan.kind === 'cluster-not-ready') throw new Error(plan.message);
      if (plan.kind !== 'apply' || !member) return;
      const stamp = `${work.metadata.uid}/${work.metadata.generation ?? 0}`;
      const outcomes: ManifestOutcome[] = [...resolveErrors, ...plan.invalid.map(parseErrorOutcome)];
      for (const decision of plan.decisions) {
        if (decision.action === 'skip-conflict') {
          outcomes.push(skippedOutcome(decision));
          continue;
        }
        const target = listers.get(decision.manifest.ordinal);
        if (!target) continue; // its resolve error is already an outcome
        const current = lookup(decision.manifest);
        if (current?.metadata.annotations?.[APPLIED_FROM_ANNOTATION] === stamp) {
          outcomes.push({ ordinal: decision.manifest.ordinal, applied: true });
          continue;
        }
        const object = decision.manifest.object;
        const patch = {
          ...object,
          metadata: {
            ...object.metadata,
            annotations: { ...object.metadata.annotations, [APPLIED_FROM_ANNOTATION]: stamp },
          },
        } as unknown as KubeObjectInput;
        try {
          await member.writer.apply(target.gvr, patch, { signal, force: true });
          outcomes.push({ ordinal: decision.manifest.ordinal, applied: true });
        } catch (error) {
          outcomes.push({
            ordinal: decision.manifest.ordinal,
            applied: false,
            message: error instanceof Error ? error.message : String(error),
          });
        }
      }
      const next = appliedCondition(outcomes, work.metadata.generation);
      if (conditionChanged(findCondition(work.status?.conditions, next.type), next)) {
        const conditions = setCondition(
          work.status?.conditions,
          next,
          new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        );
        await writer.patchStatus(
          KarmadaResources.Work,
          { namespace, name },
          { type: 'merge', patch: { status: { conditions } } },
          { signal },
        );
      }
      if (next.status !== 'True') throw new Error(next.message);
    },
  });
  const { reader } = controller;
  const key = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;
  controller
    .for(KarmadaResources.Work, {
      predicates: {
        // Only spec or deletion changes need a new apply; status writes (ours) do not.
        update: (o, n) =>
          o.metadata.generation !== n.metadata.generation ||
          n.metadata.deletionTimestamp !== o.metadata.deletionTimestamp,
        // A Work's deletion is handled while its finalizer holds it (the update that set deletionTimestamp).
        delete: () => false,
      },
    })
    // A member whose status changed (it turned Ready): retry its Works, at low priority. Right after a restart
    // under gate-start this is every Work at once; at default priority it held a change made meanwhile behind
    // 50,000 keys for more than ten minutes.
    .watches(KarmadaResources.Cluster, (c) => worksOf(c.metadata.name), {
      lowPriority: true,
      predicates: {
        create: () => false,
        update: (o, n) => JSON.stringify(o.status) !== JSON.stringify(n.status),
        delete: () => false,
      },
    });
  function worksOf(cluster: string): string[] {
    const works = ctx.host
      .informer(KarmadaResources.Work)
      ?.lister.list({ namespace: `karmada-es-${cluster}` });
    return (works ?? []).map(key);
  }
  // A member that (re)connects: retry its Works, at low priority, as above.
  members.onChange((name, member) => {
    if (member) void controller.enqueueAll(worksOf(name));
  });
  return controller;
}
