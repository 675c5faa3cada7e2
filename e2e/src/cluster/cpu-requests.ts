// A kubelet turns each container's CPU request into its cgroup's CPU weight, so under contention every process
// gets the share it asked for. The local provider runs everything in one cgroup, where the manager competes with
// the API servers and etcd as an equal: on two shared cores its event loop then waits for a core behind them.
// CpuRequestGroups gives each role the weight a kubelet would, so a bench can be run the way a cluster schedules it.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive } from './supervisor.js';

export const CPU_ROLES = ['manager', 'kube-apiserver', 'etcd', 'kube-controller-manager'] as const;
export type CpuRole = (typeof CPU_ROLES)[number];

export class CpuRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CpuRequestError';
  }
}

/**
 * Parses `role=quantity` requests (`manager=1`, `etcd=100m`), as the bench's `--cpu-request` takes them.
 * A role given twice is an error rather than a silent override.
 */
export function parseCpuRequests(specs: readonly string[]): ReadonlyMap<CpuRole, number> {
  const out = new Map<CpuRole, number>();
  for (const spec of specs) {
    const at = spec.indexOf('=');
    const role = spec.slice(0, at);
    if (at < 1 || !(CPU_ROLES as readonly string[]).includes(role))
      throw new CpuRequestError(
        `--cpu-request takes ROLE=QUANTITY with ROLE one of ${CPU_ROLES.join(', ')} (e.g. manager=1 or etcd=100m), not "${spec}"`,
      );
    const milli = parseMilliCpu(spec.slice(at + 1));
    if (milli === undefined)
      throw new CpuRequestError(
        `--cpu-request ${role}: "${spec.slice(at + 1)}" is not a CPU quantity; write cores (1, 0.5) or millicores (250m)`,
      );
    if (out.has(role as CpuRole)) throw new CpuRequestError(`--cpu-request ${role} is given twice`);
    out.set(role as CpuRole, milli);
  }
  return out;
}

function parseMilliCpu(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(text);
  if (m === null) return undefined;
  const milli = m[2] === 'm' ? Number(m[1]) : Number(m[1]) * 1000;
  return Number.isInteger(milli) && milli > 0 ? milli : undefined;
}

/** cgroup v1 `cpu.shares` for a request, as the kubelet computes it (minimum 2). */
export function sharesForMilliCpu(milli: number): number {
  return Math.max(2, Math.floor((milli * 1024) / 1000));
}

/** cgroup v2 `cpu.weight` for those shares: the kubelet's linear map of [2, 262144] onto [1, 10000]. */
export function weightForShares(shares: number): number {
  return 1 + Math.floor(((shares - 2) * 9999) / 262142);
}

export interface LaunchVia {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * A shell that writes its own pid to `procs` (a cgroup's `cgroup.procs`) and then execs `command args`: the
 * command runs in the group from its first instruction, every thread with it, under the shell's pid.
 */
export function joinGroupVia(procs: string, command: string, args: readonly string[]): LaunchVia {
  return {
    command: '/bin/sh',
    args: ['-c', 'echo $$ > "$1" && shift && exec "$@"', 'sh', procs, command, ...args],
  };
}

const GROUP_PREFIX = 'warmstart-bench-';

/**
 * Removes the groups of benches that are gone (a bench stopped by a signal leaves its empty groups behind, and
 * cgroup directories last until reboot). A group with a process still in it is left: the kernel refuses.
 */
function removeStaleGroups(root: string): void {
  for (const entry of readdirSync(root)) {
    if (!entry.startsWith(GROUP_PREFIX)) continue;
    const pid = Number(entry.slice(GROUP_PREFIX.length));
    if (!Number.isInteger(pid) || alive(pid)) continue;
    const dir = join(root, entry);
    try {
      for (const child of readdirSync(dir, { withFileTypes: true }))
        if (child.isDirectory()) rmdirSync(join(dir, child.name));
      rmdirSync(dir);
    } catch {
      // Still in use, or not ours to remove: leave it.
    }
  }
}

type Hierarchy = { readonly version: 1 | 2; readonly root: string };

function findCpuHierarchy(cgroupRoot: string): Hierarchy | undefined {
  // Hybrid hosts (cgroup v1 controllers, an empty v2 tree beside them) are common on VMs: prefer the tree that
  // actually has the cpu controller.
  if (existsSync(join(cgroupRoot, 'cpu', 'cpu.shares'))) return { version: 1, root: join(cgroupRoot, 'cpu') };
  const controllers = join(cgroupRoot, 'cgroup.controllers');
  if (existsSync(controllers) && readFileSync(controllers, 'utf8').split(/\s+/).includes('cpu'))
    return { version: 2, root: cgroupRoot };
  return undefined;
}

/** This process's group in `hierarchy`, from /proc/self/cgroup ("/" when it cannot be told). */
function ownGroup(hierarchy: Hierarchy): string {
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, controllers, path] = line.split(':');
    if (path === undefined) continue;
    if (hierarchy.version === 2 ? controllers === '' : controllers?.split(',').includes('cpu')) return path;
  }
  return '/';
}

