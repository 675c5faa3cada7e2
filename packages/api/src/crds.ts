// The CRD manifests as data, the one source of truth for packages/api/crds/*.yaml (written by `gen:crds`).
import type { CustomResourceDefinition } from './crd-types.js';
import { clusterResourceBindingCrd, resourceBindingCrd } from './schema/binding.js';
import { clusterCrd } from './schema/cluster.js';
import { clusterOverridePolicyCrd, overridePolicyCrd } from './schema/override.js';
import { clusterPropagationPolicyCrd, propagationPolicyCrd } from './schema/policy.js';
import { workCrd } from './schema/work.js';
import { toYaml } from './yaml.js';

/** Every CRD warmstart installs, in an order that can be applied as listed. */
export const crds: readonly CustomResourceDefinition[] = [
  propagationPolicyCrd,
  clusterPropagationPolicyCrd,
  overridePolicyCrd,
  clusterOverridePolicyCrd,
  resourceBindingCrd,
  clusterResourceBindingCrd,
  workCrd,
  clusterCrd,
];

export {
  clusterCrd,
  clusterOverridePolicyCrd,
  clusterPropagationPolicyCrd,
  clusterResourceBindingCrd,
  overridePolicyCrd,
  propagationPolicyCrd,
  resourceBindingCrd,
  workCrd,
};

/** The file under packages/api/crds/ that holds a CRD: `<group>_<plural>.yaml`, as Karmada names them. */
export function crdFileName(crd: CustomResourceDefinition): string {
  return `${crd.spec.group}_${crd.spec.names.plural}.yaml`;
}

const HEADER =
  '# Generated from packages/api/src/schema by `pnpm --filter @warmstart/api gen:crds`. Do not edit.\n';

/** The exact text of a CRD's YAML file. */
export function crdYaml(crd: CustomResourceDefinition): string {
  return `${HEADER}---\n${toYaml(crd)}`;
}
