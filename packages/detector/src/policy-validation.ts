// Input Karmada's validating webhook would reject or that cannot take effect: an invalid label selector (the
// policy then matches nothing until it is fixed) and an apiVersion/kind the detector does not watch (that
// selector matches nothing until discovery finds the kind).
import type { ClusterPropagationPolicy, PropagationPolicy } from '@warmstart/api';
import type { TemplateResources } from './discovery.js';
import { resourceSelectorProblem } from './resource-selector.js';

type AnyPolicy = PropagationPolicy | ClusterPropagationPolicy;

export interface PolicyProblems {
  /** One message per selector with an invalid labelSelector. */
  readonly invalidSelectors: readonly string[];
  /** `apiVersion/kind` of selectors the detector does not watch. */
  readonly unknownKinds: readonly string[];
}

/** Whether any selector's labelSelector is invalid: such a policy takes part in no matching. */
export function hasInvalidSelector(policy: AnyPolicy): boolean {
  return policy.spec.resourceSelectors.some((s) => resourceSelectorProblem(s) !== undefined);
}

export function policyProblems(policy: AnyPolicy, resources: TemplateResources): PolicyProblems {
  const invalidSelectors: string[] = [];
  const unknownKinds = new Set<string>();
  policy.spec.resourceSelectors.forEach((selector, i) => {
    const problem = resourceSelectorProblem(selector);
    if (problem !== undefined) invalidSelectors.push(`resourceSelectors[${i}]: ${problem.message}`);
    if (resources.discovered && !resources.byApiVersionKind(selector.apiVersion, selector.kind)) {
      unknownKinds.add(`${selector.apiVersion}/${selector.kind}`);
    }
  });
  return { invalidSelectors, unknownKinds: [...unknownKinds] };
}
