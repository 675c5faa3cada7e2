// The reconcile of one PropagationPolicy or ClusterPropagationPolicy (Karmada's ReconcilePropagationPolicy and
// ReconcileClusterPropagationPolicy). A new policy gets its permanent-id label and finalizer (there is no
// mutating webhook). A policy being deleted releases what it claimed, bindings first, then drops its finalizer.
// A created or changed policy releases what it no longer matches, re-queues what it binds, wakes waiting
// templates it now matches, and preempts weaker claims when it may.
import { randomUUID } from 'node:crypto';
import {
  type ClusterPropagationPolicy,
  type ClusterResourceBinding,
  KarmadaResources,
  type ObjectReference,
  type PropagationPolicy,
  type ResourceBinding,
  type UnstructuredObject,
} from '@warmstart/api';
import { LOW_PRIORITY } from '@warmstart/workqueue';
import { permanentIdOf, readClaim, templateClaimChange, unclaimChange } from './claim.js';
import { patchMetadata, unclaimBindingThenTemplate } from './claim-writes.js';
import type { DetectorCache } from './detector-cache.js';
import type { DetectorContext } from './detector-context.js';
import { EventReasons } from './events.js';
import type { TemplateKey } from './keys.js';
import { isLazy } from './lazy-activation.js';
import { type ClaimingPolicy, explicitPriority } from './policy-choice.js';
import { defaultClusterPropagationPolicy, defaultPropagationPolicy } from './policy-defaults.js';
import {
  claiming,
  describePolicy,
  effectivePolicy,
  type PolicyKind,
  permanentIdLabel,
  policyFinalizer,
  policyResource,
} from './policy-kinds.js';
import { policyProblems } from './policy-validation.js';
import { preemptionDecision } from './preemption.js';
import { resourceMatchesSelectors } from './resource-selector.js';

type AnyPolicy = PropagationPolicy | ClusterPropagationPolicy;
type AnyBinding = ResourceBinding | ClusterResourceBinding;

function templateKeyOf(ref: ObjectReference, resourceChangeByKarmada: boolean): TemplateKey {
  const slash = ref.apiVersion.indexOf('/');
  return {
    group: slash < 0 ? '' : ref.apiVersion.slice(0, slash),
    version: slash < 0 ? ref.apiVersion : ref.apiVersion.slice(slash + 1),
    kind: ref.kind,
    namespace: ref.namespace ?? '',
    name: ref.name,
    resourceChangeByKarmada,
  };
}

