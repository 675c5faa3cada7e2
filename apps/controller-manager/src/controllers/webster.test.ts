// Karmada conformance: the Webster apportionment and the Dispenser built on it, with the cases of
// pkg/util/helper/webstermethod_test.go and binding_test.go at Karmada commit f8fdd02df3760fd9521624f284877fa84e7be6ef.
import { describe, expect, it } from 'vitest';
import { allocateWebsterSeats, type Party, type TieBreaker, tieBreakerByUid } from './webster.js';

const WEBSTER_TEST = 'pkg/util/helper/webstermethod_test.go';
const BINDING_TEST = 'pkg/util/helper/binding_test.go';

// binding_test.go's UIDs: fnv32a of the first is even, of the second odd.
const EVEN_UID = '4858ca61-3ff8-4095-8267-f3d059d8074c';
const ODD_UID = 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c';

const votes = (entries: Record<string, number>): Map<string, number> => new Map(Object.entries(entries));

describe(`${WEBSTER_TEST} ExampleAllocateWebsterSeats`, () => {
  it('gives 4 seats to 1200/900/400 votes as 2/1/1', () => {
    const result = allocateWebsterSeats(4, votes({ Alpha: 1200, Beta: 900, Gamma: 400 }));
    expect(result.map((p) => [p.name, p.seats])).toEqual([
      ['Alpha', 2],
      ['Beta', 1],
      ['Gamma', 1],
    ]);
  });
});

describe(`${WEBSTER_TEST} TestAllocateWebsterSeats`, () => {
  const classic = { PartyA: 100000, PartyB: 80000, PartyC: 30000, PartyD: 20000 };
  // Seats after each round of the classic Sainte-Laguë example (230,000 voters, 8 seats).
  const rounds: Array<[number, number, number, number]> = [
    [1, 0, 0, 0],
    [1, 1, 0, 0],
    [2, 1, 0, 0],
    [2, 1, 1, 0],
    [2, 2, 1, 0],
    [2, 2, 1, 1],
    [3, 2, 1, 1],
    [3, 3, 1, 1],
  ];
  it.each(rounds.map((seats, i) => [i + 1, seats] as const))('classic example, round %i', (round, seats) => {
    const result = allocateWebsterSeats(round, votes(classic));
    expect(result).toEqual([
      { name: 'PartyA', votes: 100000, seats: seats[0] },
      { name: 'PartyB', votes: 80000, seats: seats[1] },
      { name: 'PartyC', votes: 30000, seats: seats[2] },
      { name: 'PartyD', votes: 20000, seats: seats[3] },
    ]);
  });

  const byName: TieBreaker = (a, b) => a.name < b.name;
  const byNameDescending: TieBreaker = (a, b) => a.name > b.name;
  const cases: Array<{
    name: string;
    newSeats: number;
    partyVotes: Record<string, number>;
    initial?: Record<string, number>;
    tieBreaker?: TieBreaker;
    expected: Party[];
  }> = [
    { name: 'empty party votes, expect nil result', newSeats: 1, partyVotes: {}, expected: [] },
    {
      name: 'party votes not empty, newSeats is 0, expect all seats 0',
      newSeats: 0,
      partyVotes: { PartyA: 100, PartyB: 200 },
      expected: [
        { name: 'PartyA', votes: 100, seats: 0 },
        { name: 'PartyB', votes: 200, seats: 0 },
      ],
    },
    {
      name: 'both party votes and newSeats are 0, expect nil result',
      newSeats: 0,
      partyVotes: {},
      expected: [],
    },
    {
      name: 'tie-breaker is nil, expect break tie by seats',
      newSeats: 1,
      partyVotes: { PartyA: 3, PartyB: 1 },
      initial: { PartyA: 1, PartyB: 0 },
      expected: [
        { name: 'PartyA', votes: 3, seats: 1 },
        { name: 'PartyB', votes: 1, seats: 1 },
      ],
    },
    {
      name: 'tie-breaker is nil, expect break tie by name',
      newSeats: 1,
      partyVotes: { PartyA: 1, PartyB: 1 },
      expected: [
        { name: 'PartyA', votes: 1, seats: 1 },
        { name: 'PartyB', votes: 1, seats: 0 },
      ],
    },
    {
      name: 'custom tie-breaker returns true, expect custom tie-breaker controls seat',
      newSeats: 1,
      partyVotes: { PartyA: 1, PartyB: 1 },
      tieBreaker: byName,
      expected: [
        { name: 'PartyA', votes: 1, seats: 1 },
        { name: 'PartyB', votes: 1, seats: 0 },
      ],
    },
    {
      name: 'custom tie-breaker returns false, expect custom tie-breaker controls seat',
      newSeats: 1,
      partyVotes: { PartyA: 1, PartyB: 1 },
      tieBreaker: byNameDescending,
      expected: [
        { name: 'PartyA', votes: 1, seats: 0 },
        { name: 'PartyB', votes: 1, seats: 1 },
      ],
    },
    {
      name: 'non-initial allocation, new party joins, only new party gets new seats',
      newSeats: 2,
      partyVotes: { NewParty1: 1, NewParty2: 1 },
      initial: { OldParty: 0 },
      expected: [
        { name: 'NewParty1', votes: 1, seats: 1 },
        { name: 'NewParty2', votes: 1, seats: 1 },
        { name: 'OldParty', votes: 0, seats: 0 },
      ],
    },
    {
      name: 'non-initial allocation, both new and old parties compete for new seats',
      newSeats: 2,
      partyVotes: { OldParty: 1, NewParty: 1 },
      initial: { OldParty: 1 },
      expected: [
        { name: 'NewParty', votes: 1, seats: 2 },
        { name: 'OldParty', votes: 1, seats: 1 },
      ],
    },
    {
      name: 'non-initial allocation, initialAssignments party not in partyVotes, expect no new seats for that party',
      newSeats: 2,
      partyVotes: { PartyA: 100 },
      initial: { PartyB: 3 },
      expected: [
        { name: 'PartyA', votes: 100, seats: 2 },
        { name: 'PartyB', votes: 0, seats: 3 },
      ],
    },
  ];
  it.each(cases)('$name', (c) => {
    const initial = c.initial === undefined ? undefined : votes(c.initial);
    expect(allocateWebsterSeats(c.newSeats, votes(c.partyVotes), initial, c.tieBreaker)).toEqual(c.expected);
  });

  it('does not depend on the order the parties are given in', () => {
    const forward = allocateWebsterSeats(7, votes({ a: 1, b: 1, c: 1 }));
    const backward = allocateWebsterSeats(7, new Map([...votes({ a: 1, b: 1, c: 1 })].reverse()));
    expect(backward).toEqual(forward);
  });
});

