// What Work.status.manifestStatuses should say, from the member objects in the member's cache: per manifest
// whose object the member has, its identifier (Karmada's: `resource` left empty), the status Karmada's default
// interpreter reflects, and its health (work_status_controller.go's reflectStatus at f8fdd02). A manifest whose
// object is not on the member (yet) is left out, as Karmada records only objects it observed.
import type { ManifestStatus, ResourceIdentifier, UnstructuredObject, Work } from '@warmstart/api';
import { type MemberLookup, parseManifests } from './execution.js';
import { ReflectStatusError, reflectStatus } from './reflect-status.js';
import { interpretHealth } from './resource-health.js';

export interface ManifestStatusPlan {
  /** The statuses to record, in manifest order; undefined when no manifest's object could be read (no write). */
  readonly statuses: ManifestStatus[] | undefined;
  /** Member objects whose status could not be reflected: reported, and the Work is retried. */
  readonly errors: ReflectStatusError[];
}

export function planManifestStatuses(work: Readonly<Work>, lookup: MemberLookup): ManifestStatusPlan {
  const statuses: ManifestStatus[] = [];
  const errors: ReflectStatusError[] = [];
  for (const parsed of parseManifests(work)) {
    if (!parsed.ok) continue;
    const m = parsed.manifest;
    const cached = lookup(m);
    if (cached === undefined) continue;
    // The kind the manifest was applied as: the member object is read through the informer of that version.
    const object: Readonly<UnstructuredObject> = { ...cached, apiVersion: m.apiVersion, kind: m.kind };
    let reflected: ReturnType<typeof reflectStatus>;
    try {
      reflected = reflectStatus(object);
    } catch (error) {
      if (!(error instanceof ReflectStatusError)) throw error;
      errors.push(error);
      continue;
    }
    const identifier: ResourceIdentifier = {
      ordinal: m.ordinal,
      ...(m.group !== '' ? { group: m.group } : {}),
      version: m.version,
      kind: m.kind,
      resource: '',
      ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
      name: m.name,
    };
    statuses.push({
      identifier,
      ...(reflected.status !== undefined ? { status: reflected.status } : {}),
      health: interpretHealth(object),
    });
  }
  return { statuses: statuses.length > 0 ? statuses : undefined, errors };
}
