// OverridePolicy and ClusterOverridePolicy applied to the copy of a template bound for one member cluster, as
// Karmada's override manager does it (pkg/util/overridemanager): ClusterOverridePolicies first, then the
// OverridePolicies of the template's namespace; within each, policies ordered by how precisely they select the
// template (match-all, label selector, name) and then by name; each matching rule's overriders in the order
// image, command, args, labels, annotations, field, plaintext. Pure: cached objects in, object and annotations out.
import {
  Annotations,
  type Cluster,
  type ClusterOverridePolicy,
  type CommandArgsOverrider,
  type ImageOverrider,
  type KubeObject,
  type LabelAnnotationOverrider,
  type OverridePolicy,
  type Overriders,
  type RuleWithCluster,
  type UnstructuredObject,
} from '@warmstart/api';
import { ImplicitPriority, implicitPriority, resourceMatchesSelectors } from '@warmstart/detector';
import { clusterMatchesAffinity } from './cluster-affinity.js';
import { applyFieldOverrider } from './field-overrider.js';
import { formatImage, parseImage, setTagOrDigest } from './image-reference.js';
import { deepCopy } from './json.js';
import { applyJsonPatchInPlace, type PatchOperation } from './json-patch.js';

/**
 * An override that cannot be applied to the object: that cluster's Work is not built (the others are), and the
 * binding reports why. `policyKind` names the kind of the failing policy; it is absent when no policy was at
 * fault (the Cluster object is not known), where Karmada emits no ApplyOverridePolicyFailed either.
 */
export class OverrideApplyError extends Error {
  constructor(
    /** `name` for a ClusterOverridePolicy, `namespace/name` for an OverridePolicy. */
    readonly policy: string,
    readonly cluster: string,
    cause: unknown,
    readonly policyKind?: 'ClusterOverridePolicy' | 'OverridePolicy',
  ) {
    super(
      `cannot apply override policy ${policy} for cluster ${cluster}: ${cause instanceof Error ? cause.message : String(cause)}; fix the policy's overriders or its resourceSelectors`,
    );
    this.name = 'OverrideApplyError';
  }
}

/**
 * The override policies of a cluster cannot be applied because its Cluster object is not in the cache: no policy
 * is at fault, so the message says what is (Karmada fails the same way when it cannot get the Cluster).
 */
export class OverrideClusterUnknownError extends OverrideApplyError {
  constructor(cluster: string) {
    super('(none)', cluster, new Error('the Cluster object is not in the cache'));
    this.message =
      `cannot apply override policies for cluster ${cluster}: no Cluster object of that name is in the cache; ` +
      'the binding names a cluster that is not joined (or left): join it, or change the placement';
    this.name = 'OverrideClusterUnknownError';
  }
}

type AnyOverridePolicy = OverridePolicy | ClusterOverridePolicy;

/** One rule's overriders that apply, with the policy they come from. */
export interface PolicyOverriders {
  readonly name: string;
  readonly namespace: string;
  readonly overriders: Overriders;
}

/**
 * The overriders of `policies` that apply to `resource` on `cluster`, in the order Karmada applies them
 * (getOverridersFromOverridePolicies). A policy without resourceSelectors selects everything it can see.
 */
export function matchingOverriders(
  policies: readonly AnyOverridePolicy[],
  resource: KubeObject,
  cluster: Readonly<Cluster>,
): PolicyOverriders[] {
  return overridersFor(selectingPolicies(policies, resource), cluster);
}

// The same object for every absent `overriders`, so two clusters' matches can be compared by identity.
const NO_OVERRIDERS: Overriders = Object.freeze({});

interface SelectingPolicy {
  readonly name: string;
  readonly namespace: string;
  readonly rules: readonly RuleWithCluster[];
}

