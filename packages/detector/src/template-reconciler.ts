// The reconcile of one resource template (Karmada's Reconcile + propagateResource + ApplyPolicy): read the template
// and the policies from the cache, decide, then claim the template and create or update its binding. It writes
// nothing when the template's claim and binding are already what they should be.
import { randomUUID } from 'node:crypto';
import type {
  ClusterPropagationPolicy,
  GroupVersionResource,
  PropagationPolicy,
  UnstructuredObject,
} from '@warmstart/api';
import type { Result } from '@warmstart/workqueue';
import { reportsApplyFailure } from './apply-failure.js';
import { buildDesiredBinding } from './binding-builder.js';
import { bindingMergePatch } from './binding-patch.js';
import { changesOnlyRecordedVersion, planBindingWrite } from './binding-update.js';
import { readClaim, templateClaimChange } from './claim.js';
import { bindingOf, patchMetadata, unclaimBindingThenTemplate } from './claim-writes.js';
import type { DetectorCache } from './detector-cache.js';
import type { DetectorContext } from './detector-context.js';
import {
  MissingPermanentIdError,
  PolicyBeingDeletedError,
  WaitingForDependentOverridesError,
} from './errors.js';
import { EventReasons } from './events.js';
import { decodeTemplateKey, type TemplateKey } from './keys.js';
import { skipBindingSync } from './lazy-activation.js';
import type { ClaimingPolicy } from './policy-choice.js';
import { describePolicy, effectivePolicy } from './policy-kinds.js';
import { hasInvalidSelector } from './policy-validation.js';
import { decideTemplate, type PolicyLookup } from './template-decision.js';

/**
 * Delay before the one retry of a template no policy matches (Karmada returns an error once, and the rate
 * limiter's first delay is 5 ms). It closes the race of a template and a policy that arrive together: the policy
 * may have scanned the waiting list just before the template was added to it.
 */
export const NO_MATCH_RETRY_MS = 5;

export class TemplateReconciler {
  readonly #ctx: DetectorContext;
  readonly #cache: DetectorCache;

  constructor(ctx: DetectorContext, cache: DetectorCache) {
    this.#ctx = ctx;
    this.#cache = cache;
  }

  async reconcile(queueKey: string, signal: AbortSignal): Promise<Result | undefined> {
    const key = decodeTemplateKey(queueKey);
    const { waiting, resources } = this.#ctx;
    const gvr = resources.byGroupVersionKind(key.group, key.version, key.kind);
    if (gvr === undefined) {
      waiting.remove(key);
      return undefined;
    }
    const template = await this.#cache.template(gvr, key.namespace || undefined, key.name);
    if (template === undefined) {
      waiting.remove(key);
      this.#ctx.specChanges.settle(key);
      return undefined;
    }
    const decision = decideTemplate(template, await this.#lookup(template));
    switch (decision.action) {
      case 'ignore':
        waiting.remove(key);
        return undefined;
      case 'apply':
        if (decision.matched) waiting.remove(key);
        try {
          await this.#apply(gvr, template, decision.policy, key, signal);
        } catch (error) {
          // A policy that has no permanent id yet gets one from its own reconcile, which then wakes this template.
          if (error instanceof MissingPermanentIdError) waiting.add(key);
          throw error;
        }
        return undefined;
      case 'cleanup-stale-claim':
        await unclaimBindingThenTemplate(
          this.#ctx.writer,
          this.#cache,
          gvr,
          template,
          decision.claim.kind,
          decision.claim.permanentId,
          signal,
        );
        return undefined;
      case 'retry':
        throw decision.reason === 'policy-being-deleted'
          ? new PolicyBeingDeletedError(describePolicy(decision.policy))
          : new WaitingForDependentOverridesError(describePolicy(decision.policy));
      case 'none':
        return undefined;
      case 'no-match':
        if (waiting.has(key)) return undefined;
        waiting.add(key);
        return { requeueAfter: NO_MATCH_RETRY_MS };
    }
  }

  /**
   * The cached policies a template can be decided with. Policies with an invalid label selector take part in no
   * matching, but a template they already claim still finds them (and is left alone rather than unclaimed).
   */
  async #lookup(template: UnstructuredObject): Promise<PolicyLookup> {
    const namespace = template.metadata.namespace || undefined;
    const pps = namespace === undefined ? [] : await this.#cache.propagationPolicies(namespace);
    const cpps = await this.#cache.clusterPropagationPolicies();
    const claim = readClaim(template.metadata);
    let claimedElsewhere: PropagationPolicy | undefined;
    if (claim?.kind === 'PropagationPolicy' && claim.namespace !== namespace) {
      claimedElsewhere = await this.#cache.propagationPolicy(claim.namespace, claim.name);
    }
    return {
      propagationPolicies: pps.filter((p) => !hasInvalidSelector(p)),
      clusterPropagationPolicies: cpps.filter((p) => !hasInvalidSelector(p)),
      propagationPolicy: (ns, name) =>
        ns === namespace
          ? pps.find((p) => p.metadata.name === name)
          : claimedElsewhere?.metadata.namespace === ns && claimedElsewhere.metadata.name === name
            ? claimedElsewhere
            : undefined,
      clusterPropagationPolicy: (name): ClusterPropagationPolicy | undefined =>
        cpps.find((p) => p.metadata.name === name),
    };
  }

