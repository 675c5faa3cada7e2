// Which template events reach the detector's queue (EventFilter, OnUpdate and eventfilter in Karmada).
import { isReservedNamespace, type KubeObject, Labels } from '@warmstart/api';
import { jsonEqual as deepEqualJson } from '@warmstart/informer-cache';
import { InvalidObjectKeyError } from './errors.js';
import { clusterWideKey } from './keys.js';

/**
 * Whether the detector handles events of this object: not in a reserved namespace (karmada-system,
 * karmada-cluster, karmada-es-*), not in a skipped namespace (each regex is tried on the namespace, which is
 * "" for cluster-scoped objects), and not kube-system's extension-apiserver-authentication ConfigMap.
 */
export function templateEventFilter(object: KubeObject, skippedNamespaces: readonly RegExp[]): boolean {
  let key: ReturnType<typeof clusterWideKey>;
  try {
    key = clusterWideKey(object);
  } catch (error) {
    if (error instanceof InvalidObjectKeyError) return false;
    throw error;
  }
  if (isReservedNamespace(key.namespace)) return false;
  if (skippedNamespaces.some((re) => re.test(key.namespace))) return false;
  // Generated and owned by kube-apiserver (Karmada issue #4228).
  return !(
    key.namespace === 'kube-system' &&
    key.kind === 'ConfigMap' &&
    key.name === 'extension-apiserver-authentication'
  );
}

type Json = Readonly<Record<string, unknown>>;

function withoutVolatile(object: Json, karmadaToo: boolean): Json {
  const { status: _status, metadata, ...rest } = object;
  const {
    managedFields: _m,
    resourceVersion: _rv,
    generation,
    labels,
    annotations,
    ...meta
  } = (metadata ?? {}) as Json;
  if (!karmadaToo) {
    return { ...rest, metadata: { ...meta, generation, labels, annotations } };
  }
  return {
    ...rest,
    metadata: { ...meta, labels: withoutKarmadaKeys(labels), annotations: withoutKarmadaKeys(annotations) },
  };
}

function withoutKarmadaKeys(map: unknown): Json | undefined {
  if (typeof map !== 'object' || map === null) return undefined;
  const kept = Object.entries(map).filter(
    ([key]) => !key.includes('.karmada.io') || key === Labels.NamespaceSkipAutoPropagation,
  );
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/**
 * Whether an update changed anything but status, managedFields and resourceVersion (SpecificationChanged).
 * Label and annotation changes count, Karmada's own claim labels included.
 */
export function specificationChanged(oldObject: Json, newObject: Json): boolean {
  return !deepEqualJson(withoutVolatile(oldObject, false), withoutVolatile(newObject, false));
}

/**
 * Whether the only differences are Karmada's: labels and annotations whose key contains ".karmada.io" (except
 * namespace.karmada.io/skip-auto-propagation), metadata.generation, plus what specificationChanged ignores.
 */
export function resourceChangeByKarmada(oldObject: Json, newObject: Json): boolean {
  return deepEqualJson(withoutVolatile(oldObject, true), withoutVolatile(newObject, true));
}

/** What the template update handler enqueues, if anything. */
export type TemplateUpdateAction =
  | { readonly enqueue: false }
  | { readonly enqueue: true; readonly resourceChangeByKarmada: boolean };

/**
 * OnUpdate: drop updates that changed nothing but status and bookkeeping; for a template claimed by a Lazy
 * policy, flag whether Karmada alone made the change; otherwise enqueue with the flag false.
 */
export function templateUpdateAction(
  oldObject: Json,
  newObject: Json,
  claimedByLazyPolicy: boolean,
): TemplateUpdateAction {
  if (!specificationChanged(oldObject, newObject)) return { enqueue: false };
  return {
    enqueue: true,
    resourceChangeByKarmada: claimedByLazyPolicy && resourceChangeByKarmada(oldObject, newObject),
  };
}
