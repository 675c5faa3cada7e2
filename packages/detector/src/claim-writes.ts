// Writes of claim metadata on templates and bindings, as merge patches of only the keys that change, each
// conditional on the resourceVersion the decision was made from: if the object changed meanwhile (another policy
// claimed it, a user edited it), the API server answers 409 and the reconcile runs again on fresh cache state.
import {
  bindingName,
  type GroupVersionResource,
  KarmadaResources,
  type ObjectMeta,
  type UnstructuredObject,
} from '@warmstart/api';
import { unclaimChange } from './claim.js';
import type { DetectorCache } from './detector-cache.js';
import type { MetadataChange } from './metadata-change.js';
import { metadataMergePatch } from './metadata-patch.js';
import type { ClaimingPolicy } from './policy-choice.js';
import type { DetectorWriteClient } from './write-client.js';

interface Patchable {
  readonly metadata: ObjectMeta;
}

/**
 * Applies `change` to the labels and annotations of `object` with a merge patch conditional on its
 * resourceVersion. Returns what the server stored, or undefined when there was nothing to change.
 */
export async function patchMetadata<T>(
  writer: DetectorWriteClient,
  gvr: GroupVersionResource,
  object: Patchable,
  change: MetadataChange,
  signal: AbortSignal,
): Promise<T | undefined> {
  const patch = metadataMergePatch(object.metadata, change, object.metadata.resourceVersion);
  if (patch === undefined) return undefined;
  const key = { namespace: object.metadata.namespace, name: object.metadata.name ?? '' };
  return (await writer.patch(gvr, key, { type: 'merge', patch }, { signal })) as T;
}

/** The binding a template has (a ResourceBinding in its namespace, else a ClusterResourceBinding). */
export function bindingOf(template: UnstructuredObject): {
  readonly gvr: GroupVersionResource;
  readonly namespace: string | undefined;
  readonly name: string;
} {
  const namespace = template.metadata.namespace || undefined;
  return {
    gvr: namespace ? KarmadaResources.ResourceBinding : KarmadaResources.ClusterResourceBinding,
    namespace,
    name: bindingName(template.kind, template.metadata.name ?? ''),
  };
}

/**
 * Removes the claim of the policy with `permanentId` from a template's binding, then from the template
 * (handleResourceTemplateAndBindingCleanup): the binding first, so a retry after a failure can still find the
 * template by its claim. Each object is changed only while it still carries exactly that claim.
 */
export async function unclaimBindingThenTemplate(
  writer: DetectorWriteClient,
  cache: DetectorCache,
  templateGvr: GroupVersionResource,
  template: UnstructuredObject,
  kind: ClaimingPolicy['kind'],
  permanentId: string,
  signal: AbortSignal,
): Promise<void> {
  const ref = bindingOf(template);
  const binding =
    ref.namespace === undefined
      ? await cache.clusterResourceBinding(ref.name)
      : await cache.resourceBinding(ref.namespace, ref.name);
  if (binding !== undefined) {
    const change = unclaimChange(binding.metadata, kind, permanentId);
    if (change !== undefined) await patchMetadata(writer, ref.gvr, binding, change, signal);
  }
  const change = unclaimChange(template.metadata, kind, permanentId);
  if (change !== undefined) await patchMetadata(writer, templateGvr, template, change, signal);
}