// The policies whose resourceSelectors select `resource`, ordered by implicit priority then name. Selection reads
// only the resource's apiVersion, kind, namespace, name and labels, so it holds for every cluster of a binding.
function selectingPolicies(policies: readonly AnyOverridePolicy[], resource: KubeObject): SelectingPolicy[] {
  const priorityOf = (p: AnyOverridePolicy): number => {
    const selectors = p.spec.resourceSelectors ?? [];
    return selectors.length === 0 ? ImplicitPriority.MatchAll : implicitPriority(resource, selectors);
  };
  return policies
    .filter((p) => {
      const selectors = p.spec.resourceSelectors ?? [];
      return selectors.length === 0 || resourceMatchesSelectors(resource, selectors);
    })
    .map((policy) => ({ policy, priority: priorityOf(policy), name: policy.metadata.name ?? '' }))
    .sort((a, b) => a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ policy, name }) => ({
      name,
      namespace: policy.metadata.namespace ?? '',
      rules:
        (policy.spec.overrideRules?.length ?? 0) > 0
          ? policy.spec.overrideRules!
          : [
              {
                ...(policy.spec.targetCluster === undefined
                  ? {}
                  : { targetCluster: policy.spec.targetCluster }),
                overriders: policy.spec.overriders ?? NO_OVERRIDERS,
              },
            ],
    }));
}

// The rules of the selecting policies whose targetCluster takes in `cluster`.
function overridersFor(selected: readonly SelectingPolicy[], cluster: Readonly<Cluster>): PolicyOverriders[] {
  const result: PolicyOverriders[] = [];
  for (const { name, namespace, rules } of selected) {
    for (const rule of rules) {
      if (rule.targetCluster === undefined || clusterMatchesAffinity(cluster, rule.targetCluster)) {
        result.push({ name, namespace, overriders: rule.overriders ?? NO_OVERRIDERS });
      }
    }
  }
  return result;
}

/** What applying the override policies produced for one cluster. */
export interface OverrideResult {
  /** The overridden copy; the input is not changed. */
  readonly object: UnstructuredObject;
  /** policy.karmada.io/applied-(cluster-)overrides for the Work, only those that apply. */
  readonly annotations: Readonly<Record<string, string>>;
}

/**
 * Apply ClusterOverridePolicies, then (for a namespaced object) the OverridePolicies of its namespace
 * (ApplyOverridePolicies). `overridePolicies` may hold other namespaces' policies; they are ignored.
 * Throws OverrideApplyError.
 */
export function applyOverridePolicies(
  template: UnstructuredObject,
  cluster: Readonly<Cluster>,
  clusterOverridePolicies: readonly ClusterOverridePolicy[],
  overridePolicies: readonly OverridePolicy[],
): OverrideResult {
  return templateOverrider(template, clusterOverridePolicies, overridePolicies)(template, cluster);
}

/**
 * {@link applyOverridePolicies} for the copies of one template bound for several clusters: the policies that
 * select the template are found and ordered once, not per cluster, and a copy identical (the same object) to
 * one already overridden with the same rules gets that result again instead of a second deep copy and
 * patch (every cluster of a Duplicated binding, when no rule's targetCluster tells them apart). Applying
 * overriders is a pure function of the object and the rules, so the shared result is the one a second
 * application would give. Keep the returned function for one build only: it holds what it produced.
 * Each object passed in must have the template's apiVersion, kind and metadata (they decide the selection).
 */