  /** ApplyPolicy / ApplyClusterPolicy: claim the template, then create or update its binding. */
  async #apply(
    gvr: GroupVersionResource,
    template: UnstructuredObject,
    policy: ClaimingPolicy,
    key: TemplateKey,
    signal: AbortSignal,
  ): Promise<void> {
    const { writer, emit } = this.#ctx;
    const policyName = describePolicy(policy);
    try {
      let current = template;
      const { specChanges } = this.#ctx;
      const change = templateClaimChange(template.metadata, policy);
      if (change !== undefined) {
        // The response carries the new resourceVersion, which the binding's spec.resource must name.
        current =
          (await patchMetadata<UnstructuredObject>(writer, gvr, template, change, signal)) ?? template;
      }
      if (skipBindingSync(key.resourceChangeByKarmada, policy.policy)) return;

      const effective = effectivePolicy(policy);
      const desired = buildDesiredBinding(current, effective, await this.#bindingOptions(effective));
      const ref = bindingOf(current);
      const existing =
        ref.namespace === undefined
          ? await this.#cache.clusterResourceBinding(ref.name)
          : await this.#cache.resourceBinding(ref.namespace, ref.name);
      const plan = planBindingWrite(desired, existing, randomUUID);
      const versionOnly =
        plan.op === 'update' &&
        existing !== undefined &&
        change === undefined &&
        !specChanges.has(key) &&
        changesOnlyRecordedVersion(existing, plan.binding);
      if (plan.op === 'none' || versionOnly) {
        specChanges.settle(key);
        return;
      }
      if (plan.op === 'create') await writer.create(ref.gvr, plan.binding, { signal });
      else if (existing !== undefined)
        await writer.patch(
          ref.gvr,
          { namespace: ref.namespace, name: ref.name },
          { type: 'merge', patch: bindingMergePatch(existing, plan.binding) },
          { signal },
        );
      specChanges.settle(key);
      emit(current, 'Normal', EventReasons.ApplyPolicySucceed, `Apply ${policyName} succeed`);
    } catch (error) {
      if (reportsApplyFailure(error)) {
        const message = error instanceof Error ? error.message : String(error);
        emit(template, 'Warning', EventReasons.ApplyPolicyFailed, `Apply ${policyName} failed: ${message}`);
      }
      throw error;
    }
  }

  async #bindingOptions(policy: ClaimingPolicy) {
    const { bindingOptions, gates } = this.#ctx;
    const schedulePriority = policy.policy.spec.schedulePriority;
    if (!gates.priorityBasedScheduling || schedulePriority?.priorityClassSource !== 'KubePriorityClass') {
      return bindingOptions;
    }
    const name = schedulePriority.priorityClassName;
    const value = await this.#cache.priorityClassValue(name);
    return { ...bindingOptions, priorityClassValue: (n: string) => (n === name ? value : undefined) };
  }
}
