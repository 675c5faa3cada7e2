// Queue keys (pkg/util/fedinformer/keys): a template is identified by group, version, kind, namespace and name.
import type { KubeObject } from '@warmstart/api';
import { InvalidObjectKeyError } from './errors.js';

export interface ClusterWideKey {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Empty for cluster-scoped objects. */
  readonly namespace: string;
  readonly name: string;
}

/** The detector's template key: resourceChangeByKarmada makes a distinct key (set only for Lazy policies). */
export interface TemplateKey extends ClusterWideKey {
  readonly resourceChangeByKarmada: boolean;
}

/** The key of an object. Throws InvalidObjectKeyError when its apiVersion's version or its kind is empty. */
export function clusterWideKey(object: KubeObject): ClusterWideKey {
  const apiVersion = object.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  if (!version || !object.kind) {
    throw new InvalidObjectKeyError(
      `cannot key object ${object.metadata?.name ?? '<unnamed>'}: apiVersion "${apiVersion}" and kind "${object.kind ?? ''}" must be set ` +
        '(objects decoded from a typed list may lack them; fill them in from the informer resource)',
    );
  }
  return {
    group,
    version,
    kind: object.kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name ?? '',
  };
}

/** Karmada's printed form: "<group/version>, kind=<Kind>, <namespace/name>" (just the name when cluster-scoped). */
export function formatClusterWideKey(key: ClusterWideKey): string {
  const gv = key.group ? `${key.group}/${key.version}` : key.version;
  return `${gv}, kind=${key.kind}, ${key.namespace ? `${key.namespace}/${key.name}` : key.name}`;
}

/** A string that identifies a TemplateKey, for de-duplicating queue entries. */
export function formatTemplateKey(key: TemplateKey): string {
  return `${formatClusterWideKey(key)}, resourceChangeByKarmada=${key.resourceChangeByKarmada}`;
}

// Group names are DNS subdomains and cannot contain ':', so this prefix cannot be mistaken for a group.
const CHANGED_BY_KARMADA = 'karmada:';

/**
 * The work-queue form of a TemplateKey: `<group>/<version>/<kind>/<namespace>/<name>` (group and namespace may be
 * empty; object names never contain '/'), prefixed with `karmada:` when resourceChangeByKarmada is set, so the
 * two flags stay distinct queue entries as in Karmada.
 */
export function encodeTemplateKey(key: TemplateKey): string {
  const body = `${key.group}/${key.version}/${key.kind}/${key.namespace}/${key.name}`;
  return key.resourceChangeByKarmada ? CHANGED_BY_KARMADA + body : body;
}

/** Parses encodeTemplateKey's output. Throws InvalidObjectKeyError for anything else. */
export function decodeTemplateKey(text: string): TemplateKey {
  const flagged = text.startsWith(CHANGED_BY_KARMADA);
  const parts = (flagged ? text.slice(CHANGED_BY_KARMADA.length) : text).split('/');
  const [group, version, kind, namespace, name] = parts;
  if (parts.length !== 5 || group === undefined || namespace === undefined || !version || !kind || !name) {
    throw new InvalidObjectKeyError(
      `"${text}" is not a template queue key (expected <group>/<version>/<kind>/<namespace>/<name>)`,
    );
  }
  return { group, version, kind, namespace, name, resourceChangeByKarmada: flagged };
}
