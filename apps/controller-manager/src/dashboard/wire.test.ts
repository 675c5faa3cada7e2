import { describe, expect, it } from 'vitest';
import type { DashboardStatus, InformerStatus } from './status.js';
import { controller, informer, status } from './testing/fake-source.js';
import { toWire } from './wire.js';

describe('toWire', () => {
  it('keeps a well-formed snapshot as it is', () => {
    const snap = status({
      informers: [informer({ state: 'failed', error: 'forbidden', objects: 3, listRatePerSecond: 12.5 })],
      controllers: [
        controller({ lastError: { key: 'default/web', message: 'conflict', at: 5 }, waitingFor: 'leader' }),
      ],
    });
    expect(toWire(snap)).toEqual(snap);
  });

  it('makes numbers finite and non-negative and states one of the three', () => {
    const bad = {
      ...informer({ objects: Number.NaN, waitingMs: -4, listRatePerSecond: Number.POSITIVE_INFINITY }),
      state: 'listing',
    } as unknown as InformerStatus;
    const wire = toWire(status({ informers: [bad], directReads: Number.NaN }));
    expect(wire.informers[0]).toMatchObject({
      objects: 0,
      waitingMs: 0,
      listRatePerSecond: undefined,
      state: 'pending',
    });
    expect(wire.directReads).toBe(0);
  });

  it('cuts long names and texts', () => {
    const long = 'n'.repeat(400);
    const wire: DashboardStatus = toWire(
      status({
        controllers: [
          controller({ name: long, lastError: { key: long, message: 'm'.repeat(3_000), at: 1 } }),
        ],
      }),
    );
    expect(wire.controllers[0]!.name).toHaveLength(256);
    expect(wire.controllers[0]!.lastError!.key).toHaveLength(256);
    expect(wire.controllers[0]!.lastError!.message).toHaveLength(1_000);
  });
});
