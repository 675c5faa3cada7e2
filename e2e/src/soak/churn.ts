// The soak's churn as a model: which operation comes next (create, update of replicas, delete) on which name,
// and what each name should look like on every member once the manager has caught up. Names come from a fixed
// pool, so a name is deleted and created again during a run (the recreate race is part of the soak).

export type ChurnOp =
  | { readonly kind: 'create'; readonly name: string; readonly replicas: number }
  | { readonly kind: 'update'; readonly name: string; readonly replicas: number }
  | { readonly kind: 'delete'; readonly name: string };

/** mulberry32: small, seedable, good enough to pick operations. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export function soakName(i: number): string {
  return `soak-${i.toString().padStart(4, '0')}`;
}

export class ChurnModel {
  /** name -> replicas the members should have; a name absent here should be absent from the members. */
  readonly #expected = new Map<string, number>();
  readonly #inFlight = new Set<string>();
  readonly #pool: readonly string[];
  readonly #population: number;
  readonly #random: () => number;

  constructor(population: number, random: () => number) {
    this.#population = population;
    this.#random = random;
    this.#pool = Array.from({ length: Math.ceil(population * 1.5) }, (_, i) => soakName(i));
  }

  get live(): number {
    return this.#expected.size;
  }

  /** Every name ever in play and its expected replicas (undefined: absent). */
  expected(): ReadonlyMap<string, number | undefined> {
    const out = new Map<string, number | undefined>();
    for (const n of this.#pool) out.set(n, this.#expected.get(n));
    return out;
  }

  /**
   * The next operation, on a name with no operation in flight, or undefined when every candidate is busy.
   * Below the target population creates dominate; above it, deletes do; updates always change the replicas.
   */
  next(): ChurnOp | undefined {
    const idle = this.#pool.filter((n) => !this.#inFlight.has(n));
    const present = idle.filter((n) => this.#expected.has(n));
    const absent = idle.filter((n) => !this.#expected.has(n));
    const below = this.#expected.size < this.#population;
    const r = this.#random();
    const [pCreate, pUpdate] = below ? [0.5, 0.35] : [0.2, 0.5];
    const pick = (names: readonly string[]) => names[Math.floor(this.#random() * names.length)];
    const replicas = (not?: number) => {
      const n = 1 + Math.floor(this.#random() * 9);
      return n === not ? (n % 9) + 1 : n;
    };
    let op: ChurnOp | undefined;
    if ((r < pCreate || present.length === 0) && absent.length > 0) {
      op = { kind: 'create', name: pick(absent)!, replicas: replicas() };
    } else if (present.length > 0 && r < pCreate + pUpdate) {
      const name = pick(present)!;
      op = { kind: 'update', name, replicas: replicas(this.#expected.get(name)) };
    } else if (present.length > 0) {
      op = { kind: 'delete', name: pick(present)! };
    }
    if (op) this.#inFlight.add(op.name);
    return op;
  }

  /** The API server accepted the operation: the members must follow. */
  applied(op: ChurnOp): void {
    this.#inFlight.delete(op.name);
    if (op.kind === 'delete') this.#expected.delete(op.name);
    else this.#expected.set(op.name, op.replicas);
  }

  /** The API server refused it (or it timed out without an answer): the expected state stays as it was. */
  failed(op: ChurnOp): void {
    this.#inFlight.delete(op.name);
  }
}

export interface Mismatch {
  readonly cluster: string;
  readonly name: string;
  readonly expected: number | 'absent';
  readonly actual: number | 'absent';
}

/** Differences between what a member has (name -> replicas) and what it should have. */
export function mismatches(
  cluster: string,
  expected: ReadonlyMap<string, number | undefined>,
  actual: ReadonlyMap<string, number>,
): Mismatch[] {
  const out: Mismatch[] = [];
  for (const [name, want] of expected) {
    const got = actual.get(name);
    if (got !== want) out.push({ cluster, name, expected: want ?? 'absent', actual: got ?? 'absent' });
  }
  for (const [name, got] of actual)
    if (!expected.has(name)) out.push({ cluster, name, expected: 'absent', actual: got });
  return out;
}