function throwCollected(errors: readonly unknown[], what: string): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} errors while ${what}`);
}

/** The unknown kinds a #validate signature recorded (`<generation>|<invalid selectors>|<unknown kinds>`). */
export function unknownKindsOf(signature: string | undefined): string[] {
  const kinds = signature?.split('|')[2];
  return kinds ? kinds.split(';') : [];
}

export class PolicyReconciler {
  readonly #ctx: DetectorContext;
  readonly #cache: DetectorCache;
  /** Per policy uid, the generation and problems last reported, so a Warning is sent once per change. */
  readonly #reported: Map<string, string>;

  constructor(ctx: DetectorContext, cache: DetectorCache, reported: Map<string, string>) {
    this.#ctx = ctx;
    this.#cache = cache;
    this.#reported = reported;
  }

  async reconcile(kind: PolicyKind, key: string, signal: AbortSignal): Promise<void> {
    const slash = key.indexOf('/');
    const policy: AnyPolicy | undefined =
      kind === 'PropagationPolicy'
        ? await this.#cache.propagationPolicy(key.slice(0, slash), key.slice(slash + 1))
        : await this.#cache.clusterPropagationPolicy(key);
    if (policy === undefined) return;
    if (policy.metadata.deletionTimestamp) {
      if (policy.metadata.uid) this.#reported.delete(policy.metadata.uid);
      await this.#handleDeletion(claiming(kind, policy), signal);
      return;
    }
    const current = await this.#ensureIdAndFinalizer(claiming(kind, policy), signal);
    if (!this.#validate(current)) return;
    await this.#handleCreationOrUpdate(current, signal);
  }

  /** What the mutating webhook does on create: the permanent-id label and the finalizer, when absent. */
  async #ensureIdAndFinalizer(c: ClaimingPolicy, signal: AbortSignal): Promise<ClaimingPolicy> {
    const { metadata } = c.policy;
    const label = permanentIdLabel(c.kind);
    const finalizer = policyFinalizer(c.kind);
    const needsId = !metadata.labels?.[label];
    const needsFinalizer = !metadata.finalizers?.includes(finalizer);
    if (!needsId && !needsFinalizer) return c;
    const defaulted =
      c.kind === 'PropagationPolicy'
        ? defaultPropagationPolicy(c.policy, randomUUID)
        : defaultClusterPropagationPolicy(c.policy, randomUUID);
    const patch = {
      metadata: {
        // Finalizers are a list a merge patch replaces whole: only on the version it was computed from.
        resourceVersion: metadata.resourceVersion,
        ...(needsId ? { labels: { [label]: defaulted.metadata.labels?.[label] } } : {}),
        ...(needsFinalizer ? { finalizers: defaulted.metadata.finalizers } : {}),
      },
    };
    const updated = (await this.#ctx.writer.patch(
      policyResource(c.kind),
      { namespace: metadata.namespace, name: metadata.name ?? '' },
      { type: 'merge', patch },
      { signal },
    )) as AnyPolicy;
    this.#ctx.logger.info('set the permanent id and finalizer of a policy', {
      policy: describePolicy(c),
      permanentId: updated.metadata.labels?.[label],
    });
    return claiming(c.kind, updated);
  }

  /**
   * Reports problems once per policy generation. Returns false when a label selector is invalid: the policy then
   * matches nothing, and nothing it already claims is released because of it.
   */
  #validate(c: ClaimingPolicy): boolean {
    const problems = policyProblems(c.policy, this.#ctx.resources);
    const uid = c.policy.metadata.uid ?? '';
    const signature = `${c.policy.metadata.generation ?? 0}|${problems.invalidSelectors.join(';')}|${problems.unknownKinds.join(';')}`;
    const previous = this.#reported.get(uid);
    if (previous !== signature) {
      this.#reported.set(uid, signature);
      const name = describePolicy(c);
      // A kind the last Warning named that is served now: say so, so the Warning does not stand as the last word.
      const served = unknownKindsOf(previous).filter((k) => !problems.unknownKinds.includes(k));
      if (served.length > 0) {
        this.#ctx.emit(
          c.policy,
          'Normal',
          EventReasons.ResourceKindServed,
          `${name}: ${served.join(', ')} is served now; the UnknownResourceKind warning about it no longer holds`,
        );
      }
      if (problems.invalidSelectors.length > 0) {
        const message = `${name} matches nothing until fixed: ${problems.invalidSelectors.join('; ')}`;
        this.#ctx.logger.warn('policy has an invalid label selector', { policy: name, problems: message });
        this.#ctx.emit(c.policy, 'Warning', EventReasons.InvalidResourceSelector, message);
      }
      if (problems.unknownKinds.length > 0) {
        const message =
          `${name} selects ${problems.unknownKinds.join(', ')}, which the API server does not serve or the detector ` +
          'skips (--skipped-propagating-apis); those selectors match nothing until the kind is served';
        this.#ctx.logger.warn('policy selects an unknown kind', {
          policy: name,
          kinds: problems.unknownKinds,
        });
        this.#ctx.emit(c.policy, 'Warning', EventReasons.UnknownResourceKind, message);
      }
    }
    return problems.invalidSelectors.length === 0;
  }

  /** handlePolicyDeletion, then the finalizer's removal. */
  async #handleDeletion(c: ClaimingPolicy, signal: AbortSignal): Promise<void> {
    const { metadata } = c.policy;
    const finalizer = policyFinalizer(c.kind);
    if (!metadata.finalizers?.includes(finalizer)) return;
    const label = permanentIdLabel(c.kind);
    const id = metadata.labels?.[label];
    if (id) {
      const errors: unknown[] = [];
      const seen = new Set<string>();
      for (const selector of effectivePolicy(c).policy.spec.resourceSelectors) {
        const scope = `${selector.apiVersion}/${selector.kind}/${selector.namespace ?? ''}`;
        if (seen.has(scope)) continue;
        seen.add(scope);
        const gvr = this.#ctx.resources.byApiVersionKind(selector.apiVersion, selector.kind);
        if (gvr === undefined) continue;
        const templates = await this.#cache.templates(gvr, {
          namespace: selector.namespace,
          labels: { [label]: id },
        });
        for (const template of templates) {
          try {
            await unclaimBindingThenTemplate(
              this.#ctx.writer,
              this.#cache,
              gvr,
              template,
              c.kind,
              id,
              signal,
            );
          } catch (error) {
            errors.push(error);
          }
        }
      }
      throwCollected(errors, `releasing what ${describePolicy(c)} claimed`);
    }
    const remaining = (metadata.finalizers ?? []).filter((f) => f !== finalizer);
    await this.#ctx.writer.patch(
      policyResource(c.kind),
      { namespace: metadata.namespace, name: metadata.name ?? '' },
      {
        type: 'merge',
        patch: {
          metadata: {
            resourceVersion: metadata.resourceVersion,
            finalizers: remaining.length === 0 ? null : remaining,
          },
        },
      },
      { signal },
    );
    this.#ctx.logger.info('released a deleted policy', { policy: describePolicy(c) });
  }

  /** HandlePropagationPolicyCreationOrUpdate / HandleClusterPropagationPolicyCreationOrUpdate. */
  async #handleCreationOrUpdate(c: ClaimingPolicy, signal: AbortSignal): Promise<void> {
    const id = permanentIdOf(c);
    const effective = effectivePolicy(c);
    const selectors = effective.policy.spec.resourceSelectors;
    const lazy = isLazy(c.policy);
    const errors: unknown[] = [];

    // Release bound templates the policy no longer matches (template first, then binding), and re-queue the
    // others so a policy change reaches their bindings (with the Lazy flag when the policy is Lazy).
    for (const binding of await this.#boundBindings(c, id)) {
      try {
        const released = await this.#releaseIfUnmatched(c, id, binding, signal);
        if (!released) this.#ctx.enqueueTemplate(templateKeyOf(binding.spec.resource, lazy), LOW_PRIORITY);
      } catch (error) {
        errors.push(error);
      }
    }

    // Wake waiting templates the policy now matches.
    for (const key of this.#ctx.waiting.candidates(selectors)) {
      const gvr = this.#ctx.resources.byGroupVersionKind(key.group, key.version, key.kind);
      const template =
        gvr === undefined ? undefined : await this.#cache.template(gvr, key.namespace || undefined, key.name);
      if (template === undefined) {
        this.#ctx.waiting.remove(key);
        continue;
      }
      if (!resourceMatchesSelectors(template, selectors)) continue;
      this.#ctx.waiting.remove(key);
      this.#ctx.enqueueTemplate({ ...key, resourceChangeByKarmada: lazy }, LOW_PRIORITY);
    }

    if (this.#ctx.gates.policyPreemption && c.policy.spec.preemption === 'Always') {
      try {
        await this.#preempt(c, effective, signal);
      } catch (error) {
        errors.push(error);
      }
    }
    throwCollected(errors, `applying ${describePolicy(c)}`);
  }

  /** The bindings that carry the policy's claim: ResourceBindings (and, for a cluster policy, cluster ones). */
  async #boundBindings(c: ClaimingPolicy, id: string): Promise<AnyBinding[]> {
    const labels = { [permanentIdLabel(c.kind)]: id };
    if (c.kind === 'PropagationPolicy') {
      return this.#cache.resourceBindings({ namespace: c.policy.metadata.namespace, labels });
    }
    return [
      ...(await this.#cache.resourceBindings({ labels })),
      ...(await this.#cache.clusterResourceBindings({ labels })),
    ];
  }

  /** removeResourceMarksIfNotMatched, then the binding's claim. Returns whether the template was released. */
  async #releaseIfUnmatched(
    c: ClaimingPolicy,
    id: string,
    binding: AnyBinding,
    signal: AbortSignal,
  ): Promise<boolean> {
    const ref = binding.spec.resource;
    const gvr = this.#ctx.resources.byApiVersionKind(ref.apiVersion, ref.kind);
    if (gvr === undefined) return false;
    const template = await this.#cache.template(gvr, ref.namespace || undefined, ref.name);
    if (template === undefined) return false;
    if (resourceMatchesSelectors(template, effectivePolicy(c).policy.spec.resourceSelectors)) return false;
    const { writer } = this.#ctx;
    const templateChange = unclaimChange(template.metadata, c.kind, id);
    if (templateChange !== undefined) await patchMetadata(writer, gvr, template, templateChange, signal);
    const bindingChange = unclaimChange(binding.metadata, c.kind, id);
    if (bindingChange !== undefined) {
      const bindingGvr = binding.metadata.namespace
        ? KarmadaResources.ResourceBinding
        : KarmadaResources.ClusterResourceBinding;
      await patchMetadata(writer, bindingGvr, binding, bindingChange, signal);
    }
    return true;
  }

  /**
   * Preemption (HandlePropagationPolicyPreemption / HandleClusterPropagationPolicyPreemption): for each selector
   * that names one object, take the template from a weaker claim. The claim change produces an update event, and
   * the template's own reconcile then writes its binding.
   */
  async #preempt(c: ClaimingPolicy, effective: ClaimingPolicy, signal: AbortSignal): Promise<void> {
    const errors: unknown[] = [];
    for (const selector of effective.policy.spec.resourceSelectors) {
      if (!selector.name) continue;
      const gvr = this.#ctx.resources.byApiVersionKind(selector.apiVersion, selector.kind);
      if (gvr === undefined || (gvr.namespaced && !selector.namespace)) continue;
      const template = await this.#cache.template(
        gvr,
        gvr.namespaced ? selector.namespace : undefined,
        selector.name,
      );
      if (template === undefined) continue;
      const claimedPolicyPriority = await this.#claimedPolicyPriority(c.kind, template);
      if (claimedPolicyPriority === null) continue;
      const decision = preemptionDecision({
        preemptor: c,
        template: template.metadata,
        ...(claimedPolicyPriority === undefined ? {} : { claimedPolicyPriority }),
        policyPreemptionEnabled: true,
      });
      if (!decision.preempt) continue;
      const from =
        decision.from.kind === 'PropagationPolicy'
          ? `PropagationPolicy ${decision.from.namespace}/${decision.from.name}`
          : `ClusterPropagationPolicy ${decision.from.name}`;
      try {
        const change = templateClaimChange(template.metadata, c);
        if (change !== undefined) await patchMetadata(this.#ctx.writer, gvr, template, change, signal);
        this.#ctx.emit(
          template,
          'Normal',
          EventReasons.PreemptPolicySucceed,
          `${describePolicy(c)} preempted ${from}`,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.#ctx.emit(
          template,
          'Warning',
          EventReasons.PreemptPolicyFailed,
          `${describePolicy(c)} failed to preempt ${from}: ${message}`,
        );
        errors.push(error);
      }
    }
    throwCollected(errors, `preempting for ${describePolicy(c)}`);
  }

  /**
   * The explicit priority of the policy of `kind` that claims the template; undefined when the claim is of the
   * other kind or absent (the decision does not need it); null when the claiming policy is gone, in which case
   * the template's own reconcile removes the stale claim and normal matching follows.
   */
  async #claimedPolicyPriority(
    kind: PolicyKind,
    template: UnstructuredObject,
  ): Promise<number | undefined | null> {
    const claim = readClaim(template.metadata);
    if (claim === undefined || claim.kind !== kind) return undefined;
    const holder =
      claim.kind === 'PropagationPolicy'
        ? await this.#cache.propagationPolicy(claim.namespace, claim.name)
        : await this.#cache.clusterPropagationPolicy(claim.name);
    return holder === undefined ? null : explicitPriority(holder);
  }
}
