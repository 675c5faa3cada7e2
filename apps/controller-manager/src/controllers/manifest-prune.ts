// The fields the control plane's API server filled in that must not travel to a member cluster, removed the way
// Karmada's prune.RemoveIrrelevantFields (+ RemoveJobTTLSeconds) does before a template goes into a Work.
import { isRecord, type JsonObject } from './json.js';

const SERVER_SET_METADATA = [
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'managedFields',
  'resourceVersion',
  'selfLink',
  'uid',
  'ownerReferences',
  'finalizers',
] as const;

// The Job controller's selector labels; Kubernetes 1.27+ sets the batch.kubernetes.io/ form beside the old one.
const JOB_SELECTOR_LABELS = ['controller-uid', 'batch.kubernetes.io/controller-uid'] as const;
const JOB_TEMPLATE_LABELS = [...JOB_SELECTOR_LABELS, 'job-name', 'batch.kubernetes.io/job-name'] as const;

/**
 * Remove what the API server set on `object`. The top-level object is changed in place (pass one you own); every
 * nested object it changes is replaced by a changed copy first, so the rest may still be shared with a frozen
 * cached template: the binding controller copies only what it stamps, not the whole template, per member.
 */
export function pruneServerFields(object: JsonObject): void {
  const metadata = object.metadata;
  if (isRecord(metadata)) {
    const kept: JsonObject = { ...metadata };
    for (const field of SERVER_SET_METADATA) delete kept[field];
    object.metadata = kept;
  }
  delete object.status;

  const kind = object.kind;
  if (kind === 'Service' && isRecord(object.spec)) {
    const spec = object.spec;
    // A headless Service's clusterIP None is the user's choice; any other address was allocated here.
    if (typeof spec.clusterIP === 'string' && spec.clusterIP !== 'None') {
      const { clusterIP: _ip, clusterIPs: _ips, ...rest } = spec;
      object.spec = rest;
    }
  }
  if (kind === 'Job' && isRecord(object.spec)) {
    const spec: JsonObject = { ...object.spec };
    object.spec = spec;
    if (spec.manualSelector !== true) {
      // The selector and pod labels carry this Job's uid on the control plane, which means nothing elsewhere.
      const selector = spec.selector;
      if (isRecord(selector) && isRecord(selector.matchLabels)) {
        spec.selector = { ...selector, matchLabels: withoutKeys(selector.matchLabels, JOB_SELECTOR_LABELS) };
      }
      const template = spec.template;
      if (isRecord(template) && isRecord(template.metadata) && isRecord(template.metadata.labels)) {
        spec.template = {
          ...template,
          metadata: {
            ...template.metadata,
            labels: withoutKeys(template.metadata.labels, JOB_TEMPLATE_LABELS),
          },
        };
      }
    }
    // A member's TTL controller would delete the finished Job and Karmada would create it again (issue #2197).
    delete spec.ttlSecondsAfterFinished;
  }
  if (kind === 'ServiceAccount' && Array.isArray(object.secrets)) {
    const generated = `${isRecord(metadata) && typeof metadata.name === 'string' ? metadata.name : ''}-token-`;
    object.secrets = object.secrets.filter(
      (s) => !(isRecord(s) && typeof s.name === 'string' && s.name.startsWith(generated)),
    );
  }
}

function withoutKeys(map: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = { ...map };
  for (const key of keys) delete out[key];
  return out;
}
