// What a resource template depends on, as Karmada's default interpreter reads it
// (pkg/resourceinterpreter/default/native/dependencies.go at f8fdd02): the ConfigMaps, Secrets,
// ServiceAccounts and PersistentVolumeClaims a pod template names, an Ingress's TLS Secrets, a ServiceImport's
// derived Service and EndpointSlices. Pure: a template in, references out.
import type { LabelSelector, UnstructuredObject } from '@warmstart/api';
import { isRecord } from './json.js';

/** config.karmada.io/v1alpha1 DependentObjectReference: a name, or a label selector, in one namespace. */
export interface DependentObjectReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly labelSelector?: LabelSelector;
}

/** A template whose fields cannot be read as its kind's schema (Karmada fails its typed conversion). */
export class DependencyInterpretError extends Error {
  constructor(kind: string, name: string, problem: string) {
    super(`cannot read the dependencies of ${kind} ${name}: ${problem}; fix the template's spec`);
    this.name = 'DependencyInterpretError';
  }
}

type Interpreter = (template: Readonly<UnstructuredObject>) => DependentObjectReference[];

// Keyed by `<apiVersion>/<kind>`, the GroupVersionKinds Karmada registers (getAllDefaultDependenciesInterpreter).
const INTERPRETERS: ReadonlyMap<string, Interpreter> = new Map<string, Interpreter>([
  ['apps/v1/Deployment', (t) => fromPodSpec(t, ['spec', 'template', 'spec'])],
  ['apps/v1/ReplicaSet', (t) => fromPodSpec(t, ['spec', 'template', 'spec'])],
  ['batch/v1/Job', (t) => fromPodSpec(t, ['spec', 'template', 'spec'])],
  ['batch/v1/CronJob', (t) => fromPodSpec(t, ['spec', 'jobTemplate', 'spec', 'template', 'spec'])],
  ['v1/Pod', (t) => fromPodSpec(t, ['spec'])],
  ['apps/v1/DaemonSet', (t) => fromPodSpec(t, ['spec', 'template', 'spec'])],
  ['apps/v1/StatefulSet', statefulSetDependencies],
  ['networking.k8s.io/v1/Ingress', ingressDependencies],
  ['multicluster.x-k8s.io/v1alpha1/ServiceImport', serviceImportDependencies],
]);

/** The GroupVersionKinds (`<apiVersion>/<kind>`) whose dependencies are known. */
export function dependencyInterpretedKinds(): string[] {
  return [...INTERPRETERS.keys()];
}

/** Whether the default interpreter reads dependencies of this kind (Karmada's HookEnabled for InterpretDependency). */
export function interpretsDependencies(apiVersion: string, kind: string): boolean {
  return INTERPRETERS.has(`${apiVersion}/${kind}`);
}

/**
 * The template's dependencies, in Karmada's order: ConfigMaps, Secrets, ServiceAccounts, then
 * PersistentVolumeClaims, each name once (sorted by name; Karmada's order within a kind is a Go map's).
 * Empty for a kind without an interpreter. Throws DependencyInterpretError for a malformed template.
 */
export function dependenciesOf(template: Readonly<UnstructuredObject>): DependentObjectReference[] {
  return interpretDependencies(`${template.apiVersion}/${template.kind}`, template);
}

/**
 * The dependencies of `template` read as the kind `gvk` (`<apiVersion>/<kind>`), whatever the template says it
 * is, as Karmada's per-kind functions do; [] for a kind without an interpreter.
 */
export function interpretDependencies(
  gvk: string,
  template: Readonly<UnstructuredObject>,
): DependentObjectReference[] {
  return INTERPRETERS.get(gvk)?.(template) ?? [];
}

class Fields {
  constructor(
    private readonly template: Readonly<UnstructuredObject>,
    private readonly path: string,
  ) {}

  fail(problem: string): never {
    throw new DependencyInterpretError(
      this.template.kind,
      `${this.template.metadata.namespace ?? ''}/${this.template.metadata.name ?? ''}`,
      `${this.path}${problem}`,
    );
  }

  record(value: unknown, at: string): Readonly<Record<string, unknown>> | undefined {
    if (value === undefined || value === null) return undefined;
    return isRecord(value) ? value : this.fail(`${at} is not an object`);
  }