export function templateOverrider(
  template: KubeObject,
  clusterOverridePolicies: readonly ClusterOverridePolicy[],
  overridePolicies: readonly OverridePolicy[],
): (object: UnstructuredObject, cluster: Readonly<Cluster>) => OverrideResult {
  const namespace = template.metadata.namespace ?? '';
  const clusterWide = selectingPolicies(clusterOverridePolicies, template);
  const namespaced =
    namespace === ''
      ? []
      : selectingPolicies(
          overridePolicies.filter((p) => p.metadata.namespace === namespace),
          template,
        );
  const produced: {
    object: UnstructuredObject;
    cops: PolicyOverriders[];
    ops: PolicyOverriders[];
    result: OverrideResult;
  }[] = [];
  return (object, cluster) => {
    const cops = overridersFor(clusterWide, cluster);
    const ops = overridersFor(namespaced, cluster);
    // Most clusters of most templates have nothing to apply: no copy then.
    if (cops.length === 0 && ops.length === 0) return { object, annotations: {} };
    const sameRules = produced.filter((p) => sameOverriders(p.cops, cops) && sameOverriders(p.ops, ops));
    const earlier = sameRules.find((p) => p.object === object);
    if (earlier !== undefined) return earlier.result;
    // Another object with the same rules (another replica count) records the same applied overrides.
    const result = applyMatched(
      object,
      cluster.metadata.name ?? '',
      cops,
      ops,
      sameRules[0]?.result.annotations,
    );
    produced.push({ object, cops, ops, result });
    return result;
  };
}

function sameOverriders(a: readonly PolicyOverriders[], b: readonly PolicyOverriders[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (x, i) => x.overriders === b[i]!.overriders && x.name === b[i]!.name && x.namespace === b[i]!.namespace,
    )
  );
}

function applyMatched(
  template: UnstructuredObject,
  clusterName: string,
  cops: readonly PolicyOverriders[],
  ops: readonly PolicyOverriders[],
  recorded?: Readonly<Record<string, string>>,
): OverrideResult {
  let object: UnstructuredObject = template;
  const apply = (
    items: readonly PolicyOverriders[],
    kind: 'ClusterOverridePolicy' | 'OverridePolicy',
    display: (p: PolicyOverriders) => string,
  ): void => {
    for (const item of items) {
      try {
        object = applyOverriders(object, item.overriders);
      } catch (error) {
        throw new OverrideApplyError(display(item), clusterName, error, kind);
      }
    }
  };
  apply(cops, 'ClusterOverridePolicy', (p) => p.name);
  apply(ops, 'OverridePolicy', (p) => `${p.namespace}/${p.name}`);
  if (recorded !== undefined) return { object, annotations: recorded };
  const annotations: Record<string, string> = {};
  if (cops.length > 0) annotations[Annotations.AppliedClusterOverrides] = appliedOverridesJson(cops);
  if (ops.length > 0) annotations[Annotations.AppliedOverrides] = appliedOverridesJson(ops);
  return { object, annotations };
}

/** One rule's overriders on the object (applyPolicyOverriders); throws on a patch that does not apply. */
export function applyOverriders(
  object: UnstructuredObject,
  overriders: Readonly<Overriders>,
): UnstructuredObject {
  // One copy, patched in place: the caller's object is never changed, even by an overrider that fails.
  let current: UnstructuredObject = deepCopy(object);
  const patch = (ops: readonly PatchOperation[]): void => {
    current = applyJsonPatchInPlace(current, ops) as UnstructuredObject;
  };
  for (const o of overriders.imageOverrider ?? []) patch(imagePatches(current, o));
  for (const o of overriders.commandOverrider ?? []) patch(commandArgsPatches('command', current, o));
  for (const o of overriders.argsOverrider ?? []) patch(commandArgsPatches('args', current, o));
  for (const o of overriders.labelsOverrider ?? []) current = labelAnnotationPatch(current, o, 'labels');
  for (const o of overriders.annotationsOverrider ?? [])
    current = labelAnnotationPatch(current, o, 'annotations');
  for (const o of overriders.fieldOverrider ?? []) applyFieldOverrider(current, o);
  patch((overriders.plaintext ?? []).map((p) => ({ op: p.operator, path: p.path, value: p.value ?? null })));
  return current;
}

const POD_TEMPLATE_KINDS = new Set(['ReplicaSet', 'Deployment', 'DaemonSet', 'Job', 'StatefulSet']);

// Where the containers of a workload are, as a JSON pointer; undefined for kinds the overriders do not know.
function containersPath(kind: string): string | undefined {
  if (kind === 'Pod') return '/spec/containers';
  return POD_TEMPLATE_KINDS.has(kind) ? '/spec/template/spec/containers' : undefined;
}

