// Informer event handlers: they only turn events into queue keys (at LOW_PRIORITY for an informer's initial list,
// so a change made after a restart overtakes the start-up backlog) and never throw.
import type { ClusterPropagationPolicy, KubeObject, PropagationPolicy } from '@warmstart/api';
import {
  type KubeObject as CachedObject,
  type DeletedFinalStateUnknown,
  deletedObject,
  type Logger,
  type ResourceEventHandler,
} from '@warmstart/informer-cache';
import { LOW_PRIORITY } from '@warmstart/workqueue';
import { readClaim, type TemplateClaim } from './claim.js';
import { specificationChanged, templateEventFilter, templateUpdateAction } from './event-filter.js';
import { clusterWideKey, type TemplateKey } from './keys.js';
import type { PolicyKind } from './policy-kinds.js';
import { deprioritizedPeers } from './preemption.js';
import type { SpecChanges } from './spec-changes.js';

/** The name of every handler the detector registers (one detector per InformerManager). */
export const DETECTOR_HANDLER_NAME = 'resource-detector';

const priorityOf = (initial: boolean): number | undefined => (initial ? LOW_PRIORITY : undefined);

export interface TemplateHandlerOptions {
  readonly skippedNamespaces: readonly RegExp[];
  readonly enqueue: (key: TemplateKey, priority?: number) => void;
  /** Told of every template whose specification changed (or that newly passes the filter) while we run. */
  readonly specChanges: SpecChanges;
  /** Whether the policy named by the claim is Lazy; read from the cache. */
  readonly claimIsLazy: (claim: TemplateClaim) => Promise<boolean>;
  readonly logger: Logger;
}

/**
 * The handler of every template informer (OnAdd / OnUpdate / OnDelete behind the event filter). An update that
 * changed nothing but status and bookkeeping is dropped; one of a template claimed by a Lazy policy is flagged
 * when Karmada alone changed it, which needs the policy from the cache and so is enqueued a little later.
 */
export function templateHandler(options: TemplateHandlerOptions): ResourceEventHandler {
  const { skippedNamespaces, enqueue, specChanges, claimIsLazy, logger } = options;
  const passes = (o: CachedObject): boolean => templateEventFilter(o as KubeObject, skippedNamespaces);
  const key = (o: CachedObject, resourceChangeByKarmada: boolean): TemplateKey => ({
    ...clusterWideKey(o as KubeObject),
    resourceChangeByKarmada,
  });
  const guard = (what: string, fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      logger.error('resource detector event handler failed', { event: what, error: String(error) });
    }
  };

  const onAdd = (o: CachedObject, initial: boolean): void =>
    guard('add', () => {
      if (passes(o)) enqueue(key(o, false), priorityOf(initial));
    });
  const onDelete = (o: CachedObject | DeletedFinalStateUnknown): void =>
    guard('delete', () => {
      const last = deletedObject(o);
      if (passes(last)) enqueue(key(last, false));
    });

  return {
    name: DETECTOR_HANDLER_NAME,
    onAdd,
    onDelete,
    onUpdate: (old, next) =>
      guard('update', () => {
        const was = passes(old);
        const is = passes(next);
        // The filtering handler turns a change of the filter's verdict into an add or a delete.
        if (!was && is) {
          specChanges.record(clusterWideKey(next as KubeObject));
          return onAdd(next, false);
        }
        if (was && !is) return onDelete(old);
        if (!is || !specificationChanged(old, next)) return;
        specChanges.record(clusterWideKey(next as KubeObject));
        const claim = readClaim(next.metadata as KubeObject['metadata']);
        if (claim === undefined) return enqueue(key(next, false));
        claimIsLazy(claim).then(
          (lazy) =>
            guard('update', () => {
              const action = templateUpdateAction(old, next, lazy);
              if (action.enqueue) enqueue(key(next, action.resourceChangeByKarmada));
            }),
          (error: unknown) => {
            // Without the policy, take the change as the user's: the binding is synced, never skipped wrongly.
            logger.warn('could not read the claiming policy of a template', { error: String(error) });
            guard('update', () => enqueue(key(next, false)));
          },
        );
      }),
  };
}