  list(value: unknown, at: string): readonly unknown[] {
    if (value === undefined || value === null) return [];
    return Array.isArray(value) ? value : this.fail(`${at} is not a list`);
  }

  string(value: unknown, at: string): string {
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : this.fail(`${at} is not a string`);
  }

  /** `.name` of an object reference field (configMapRef, secretKeyRef, ...), '' when absent. */
  refName(
    holder: Readonly<Record<string, unknown>> | undefined,
    field: string,
    at: string,
  ): string | undefined {
    const ref = this.record(holder?.[field], `${at}.${field}`);
    return ref === undefined ? undefined : this.string(ref.name, `${at}.${field}.name`);
  }
}

function at(template: Readonly<UnstructuredObject>, path: readonly string[]): unknown {
  let value: unknown = template;
  for (const key of path) {
    if (!isRecord(value)) return undefined;
    value = value[key];
  }
  return value;
}

function fromPodSpec(
  template: Readonly<UnstructuredObject>,
  path: readonly string[],
): DependentObjectReference[] {
  const fields = new Fields(template, path.join('.'));
  const spec = fields.record(at(template, path), '') ?? {};
  return podSpecDependencies(fields, spec, template.metadata.namespace);
}

interface PodReferences {
  readonly configMaps: Set<string>;
  readonly secrets: Set<string>;
  readonly serviceAccounts: Set<string>;
  readonly claims: Set<string>;
}

function podSpecDependencies(
  fields: Fields,
  spec: Readonly<Record<string, unknown>>,
  namespace: string | undefined,
): DependentObjectReference[] {
  const refs: PodReferences = {
    configMaps: new Set(),
    secrets: new Set(),
    serviceAccounts: new Set(),
    claims: new Set(),
  };
  // Empty names are skipped, as Kubernetes' VisitPod*Names do.
  const add = (set: Set<string>, name: string | undefined): void => {
    if (name) set.add(name);
  };
  fields.list(spec.imagePullSecrets, '.imagePullSecrets').forEach((s, i) => {
    const where = `.imagePullSecrets[${i}]`;
    add(refs.secrets, fields.string(fields.record(s, where)?.name, `${where}.name`));
  });
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    fields.list(spec[field], `.${field}`).forEach((c, i) => {
      const container = fields.record(c, `.${field}[${i}]`) ?? {};
      const where = `.${field}[${i}]`;
      fields.list(container.envFrom, `${where}.envFrom`).forEach((e, j) => {
        const source = fields.record(e, `${where}.envFrom[${j}]`);
        add(refs.configMaps, fields.refName(source, 'configMapRef', `${where}.envFrom[${j}]`));
        add(refs.secrets, fields.refName(source, 'secretRef', `${where}.envFrom[${j}]`));
      });
      fields.list(container.env, `${where}.env`).forEach((e, j) => {
        const variable = fields.record(e, `${where}.env[${j}]`);
        const from = fields.record(variable?.valueFrom, `${where}.env[${j}].valueFrom`);
        add(refs.configMaps, fields.refName(from, 'configMapKeyRef', `${where}.env[${j}].valueFrom`));
        add(refs.secrets, fields.refName(from, 'secretKeyRef', `${where}.env[${j}].valueFrom`));
      });
    });
  }
  fields.list(spec.volumes, '.volumes').forEach((v, i) => {
    const volume = fields.record(v, `.volumes[${i}]`) ?? {};
    volumeReferences(fields, volume, `.volumes[${i}]`, refs, add);
  });
  const serviceAccount = fields.string(spec.serviceAccountName, '.serviceAccountName');
  if (serviceAccount !== '' && serviceAccount !== 'default') refs.serviceAccounts.add(serviceAccount);

  const out: DependentObjectReference[] = [];
  const push = (kind: string, names: Set<string>): void => {
    for (const name of [...names].sort())
      out.push({ apiVersion: 'v1', kind, ...(namespace ? { namespace } : {}), name });
  };
  push('ConfigMap', refs.configMaps);
  push('Secret', refs.secrets);
  push('ServiceAccount', refs.serviceAccounts);
  push('PersistentVolumeClaim', refs.claims);
  return out;
}