// Karmada's Dispenser.AllocateByWeight: the Webster method on top of an initial assignment, ties by UID.
function allocateByWeight(
  newReplicas: number,
  initial: Record<string, number> | undefined,
  weights: Record<string, number>,
  uid: string,
): Array<[string, number]> {
  const init = initial === undefined ? undefined : votes(initial);
  return allocateWebsterSeats(newReplicas, votes(weights), init, tieBreakerByUid(uid)).map((p) => [
    p.name,
    p.seats,
  ]);
}

describe(`${BINDING_TEST} Test_dispenser_AllocateByWeight`, () => {
  const cases: Array<{
    name: string;
    newReplicas: number;
    uid: string;
    initial?: Record<string, number>;
    weights: Record<string, number>;
    desired: Array<[string, number]>;
  }> = [
    {
      name: 'Scale up 6 replicas',
      newReplicas: 6,
      uid: '',
      initial: { A: 1, B: 2, C: 3 },
      weights: { A: 1, B: 2, C: 3 },
      desired: [
        ['A', 2],
        ['B', 4],
        ['C', 6],
      ],
    },
    {
      name: 'Scale up 3 replicas',
      newReplicas: 3,
      uid: '',
      initial: { A: 1, B: 2, C: 3 },
      weights: { A: 1, B: 2, C: 3 },
      desired: [
        ['A', 2],
        ['B', 3],
        ['C', 4],
      ],
    },
    {
      name: 'Scale up 2 replicas',
      newReplicas: 2,
      uid: '',
      initial: { A: 1, B: 2, C: 3 },
      weights: { A: 1, B: 2, C: 3 },
      desired: [
        ['A', 1],
        ['B', 3],
        ['C', 4],
      ],
    },
    {
      name: 'HA scenario with weight 2:1: assign 1 replica',
      newReplicas: 1,
      uid: '',
      weights: { A: 2, B: 1 },
      desired: [
        ['A', 1],
        ['B', 0],
      ],
    },
    {
      name: 'HA scenario with weight 2:1: assign 2 replicas',
      newReplicas: 2,
      uid: '',
      weights: { A: 2, B: 1 },
      desired: [
        ['A', 1],
        ['B', 1],
      ],
    },
    {
      name: 'HA scenario with weight 2:1: assign 3 replicas',
      newReplicas: 3,
      uid: '',
      weights: { A: 2, B: 1 },
      desired: [
        ['A', 2],
        ['B', 1],
      ],
    },
    {
      name: 'brand new assign 5 replicas',
      newReplicas: 5,
      uid: '',
      weights: { A: 170, B: 110, C: 60 },
      desired: [
        ['A', 2],
        ['B', 2],
        ['C', 1],
      ],
    },
    {
      name: 'brand new assign 6 replicas',
      newReplicas: 6,
      uid: '',
      weights: { A: 170, B: 110, C: 60 },
      desired: [
        ['A', 3],
        ['B', 2],
        ['C', 1],
      ],
    },
    {
      name: 'brand new assign 5 replicas with odd uuid',
      newReplicas: 5,
      uid: ODD_UID,
      weights: { A: 1, B: 1 },
      desired: [
        ['A', 2],
        ['B', 3],
      ],
    },
    {
      name: 'brand new assign 5 replicas with even uuid',
      newReplicas: 5,
      uid: EVEN_UID,
      weights: { A: 1, B: 1 },
      desired: [
        ['A', 3],
        ['B', 2],
      ],
    },
  ];
  it.each(cases)('$name', (c) => {
    expect(allocateByWeight(c.newReplicas, c.initial, c.weights, c.uid)).toEqual(c.desired);
  });
});