function at(object: unknown, pointer: string): unknown {
  let value: unknown = object;
  for (const token of pointer.slice(1).split('/')) {
    if (Array.isArray(value)) value = /^\d+$/.test(token) ? value[Number(token)] : undefined;
    else if (typeof value === 'object' && value !== null) value = (value as Record<string, unknown>)[token];
    else return undefined;
  }
  return value;
}

function containersOf(
  object: UnstructuredObject,
): { path: string; containers: readonly Record<string, unknown>[] } | undefined {
  const path = containersPath(object.kind);
  if (path === undefined) return undefined;
  const containers = at(object, path);
  return Array.isArray(containers) ? { path, containers } : { path, containers: [] };
}

/** The replace operations an imageOverrider produces (buildPatches). */
export function imagePatches(
  object: UnstructuredObject,
  overrider: Readonly<ImageOverrider>,
): PatchOperation[] {
  if (overrider.predicate !== undefined) {
    const path = overrider.predicate.path;
    const image = at(object, `/${path.replace(/^\/+|\/+$/g, '')}`);
    if (typeof image !== 'string') throw new Error(`predicate path ${path} does not hold a string`);
    return [{ op: 'replace', path, value: overrideImage(image, overrider) }];
  }
  const found = containersOf(object);
  if (found === undefined) return [];
  return found.containers.map((c, i) => ({
    op: 'replace',
    path: `${found.path}/${i}/image`,
    value: overrideImage(typeof c.image === 'string' ? c.image : '', overrider),
  }));
}

/** overrideImage: add to, replace or remove the registry, repository or tag of one image. */
export function overrideImage(image: string, overrider: Readonly<ImageOverrider>): string {
  const c = parseImage(image);
  const value = overrider.value ?? '';
  const op = overrider.operator;
  switch (overrider.component) {
    case 'Registry':
      c.hostname = op === 'add' ? c.hostname + value : op === 'replace' ? value : '';
      break;
    case 'Repository':
      c.repository = op === 'add' ? c.repository + value : op === 'replace' ? value : '';
      break;
    case 'Tag':
      if (op === 'add') setTagOrDigest(c, (c.tag || c.digest) + value);
      else if (op === 'replace') setTagOrDigest(c, value);
      else if (c.tag !== '') c.tag = '';
      else c.digest = '';
      break;
    default:
      throw new Error(`unsupported image component ${String(overrider.component)}`);
  }
  return formatImage(c);
}

/** The operations a command or args overrider produces for the named container (buildCommandArgsPatches). */
export function commandArgsPatches(
  target: 'command' | 'args',
  object: UnstructuredObject,
  overrider: Readonly<CommandArgsOverrider>,
): PatchOperation[] {
  const found = containersOf(object);
  if (found === undefined) return [];
  const patches: PatchOperation[] = [];
  found.containers.forEach((container, i) => {
    if (container.name !== overrider.containerName) return;
    const path = `${found.path}/${i}/${target}`;
    const current = container[target];
    if (current === undefined || current === null) {
      patches.push({ op: 'add', path, value: overrideCommandArgs([], overrider) });
    } else {
      const values = Array.isArray(current) ? current.map(String) : [];
      patches.push({ op: 'replace', path, value: overrideCommandArgs(values, overrider) });
    }
  });
  return patches;
}

function overrideCommandArgs(
  current: readonly string[],
  overrider: Readonly<CommandArgsOverrider>,
): string[] {
  const values = overrider.value ?? [];
  if (overrider.operator === 'add') return [...current, ...values];
  if (overrider.operator === 'remove') return current.filter((v) => !values.includes(v));
  return [...current];
}

/**
 * A labels or annotations overrider (applyLabelAnnotationOverriders): remove and replace touch only keys that are
 * there; add creates the map when it is missing. Changes `object`'s maps in place: pass a copy you own.
 */