// A volume has one source; like Kubernetes' visitors (a Go switch) the first source found names the Secret or
// ConfigMap. A claim is read on its own, so a volume that also has a claim contributes both.
const SECRET_SOURCES: readonly (readonly [string, string])[] = [
  ['azureFile', 'secretName'],
  ['cephfs', 'secretRef'],
  ['cinder', 'secretRef'],
  ['flexVolume', 'secretRef'],
  ['projected', ''],
  ['rbd', 'secretRef'],
  ['secret', 'secretName'],
  ['scaleIO', 'secretRef'],
  ['iscsi', 'secretRef'],
  ['storageos', 'secretRef'],
  ['csi', 'nodePublishSecretRef'],
];

function volumeReferences(
  fields: Fields,
  volume: Readonly<Record<string, unknown>>,
  where: string,
  refs: PodReferences,
  add: (set: Set<string>, name: string | undefined) => void,
): void {
  const projectedSources = (): readonly Readonly<Record<string, unknown>>[] => {
    const projected = fields.record(volume.projected, `${where}.projected`) ?? {};
    return fields
      .list(projected.sources, `${where}.projected.sources`)
      .map((s, k) => fields.record(s, `${where}.projected.sources[${k}]`) ?? {});
  };
  const secretSource = SECRET_SOURCES.find(
    ([source]) => volume[source] !== undefined && volume[source] !== null,
  );
  if (secretSource) {
    const [source, field] = secretSource;
    if (source === 'projected') {
      projectedSources().forEach((s, k) => {
        add(refs.secrets, fields.refName(s, 'secret', `${where}.projected.sources[${k}]`));
      });
    } else if (field === 'secretName') {
      const holder = fields.record(volume[source], `${where}.${source}`) ?? {};
      add(refs.secrets, fields.string(holder.secretName, `${where}.${source}.secretName`));
    } else {
      add(
        refs.secrets,
        fields.refName(fields.record(volume[source], `${where}.${source}`), field, `${where}.${source}`),
      );
    }
  }
  if (volume.projected !== undefined && volume.projected !== null) {
    projectedSources().forEach((s, k) => {
      add(refs.configMaps, fields.refName(s, 'configMap', `${where}.projected.sources[${k}]`));
    });
  } else if (volume.configMap !== undefined && volume.configMap !== null) {
    add(refs.configMaps, fields.refName(volume, 'configMap', where));
  }
  const claim = fields.record(volume.persistentVolumeClaim, `${where}.persistentVolumeClaim`);
  if (claim) add(refs.claims, fields.string(claim.claimName, `${where}.persistentVolumeClaim.claimName`));
}

function statefulSetDependencies(template: Readonly<UnstructuredObject>): DependentObjectReference[] {
  const deps = fromPodSpec(template, ['spec', 'template', 'spec']);
  const fields = new Fields(template, 'spec.volumeClaimTemplates');
  const claimTemplates = new Set(
    fields.list(at(template, ['spec', 'volumeClaimTemplates']), '').map((c, i) => {
      const metadata = fields.record(fields.record(c, `[${i}]`)?.metadata, `[${i}].metadata`);
      return fields.string(metadata?.name, `[${i}].metadata.name`);
    }),
  );
  // A claim the StatefulSet makes from its own templates is the members' to make, not a dependency.
  return deps.filter((d) => d.kind !== 'PersistentVolumeClaim' || !claimTemplates.has(d.name ?? ''));
}

function ingressDependencies(template: Readonly<UnstructuredObject>): DependentObjectReference[] {
  const fields = new Fields(template, 'spec.tls');
  const namespace = template.metadata.namespace;
  // One reference per TLS entry, repeats and all, as Karmada lists them.
  return fields.list(at(template, ['spec', 'tls']), '').map((t, i) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    ...(namespace ? { namespace } : {}),
    name: fields.string(fields.record(t, `[${i}]`)?.secretName, `[${i}].secretName`),
  }));
}

function serviceImportDependencies(template: Readonly<UnstructuredObject>): DependentObjectReference[] {
  const namespace = template.metadata.namespace;
  const derived = `derived-${template.metadata.name ?? ''}`;
  const ns = namespace ? { namespace } : {};
  return [
    { apiVersion: 'v1', kind: 'Service', ...ns, name: derived },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      ...ns,
      labelSelector: { matchLabels: { 'kubernetes.io/service-name': derived } },
    },
  ];
}
