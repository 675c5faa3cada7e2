// The Works of one member, looked at again when that member may have become usable: its Cluster's status changed
// (it turned Ready) or it (re)connected (its member caches are new). At low priority: right after a restart under
// gate-start this is every Work at once, and at default priority it held a change made meanwhile behind 50,000
// keys for more than ten minutes.
import { KarmadaResources } from '@warmstart/api';
import type { InformerManager } from '@warmstart/informer-cache';
import type { Controller } from '@warmstart/runtime';
import type { MemberRegistry } from '../members.js';
import { jsonEqual } from './json.js';

export function requeueWorksOfReadyMembers(
  controller: Controller,
  host: InformerManager,
  members: MemberRegistry,
): void {
  const worksOf = (cluster: string): string[] =>
    (host.informer(KarmadaResources.Work)?.lister.list({ namespace: `karmada-es-${cluster}` }) ?? []).map(
      (w) => `${w.metadata.namespace}/${w.metadata.name}`,
    );
  controller.watches(KarmadaResources.Cluster, (c) => worksOf(c.metadata.name), {
    lowPriority: true,
    predicates: {
      create: () => false,
      update: (o, n) => !jsonEqual(o.status, n.status),
      delete: () => false,
    },
  });
  members.onChange((name, member) => {
    if (member) void controller.enqueueAll(worksOf(name));
  });
}
