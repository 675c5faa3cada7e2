// Karmada's resource-selector matching and implicit priority (pkg/util/selector.go).
import type { KubeObject, LabelSelector, ResourceSelector } from '@warmstart/api';
import { compileLabelSelector, type Selector as LabelMatcher } from '@warmstart/informer-cache';
import { InvalidLabelSelectorError } from './errors.js';

/** How precisely a selector matched: a name beats a label selector, which beats match-all. */
export const ImplicitPriority = {
  MisMatch: 0,
  MatchAll: 1,
  MatchLabelSelector: 2,
  MatchName: 3,
} as const;
export type ImplicitPriority = (typeof ImplicitPriority)[keyof typeof ImplicitPriority];

// Policies come from a cache of frozen objects, so a selector's identity is stable: compile each once.
const compiled = new WeakMap<LabelSelector, LabelMatcher | InvalidLabelSelectorError>();

function matcherFor(selector: LabelSelector): LabelMatcher | InvalidLabelSelectorError {
  let entry = compiled.get(selector);
  if (entry === undefined) {
    try {
      entry = compileLabelSelector(selector);
    } catch (error) {
      if (!(error instanceof InvalidLabelSelectorError)) throw error;
      entry = error;
    }
    compiled.set(selector, entry);
  }
  return entry;
}

/** The problem with a selector's labelSelector, or undefined when it is valid or absent (for events). */
export function resourceSelectorProblem(selector: ResourceSelector): InvalidLabelSelectorError | undefined {
  if (selector.labelSelector === undefined) return undefined;
  const entry = matcherFor(selector.labelSelector);
  return entry instanceof InvalidLabelSelectorError ? entry : undefined;
}

/**
 * How `template` matches one selector: apiVersion and kind must be equal strings and a non-empty namespace
 * must be the template's; then a name decides alone (3 or 0), an absent labelSelector matches all (1), and a
 * matching labelSelector gives 2. An invalid labelSelector is a mismatch.
 */
export function resourceSelectorPriority(template: KubeObject, selector: ResourceSelector): ImplicitPriority {
  if (
    template.apiVersion !== selector.apiVersion ||
    template.kind !== selector.kind ||
    (selector.namespace && (template.metadata.namespace ?? '') !== selector.namespace)
  ) {
    return ImplicitPriority.MisMatch;
  }
  if (selector.name) {
    return selector.name === template.metadata.name ? ImplicitPriority.MatchName : ImplicitPriority.MisMatch;
  }
  if (selector.labelSelector === undefined) return ImplicitPriority.MatchAll;
  const matcher = matcherFor(selector.labelSelector);
  if (matcher instanceof InvalidLabelSelectorError) return ImplicitPriority.MisMatch;
  return matcher.matches(template.metadata.labels)
    ? ImplicitPriority.MatchLabelSelector
    : ImplicitPriority.MisMatch;
}

/** A policy's implicit priority for a template: the best over its selectors. */
export function implicitPriority(
  template: KubeObject,
  selectors: readonly ResourceSelector[],
): ImplicitPriority {
  let best: ImplicitPriority = ImplicitPriority.MisMatch;
  for (const selector of selectors) {
    const p = resourceSelectorPriority(template, selector);
    if (p > best) best = p;
    if (best === ImplicitPriority.MatchName) break;
  }
  return best;
}

/** Whether any selector matches the template (Karmada's ResourceMatchSelectors). */
export function resourceMatchesSelectors(
  template: KubeObject,
  selectors: readonly ResourceSelector[],
): boolean {
  return selectors.some((s) => resourceSelectorPriority(template, s) > ImplicitPriority.MisMatch);
}