/**
 * One cgroup per requested role (or per instance of it, as each pod has its own) under
 * `<cpu hierarchy>/warmstart-bench-<pid>`, weighted like the kubelet's.
 * Processes join by starting through `via`, so every thread is in the group from the first instruction
 * and a restarted process joins again. Roles without a request stay where they were.
 */
export class CpuRequestGroups {
  readonly #requests: ReadonlyMap<CpuRole, number>;
  readonly #hierarchy: Hierarchy;
  readonly #dir: string;
  readonly #made = new Set<string>();

  private constructor(requests: ReadonlyMap<CpuRole, number>, hierarchy: Hierarchy, dir: string) {
    this.#requests = requests;
    this.#hierarchy = hierarchy;
    this.#dir = dir;
  }

  /** Creates the groups and sets their weights; throws CpuRequestError when this machine cannot. */
  static create(requests: ReadonlyMap<CpuRole, number>, cgroupRoot = '/sys/fs/cgroup'): CpuRequestGroups {
    const hierarchy = findCpuHierarchy(cgroupRoot);
    if (hierarchy === undefined)
      throw new CpuRequestError(
        `no cgroup hierarchy with the cpu controller under ${cgroupRoot}; run without --cpu-request, or on a host whose cgroups can be written`,
      );
    removeStaleGroups(hierarchy.root);
    const dir = join(hierarchy.root, `${GROUP_PREFIX}${process.pid}`);
    const groups = new CpuRequestGroups(requests, hierarchy, dir);
    try {
      mkdirSync(dir, { recursive: true });
      // cgroup v2 hands the cpu controller to children only when the parent enables it for them.
      if (hierarchy.version === 2) writeFileSync(join(dir, 'cgroup.subtree_control'), '+cpu');
      for (const role of requests.keys()) groups.#group(role);
    } catch (error) {
      throw new CpuRequestError(
        `could not set up CPU requests under ${dir} (${error instanceof Error ? error.message : String(error)}); the bench needs root and a writable cgroup tree for --cpu-request`,
      );
    }
    return groups;
  }

  /**
   * The `cgroup.procs` file of `role`'s group (of `instance`'s own, like a pod of its own, when one is named),
   * created on first use; undefined for a role without a request.
   */
  procsFile(role: CpuRole, instance?: string): string | undefined {
    return this.#requests.has(role) ? join(this.#group(role, instance), 'cgroup.procs') : undefined;
  }

  /** How to start `command args` inside that group (see joinGroupVia); undefined for a role without a request. */
  via(role: CpuRole, command: string, args: readonly string[], instance?: string): LaunchVia | undefined {
    const procs = this.procsFile(role, instance);
    return procs === undefined ? undefined : joinGroupVia(procs, command, args);
  }

  #group(role: CpuRole, instance?: string): string {
    const name = instance === undefined ? role : `${role}-${instance}`;
    const group = join(this.#dir, name);
    if (this.#made.has(name)) return group;
    const milli = this.#requests.get(role) ?? 0;
    mkdirSync(group, { recursive: true });
    const shares = sharesForMilliCpu(milli);
    if (this.#hierarchy.version === 1) writeFileSync(join(group, 'cpu.shares'), String(shares));
    else writeFileSync(join(group, 'cpu.weight'), String(weightForShares(shares)));
    this.#made.add(name);
    return group;
  }

  /**
   * Runs `fn` with this process inside `role`'s group, then moves it back: a measurement standing in for that role
   * (the bench's readiness floor stands in for the manager) then gets the same share. Children started meanwhile
   * stay in the group, so start none that should not.
   */
  async within<T>(role: CpuRole, fn: () => Promise<T>): Promise<T> {
    const procs = this.procsFile(role);
    if (procs === undefined) return fn();
    const home = join(this.#hierarchy.root, ownGroup(this.#hierarchy), 'cgroup.procs');
    writeFileSync(procs, String(process.pid));
    try {
      return await fn();
    } finally {
      writeFileSync(home, String(process.pid));
    }
  }

  /** What was requested, for the notes under a table: "manager 1000m (cpu.shares 1024), ...". */
  describe(): string {
    const unit = this.#hierarchy.version === 1 ? 'cpu.shares' : 'cpu.weight';
    return [...this.#requests]
      .map(([role, milli]) => {
        const shares = sharesForMilliCpu(milli);
        return `${role} ${milli}m (${unit} ${this.#hierarchy.version === 1 ? shares : weightForShares(shares)})`;
      })
      .join(', ');
  }

  /** Removes the groups; call once their processes are gone (a group with a process left in it stays). */
  remove(): void {
    for (const name of this.#made) {
      try {
        rmdirSync(join(this.#dir, name));
      } catch {
        // A process still in it: the kernel refuses, and the empty group costs nothing until the next boot.
      }
    }
    try {
      rmdirSync(this.#dir);
    } catch {
      // As above.
    }
  }
}