describe(`${BINDING_TEST} TestDispenseReplicasByTargetClusters`, () => {
  // SpreadReplicasByTargetClusters: the clusters' current replicas are the weights, with no initial seats.
  const cases: Array<{
    name: string;
    weights: Record<string, number>;
    sum: number;
    wants: Array<Array<[string, number]>>;
  }> = [
    { name: 'empty clusters', weights: {}, sum: 10, wants: [[]] },
    { name: '1 cluster, 5 replicas, 10 sum', weights: { member1: 5 }, sum: 10, wants: [[['member1', 10]]] },
    {
      name: '3 cluster, 1:1:1, 12 sum',
      weights: { member1: 5, member2: 5, member3: 5 },
      sum: 12,
      wants: [
        [
          ['member1', 4],
          ['member2', 4],
          ['member3', 4],
        ],
      ],
    },
    {
      name: '3 cluster, 1:1:1, 10 sum',
      weights: { member1: 5, member2: 5, member3: 5 },
      sum: 10,
      // Karmada accepts any of three; with an empty UID its tie-breaker always picks the first.
      wants: [
        [
          ['member1', 4],
          ['member2', 3],
          ['member3', 3],
        ],
        [
          ['member1', 3],
          ['member2', 4],
          ['member3', 3],
        ],
        [
          ['member1', 3],
          ['member2', 3],
          ['member3', 4],
        ],
      ],
    },
    {
      name: '3 cluster, 1:2:3, 13 sum',
      weights: { member1: 1, member2: 2, member3: 3 },
      sum: 13,
      wants: [
        [
          ['member1', 2],
          ['member2', 4],
          ['member3', 7],
        ],
      ],
    },
  ];
  it.each(cases)('$name', (c) => {
    expect(c.wants).toContainEqual(allocateByWeight(c.sum, undefined, c.weights, ''));
  });
});

describe('tieBreakerByUid', () => {
  it('sorts names ascending for an empty UID and for an even fnv32a, descending for an odd one', () => {
    const a: Party = { name: 'A', votes: 1, seats: 0 };
    const b: Party = { name: 'B', votes: 1, seats: 0 };
    expect(tieBreakerByUid('')(a, b)).toBe(true);
    expect(tieBreakerByUid(EVEN_UID)(a, b)).toBe(true);
    expect(tieBreakerByUid(ODD_UID)(a, b)).toBe(false);
  });

  it('prefers the party with fewer seats whatever the UID', () => {
    const a: Party = { name: 'A', votes: 3, seats: 1 };
    const b: Party = { name: 'B', votes: 1, seats: 0 };
    expect(tieBreakerByUid(ODD_UID)(b, a)).toBe(true);
    expect(tieBreakerByUid(EVEN_UID)(b, a)).toBe(true);
  });
});