export interface PolicyHandlerOptions {
  readonly kind: PolicyKind;
  readonly enqueue: (key: string, priority?: number) => void;
  /** When set (PolicyPreemption on), reads the peers that may preempt after a priority drop. */
  readonly peers?: (
    policy: PropagationPolicy | ClusterPropagationPolicy,
  ) => Promise<readonly (PropagationPolicy | ClusterPropagationPolicy)[]>;
  readonly logger: Logger;
}

/**
 * The handler of the PropagationPolicy or ClusterPropagationPolicy informer. No delete handler: deletion is
 * driven by the finalizer and deletionTimestamp. Updates that leave the generation alone (relists, label-only
 * changes such as the detector's own permanent id) are dropped, unless they set the deletionTimestamp.
 */
export function policyHandler(options: PolicyHandlerOptions): ResourceEventHandler {
  const { kind, enqueue, peers, logger } = options;
  const keyOf = (o: CachedObject): string =>
    kind === 'PropagationPolicy' ? `${o.metadata.namespace ?? ''}/${o.metadata.name}` : o.metadata.name;
  const guard = (fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      logger.error('policy event handler failed', { kind, error: String(error) });
    }
  };
  return {
    name: DETECTOR_HANDLER_NAME,
    onAdd: (o, initial) => guard(() => enqueue(keyOf(o), priorityOf(initial))),
    onUpdate: (old, next) =>
      guard(() => {
        const deleting = !old.metadata.deletionTimestamp && Boolean(next.metadata.deletionTimestamp);
        if (old.metadata.generation === next.metadata.generation && !deleting) return;
        const before = old as PropagationPolicy;
        const after = next as PropagationPolicy;
        const oldPriority = before.spec?.priority ?? 0;
        const newPriority = after.spec?.priority ?? 0;
        if (peers !== undefined && newPriority < oldPriority) {
          // Peers between the two priorities may now take what this policy holds: let them try, highest first.
          peers(after).then(
            (all) =>
              guard(() => {
                for (const peer of deprioritizedPeers(oldPriority, newPriority, all))
                  enqueue(keyOf(peer as CachedObject));
              }),
            (error: unknown) =>
              logger.warn('could not read peers of a deprioritized policy', { error: String(error) }),
          );
        }
        enqueue(keyOf(next));
      }),
  };
}

export interface BindingHandlerOptions {
  readonly enqueue: (key: TemplateKey, priority?: number) => void;
  readonly logger: Logger;
}

/**
 * The handler of the ResourceBinding and ClusterResourceBinding informers: a deleted binding re-queues the
 * template it pointed at. A template deleted and created again under the same name cannot be bound while its
 * predecessor's binding lingers (BindingOwnerMismatchError, retried with backoff); once that binding is gone
 * this binds the new template at once instead of after a backoff that may have grown to minutes.
 */
export function bindingHandler(options: BindingHandlerOptions): ResourceEventHandler {
  const { enqueue, logger } = options;
  return {
    name: DETECTOR_HANDLER_NAME,
    onDelete: (o) => {
      try {
        const binding = deletedObject(o) as {
          metadata: { namespace?: string };
          spec?: { resource?: { apiVersion?: string; kind?: string; namespace?: string; name?: string } };
        };
        const ref = binding.spec?.resource;
        if (!ref?.apiVersion || !ref.kind || !ref.name) return;
        const slash = ref.apiVersion.indexOf('/');
        enqueue({
          group: slash < 0 ? '' : ref.apiVersion.slice(0, slash),
          version: slash < 0 ? ref.apiVersion : ref.apiVersion.slice(slash + 1),
          kind: ref.kind,
          namespace: ref.namespace ?? binding.metadata.namespace ?? '',
          name: ref.name,
          resourceChangeByKarmada: false,
        });
      } catch (error) {
        logger.error('binding event handler failed', { error: String(error) });
      }
    },
  };
}
