// The binding controller's view of override policies: their informers (registered up front with the others),
// the policies and clusters a Work build needs (read from those caches), and which bindings to requeue when a
// policy changes, as Karmada's binding controller does for OverridePolicy and ClusterOverridePolicy events.
import {
  type ClusterOverridePolicy,
  KarmadaResources,
  type OverridePolicy,
  type ResourceSelector,
} from '@warmstart/api';
import { resourceMatchesSelectors } from '@warmstart/detector';
import type { InformerManager, KubeObject, Reader } from '@warmstart/informer-cache';
import type { Controller } from '@warmstart/runtime';
import type { AnyBinding } from './binding-keys.js';
import { bindingKey } from './binding-keys.js';
import type { WorkOverrides } from './work-builder.js';

type AnyOverridePolicy = OverridePolicy | ClusterOverridePolicy;

/**
 * Watch both policy kinds; a change after the initial list requeues, at low priority, the bindings whose resource
 * the policy may select (those `keep` accepts: each binding controller takes its own kind). The initial list
 * needs no requeue: every binding is reconciled at start.
 */
export function watchOverridePolicies(
  controller: Controller,
  host: InformerManager,
  keep: (bindingKey: string) => boolean,
): void {
  const selected = (policy: Readonly<AnyOverridePolicy & KubeObject>): string[] => {
    const keys: string[] = [];
    for (const gvr of [KarmadaResources.ResourceBinding, KarmadaResources.ClusterResourceBinding]) {
      for (const b of host.informer(gvr)?.lister.list() ?? []) {
        const key = bindingKey(b);
        if (keep(key) && policyMaySelect(policy, b)) keys.push(key);
      }
    }
    return keys;
  };
  for (const gvr of [KarmadaResources.OverridePolicy, KarmadaResources.ClusterOverridePolicy]) {
    controller.watches(gvr, selected, {
      lowPriority: true,
      predicates: { create: (_o, initial) => !initial },
    });
  }
  host.forResource(KarmadaResources.Cluster);
}

// By apiVersion, kind, namespace and name only: the template's labels are not on the binding, so a label
// selector is taken to match (a needless reconcile writes nothing).
function policyMaySelect(policy: AnyOverridePolicy, binding: AnyBinding): boolean {
  const resource = binding.spec.resource;
  if (policy.kind === 'OverridePolicy' && policy.metadata.namespace !== resource.namespace) return false;
  const selectors: readonly ResourceSelector[] = policy.spec.resourceSelectors ?? [];
  if (selectors.length === 0) return true;
  const stub = {
    apiVersion: resource.apiVersion,
    kind: resource.kind,
    metadata: { name: resource.name, ...(resource.namespace ? { namespace: resource.namespace } : {}) },
  };
  const withoutLabels = selectors.map(({ labelSelector: _l, ...rest }) => rest);
  return resourceMatchesSelectors(stub, withoutLabels);
}

/** What a Work build needs to apply overrides, from the caches. */
export async function readOverrides(
  reader: Reader,
  namespace: string | undefined,
  signal: AbortSignal,
): Promise<WorkOverrides> {
  const clusterOverridePolicies = await reader.list(KarmadaResources.ClusterOverridePolicy, { signal });
  const overridePolicies = namespace
    ? await reader.list(KarmadaResources.OverridePolicy, { namespace, signal })
    : [];
  const clusters =
    clusterOverridePolicies.length + overridePolicies.length === 0
      ? []
      : await reader.list(KarmadaResources.Cluster, { signal });
  return {
    clusterOverridePolicies,
    overridePolicies,
    clusters: new Map(clusters.map((c) => [c.metadata.name ?? '', c])),
  };
}
