// --skipped-propagating-apis (Karmada's SkippedResourceConfig): API groups, group-versions and kinds the
// detector never watches. Tokens are ';'-separated:
//   <group>                        e.g. networking.k8s.io
//   <group>/<version>              e.g. networking.k8s.io/v1beta1
//   v1/<Kind>[,<Kind>...]          core kinds, e.g. v1/Node,Pod
//   <group>/<version>/<Kind>[,<Kind>...]   e.g. networking.k8s.io/v1/Ingress,IngressClass
import { InvalidFlagError } from './errors.js';

const FLAG = 'skipped-propagating-apis';

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** Karmada's own groups and the event and lease APIs, skipped whatever the flag says. */
export const DEFAULT_SKIPPED_GROUPS: readonly string[] = [
  'cluster.karmada.io',
  'policy.karmada.io',
  'work.karmada.io',
  'config.karmada.io',
  'networking.karmada.io',
  'autoscaling.karmada.io',
  'remedy.karmada.io',
  'apps.karmada.io',
  'events.k8s.io',
];
export const DEFAULT_SKIPPED_GROUP_VERSIONS: readonly string[] = ['coordination.k8s.io/v1'];
export const DEFAULT_SKIPPED_KINDS: readonly GroupVersionKind[] = [
  { group: '', version: 'v1', kind: 'Event' },
];

const gvKey = (group: string, version: string): string => `${group}/${version}`;
const gvkKey = (group: string, version: string, kind: string): string => `${group}/${version}/${kind}`;

/** The parsed skip list. */
export class SkippedResourceConfig {
  readonly #groups = new Set<string>();
  readonly #groupVersions = new Set<string>();
  readonly #kinds = new Set<string>();

  constructor() {
    for (const g of DEFAULT_SKIPPED_GROUPS) this.#groups.add(g);
    for (const gv of DEFAULT_SKIPPED_GROUP_VERSIONS) this.#groupVersions.add(gv);
    for (const k of DEFAULT_SKIPPED_KINDS) this.#kinds.add(gvkKey(k.group, k.version, k.kind));
  }

  disableGroup(group: string): void {
    this.#groups.add(group);
  }

  disableGroupVersion(group: string, version: string): void {
    this.#groupVersions.add(gvKey(group, version));
  }

  disableKind(group: string, version: string, kind: string): void {
    this.#kinds.add(gvkKey(group, version, kind));
  }

  groupDisabled(group: string): boolean {
    return this.#groups.has(group);
  }

  groupVersionDisabled(group: string, version: string): boolean {
    return this.#groupVersions.has(gvKey(group, version));
  }

  kindDisabled(group: string, version: string, kind: string): boolean {
    return this.#kinds.has(gvkKey(group, version, kind));
  }

  /**
   * Whether the detector should skip a resource (gvrDisabled): its group-version or group is disabled, or any
   * of the kinds it serves is.
   */
  resourceDisabled(
    resource: { readonly group: string; readonly version: string },
    kinds: readonly string[],
  ): boolean {
    const { group, version } = resource;
    return (
      this.groupVersionDisabled(group, version) ||
      this.groupDisabled(group) ||
      kinds.some((kind) => this.kindDisabled(group, version, kind))
    );
  }
}

function parseToken(config: SkippedResourceConfig, token: string): void {
  const slashes = token.split('/').length - 1;
  if (token === '') {
    // Karmada would read an empty token (e.g. from a trailing ';') as the core group and skip all of it.
    throw new InvalidFlagError(
      FLAG,
      'empty entry (check for a stray ";"); the core group cannot be skipped whole',
    );
  }
  if (slashes === 0) {
    config.disableGroup(token);
    return;
  }
  if (slashes === 1) {
    if (token.startsWith('v1')) {
      for (const part of token.split(',')) {
        config.disableKind('', 'v1', part.includes('/') ? part.split('/')[1]! : part);
      }
      return;
    }
    const [group, version] = token.split('/') as [string, string];
    config.disableGroupVersion(group, version);
    return;
  }
  if (slashes === 2) {
    let group = '';
    let version = '';
    const kinds: string[] = [];
    for (const part of token.split(',')) {
      if (!part.includes('/')) {
        kinds.push(part);
        continue;
      }
      const pieces = part.split('/');
      if (pieces.length !== 3) {
        throw new InvalidFlagError(FLAG, `"${token}": each "/" entry must read <group>/<version>/<Kind>`);
      }
      [group, version] = pieces as [string, string, string];
      kinds.push(pieces[2]!);
    }
    // As in Karmada, bare kinds take the group and version of the last "<group>/<version>/<Kind>" entry.
    for (const kind of kinds) config.disableKind(group, version, kind);
    return;
  }
  throw new InvalidFlagError(FLAG, `"${token}": too many "/" (expected at most <group>/<version>/<Kind>)`);
}

/** Parses the flag's value on top of the built-in skip list. Throws InvalidFlagError. */
export function parseSkippedPropagatingApis(value: string): SkippedResourceConfig {
  const config = new SkippedResourceConfig();
  if (value === '') return config;
  for (const token of value.split(';')) parseToken(config, token);
  return config;
}