export function labelAnnotationPatch(
  object: UnstructuredObject,
  overrider: Readonly<LabelAnnotationOverrider>,
  field: 'labels' | 'annotations',
): UnstructuredObject {
  const entries = Object.entries(overrider.value ?? {});
  if (entries.length === 0) return object;
  let current = object;
  const map = (): Readonly<Record<string, string>> | undefined => current.metadata[field];
  if (overrider.operator === 'add' && map() === undefined) {
    current = { ...current, metadata: { ...current.metadata, [field]: {} } };
  }
  const ops: PatchOperation[] = [];
  for (const [key, value] of entries) {
    if (overrider.operator !== 'add' && !Object.hasOwn(map() ?? {}, key)) continue;
    ops.push({ op: overrider.operator, path: `/metadata/${field}/${key.replaceAll('/', '~1')}`, value });
  }
  return ops.length === 0 ? current : (applyJsonPatchInPlace(current, ops) as UnstructuredObject);
}

/**
 * The applied-overrides annotation value: the applied items sorted by policy name, each {policyName, overriders},
 * marshalled the way Go's encoding/json writes Karmada's structs (field order, omitted empty fields, sorted map
 * keys, <, > and & escaped), so the Work carries byte for byte what Karmada writes.
 */
export function appliedOverridesJson(items: readonly PolicyOverriders[]): string {
  const sorted = [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return goJson(sorted.map((i) => ({ policyName: i.name, overriders: overridersInGoOrder(i.overriders) })));
}

// Go writes struct fields in declaration order and drops omitempty fields that are empty; `value` of a
// plaintext or field patch is apiextensionsv1.JSON, which is never omitted (null when empty).
function overridersInGoOrder(o: Readonly<Overriders>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (key: string, list: readonly unknown[] | undefined, each: (x: never) => unknown): void => {
    if (list !== undefined && list.length > 0) out[key] = list.map((x) => each(x as never));
  };
  put('plaintext', o.plaintext, (p: { path: string; operator: string; value?: unknown }) => ({
    path: p.path,
    operator: p.operator,
    value: p.value ?? null,
  }));
  put('imageOverrider', o.imageOverrider, (i: ImageOverrider) => ({
    ...(i.predicate === undefined ? {} : { predicate: { path: i.predicate.path } }),
    component: i.component,
    operator: i.operator,
    ...(i.value ? { value: i.value } : {}),
  }));
  const commandArgs = (c: CommandArgsOverrider): unknown => ({
    containerName: c.containerName,
    operator: c.operator,
    ...(c.value && c.value.length > 0 ? { value: c.value } : {}),
  });
  put('commandOverrider', o.commandOverrider, commandArgs);
  put('argsOverrider', o.argsOverrider, commandArgs);
  const labelAnnotation = (l: LabelAnnotationOverrider): unknown => ({
    operator: l.operator,
    value: sortKeys(l.value ?? null),
  });
  put('labelsOverrider', o.labelsOverrider, labelAnnotation);
  put('annotationsOverrider', o.annotationsOverrider, labelAnnotation);
  const fieldOp = (f: { subPath: string; operator: string; value?: unknown }): unknown => ({
    subPath: f.subPath,
    operator: f.operator,
    value: f.value ?? null,
  });
  put(
    'fieldOverrider',
    o.fieldOverrider,
    (f: { fieldPath: string; json?: readonly never[]; yaml?: readonly never[] }) => ({
      fieldPath: f.fieldPath,
      ...(f.json && f.json.length > 0 ? { json: f.json.map(fieldOp) } : {}),
      ...(f.yaml && f.yaml.length > 0 ? { yaml: f.yaml.map(fieldOp) } : {}),
    }),
  );
  return out;
}

// encoding/json escapes HTML-sensitive characters and the JavaScript line separators.
function goJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

// Go writes a map (a labels or annotations overrider's value) with its keys sorted. A JSON value
// (apiextensionsv1.JSON) is written as its raw bytes: its keys stay in the order the API server sent them, which
// JSON.parse keeps.
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, sortKeys(v)]),
  );
}
