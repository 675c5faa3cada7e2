// The Webster (Sainte-Laguë) apportionment Karmada has used since v1.16 to divide replicas by weight
// (pkg/util/helper/webstermethod.go, binding.go Dispenser): each seat goes to the party with the highest
// votes / (2 × seats + 1). Ties are settled by a total order, so the result never depends on input order.
import { fnv32a } from '@warmstart/api';

/** One party: a cluster, its weight as votes, and the replicas it holds as seats. */
export interface Party {
  readonly name: string;
  readonly votes: number;
  readonly seats: number;
}

/** True when `a` should get the next seat before `b` at equal priority. */
export type TieBreaker = (a: Party, b: Party) => boolean;

// Karmada's default: fewer seats first (small clusters first helps availability), then the smaller name.
const defaultTieBreaker: TieBreaker = (a, b) => (a.seats !== b.seats ? a.seats < b.seats : a.name < b.name);

/**
 * Hand out `newSeats` seats one at a time on top of `initial`. A party in `initial` but not in `votes` keeps its
 * seats and gets no new one. The result lists every party, sorted by name; empty when there are no parties.
 * Priorities are compared as float64 quotients, exactly as Karmada compares them.
 */
export function allocateWebsterSeats(
  newSeats: number,
  votes: ReadonlyMap<string, number>,
  initial: ReadonlyMap<string, number> = new Map(),
  tieBreaker: TieBreaker = defaultTieBreaker,
): Party[] {
  const parties = new Map<string, { name: string; votes: number; seats: number }>();
  for (const [name, seats] of initial) parties.set(name, { name, votes: 0, seats });
  for (const [name, v] of votes) {
    const party = parties.get(name);
    if (party === undefined) parties.set(name, { name, votes: v, seats: 0 });
    else party.votes = v;
  }
  const list = [...parties.values()];
  if (list.length === 0) return [];
  // Karmada pops the top of a heap ordered by `before`; a linear scan for the top gives the same winner
  // because the order is total, and the party count is the cluster count, which is small.
  const before = (a: Party, b: Party): boolean => {
    const pa = a.votes / (2 * a.seats + 1);
    const pb = b.votes / (2 * b.seats + 1);
    return pa === pb ? tieBreaker(a, b) : pa > pb;
  };
  for (let remaining = newSeats; remaining > 0; remaining--) {
    let top = list[0]!;
    for (let i = 1; i < list.length; i++) if (before(list[i]!, top)) top = list[i]!;
    top.seats++;
  }
  return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Karmada's tie-breaker for a binding (tieBreakerByUID): fewer seats first, then names ascending, or descending
 * when fnv32a(uid) is odd, so equal clusters do not always favour the same name across workloads. Karmada seeds
 * it with the resource template's UID (spec.resource.uid); an empty UID sorts ascending.
 */
export function tieBreakerByUid(uid: string | undefined): TieBreaker {
  if (uid === undefined || uid === '') return defaultTieBreaker;
  if ((fnv32a(uid) & 1) === 1) {
    return (a, b) => (a.seats !== b.seats ? a.seats < b.seats : a.name > b.name);
  }
  return defaultTieBreaker;
}
