import { describe, expect, it } from 'vitest';
import { importInStages, MANAGER_IMPORT_STAGES } from './staged-import.js';

describe('importInStages', () => {
  it('runs each stage in its own event-loop turn, then the last one', async () => {
    const order: string[] = [];
    // An immediate queued before the stages runs between the first and the second stage, not after all of them.
    setImmediate(() => order.push('turn'));
    const result = await importInStages(
      [async () => order.push('a'), async () => order.push('b')],
      async () => {
        order.push('last');
        return 42;
      },
    );
    expect(result).toBe(42);
    expect(order).toEqual(['a', 'turn', 'b', 'last']);
  });

  it('stops at a stage that fails, with its error', async () => {
    const failure = new Error('cannot load');
    let lastRan = false;
    await expect(
      importInStages(
        [
          async () => {
            throw failure;
          },
        ],
        async () => {
          lastRan = true;
        },
      ),
    ).rejects.toBe(failure);
    expect(lastRan).toBe(false);
  });

  it("loads every one of the manager's stages", async () => {
    for (const stage of MANAGER_IMPORT_STAGES) await expect(stage()).resolves.toBeDefined();
  });
});
