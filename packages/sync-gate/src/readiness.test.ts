import { describe, expect, it } from 'vitest';
import { DuplicateGateError, UnknownGateError } from './errors.js';
import { Gate } from './gate.js';
import { Readiness, type ReadinessEvent } from './readiness.js';

describe('Readiness', () => {
  it('is ready when every registered gate is open', () => {
    const readiness = new Readiness();
    expect(readiness.isReady()).toBe(true);
    const pods = readiness.gate('informer:host/v1/pods');
    const deployments = readiness.gate('informer:host/apps/v1/deployments');
    expect(readiness.isReady()).toBe(false);
    pods.open();
    expect(readiness.isReady()).toBe(false);
    deployments.open();
    expect(readiness.isReady()).toBe(true);
  });

  it('snapshots each gate in registration order with state, since, waiters and progress', () => {
    const readiness = new Readiness();
    const a = readiness.gate('a');
    readiness.gate('b');
    a.setProgress('listed 41,000 objects');
    void a.wait().catch(() => undefined);
    const [first, second] = readiness.snapshot();
    expect(first).toMatchObject({
      name: 'a',
      state: 'pending',
      waiters: 1,
      progress: 'listed 41,000 objects',
    });
    expect(typeof first?.since).toBe('number');
    expect(second).toMatchObject({ name: 'b', state: 'pending', waiters: 0, progress: undefined });
    a.open();
  });

  it('emits added, changed and removed events', () => {
    const readiness = new Readiness();
    const events: ReadinessEvent[] = [];
    const off = readiness.onChange((e) => events.push(e));
    const gate = readiness.gate('g');
    gate.setProgress('listing');
    gate.open();
    readiness.unregister('g');
    gate.setProgress('ignored after unregister');
    off();
    expect(
      events.map((e) => (e.type === 'removed' ? [e.type, e.name] : [e.type, e.gate.state, e.gate.progress])),
    ).toEqual([
      ['added', 'pending', undefined],
      ['changed', 'pending', 'listing'],
      ['changed', 'open', 'listing'],
      ['removed', 'g'],
    ]);
  });

  it('refuses a second gate under a taken name but accepts the same gate again', () => {
    const readiness = new Readiness();
    const gate = readiness.gate('g');
    readiness.register(gate);
    expect(readiness.size).toBe(1);
    expect(() => readiness.gate('g')).toThrow(DuplicateGateError);
    expect(() => readiness.register(new Gate('g'))).toThrow(DuplicateGateError);
  });

  it('builds an aggregate from registered names and registers it', () => {
    const readiness = new Readiness();
    const a = readiness.gate('a');
    const b = readiness.gate('b');
    const all = readiness.allOf('all-caches', ['a', b]);
    expect(readiness.get('all-caches')).toBe(all);
    expect(() => readiness.allOf('other', ['missing'])).toThrow(UnknownGateError);
    expect(() => readiness.allOf('a')).toThrow(DuplicateGateError);
    a.open();
    b.open();
    expect(all.isOpen).toBe(true);
    expect(readiness.isReady()).toBe(true);
  });

  it('looks gates up by name', () => {
    const readiness = new Readiness();
    const gate = readiness.gate('g');
    expect(readiness.has('g')).toBe(true);
    expect(readiness.require('g')).toBe(gate);
    expect(readiness.gates()).toEqual([gate]);
    expect(() => readiness.require('nope')).toThrow(UnknownGateError);
    expect(readiness.unregister(new Gate('g'))).toBe(false);
    expect(readiness.unregister(gate)).toBe(true);
    expect(readiness.get('g')).toBeUndefined();
  });
});
