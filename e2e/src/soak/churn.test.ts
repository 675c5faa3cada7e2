import { describe, expect, it } from 'vitest';
import { ChurnModel, type ChurnOp, mismatches, seededRandom, soakName } from './churn.js';

describe('ChurnModel', () => {
  it('grows to its population, then creates, updates and deletes around it; updates always change replicas', () => {
    const model = new ChurnModel(20, seededRandom(7));
    const kinds = { create: 0, update: 0, delete: 0 };
    const live = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) {
      const op = model.next()!;
      kinds[op.kind]++;
      if (op.kind === 'create') expect(live.has(op.name)).toBe(false);
      else expect(live.has(op.name)).toBe(true);
      if (op.kind === 'update') expect(op.replicas).not.toBe(live.get(op.name));
      if (op.kind !== 'delete') expect(op.replicas).toBeGreaterThanOrEqual(1);
      model.applied(op);
      if (op.kind === 'delete') live.delete(op.name);
      else live.set(op.name, op.replicas);
    }
    expect(kinds.create).toBeGreaterThan(200);
    expect(kinds.update).toBeGreaterThan(200);
    expect(kinds.delete).toBeGreaterThan(200);
    expect(model.live).toBe(live.size);
    expect(model.live).toBeGreaterThan(10);
    expect(model.live).toBeLessThanOrEqual(30);
    const expected = model.expected();
    expect(expected.size).toBe(30);
    for (const [name, replicas] of expected) expect(replicas).toBe(live.get(name));
  });

  it('never hands out a name whose operation is still in flight, and a refused one changes nothing', () => {
    const model = new ChurnModel(2, seededRandom(1));
    const busy: ChurnOp[] = [];
    for (let op = model.next(); op; op = model.next()) busy.push(op);
    expect(new Set(busy.map((o) => o.name)).size).toBe(busy.length);
    expect(busy).toHaveLength(3); // the whole pool, 1.5 x the population
    for (const op of busy) model.failed(op);
    expect(model.live).toBe(0);
    expect([...model.expected().values()]).toEqual([undefined, undefined, undefined]);
  });

  it('is repeatable from its seed', () => {
    const run = (seed: number) => {
      const m = new ChurnModel(10, seededRandom(seed));
      return Array.from({ length: 50 }, () => {
        const op = m.next()!;
        m.applied(op);
        return op;
      });
    };
    expect(run(42)).toEqual(run(42));
    expect(run(42)).not.toEqual(run(43));
  });
});

describe('mismatches', () => {
  it('names every object in the wrong state: wrong replicas, missing, left over', () => {
    const expected = new Map<string, number | undefined>([
      [soakName(0), 3],
      [soakName(1), undefined],
      [soakName(2), 2],
    ]);
    const actual = new Map([
      [soakName(0), 4],
      [soakName(1), 1],
      [soakName(9), 1],
    ]);
    expect(mismatches('member1', expected, actual)).toEqual([
      { cluster: 'member1', name: 'soak-0000', expected: 3, actual: 4 },
      { cluster: 'member1', name: 'soak-0001', expected: 'absent', actual: 1 },
      { cluster: 'member1', name: 'soak-0002', expected: 2, actual: 'absent' },
      { cluster: 'member1', name: 'soak-0009', expected: 'absent', actual: 1 },
    ]);
    expect(
      mismatches(
        'member1',
        expected,
        new Map([
          [soakName(0), 3],
          [soakName(2), 2],
        ]),
      ),
    ).toEqual([]);
  });
});
