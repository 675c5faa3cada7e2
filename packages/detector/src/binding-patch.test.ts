import { describe, expect, it } from 'vitest';
import { bindingMergePatch, mergePatchOf } from './binding-patch.js';

describe('mergePatchOf', () => {
  it('holds changed keys, diffs nested objects, nulls removed keys and replaces lists whole', () => {
    expect(
      mergePatchOf(
        { a: 1, b: { c: 1, d: 2 }, e: [1, 2], gone: 'x', same: { k: 'v' } },
        { a: 2, b: { c: 1, d: 3 }, e: [1], same: { k: 'v' }, added: true },
      ),
    ).toEqual({ a: 2, b: { d: 3 }, e: [1], gone: null, added: true });
  });

  it('treats absent, null and empty alike, as the equality that decides a write does', () => {
    expect(mergePatchOf({ a: [], b: {} }, {})).toEqual({});
  });
});

describe('bindingMergePatch', () => {
  const existing = {
    metadata: { name: 'web-deployment', resourceVersion: '7', labels: { a: '1' }, finalizers: ['f'] },
    spec: { replicas: 2, clusters: [{ name: 'member1', replicas: 2 }], resource: { resourceVersion: '5' } },
  };

  it('sends only what the detector changed, without a resourceVersion, and never spec.clusters', () => {
    const mutated = {
      ...existing,
      spec: { ...existing.spec, replicas: 3, resource: { resourceVersion: '6' } },
    };
    expect(bindingMergePatch(existing, mutated)).toEqual({
      spec: { replicas: 3, resource: { resourceVersion: '6' } },
    });
  });

  it('keeps the cached resourceVersion as a precondition when a list it replaces whole changes', () => {
    const mutated = { ...existing, metadata: { ...existing.metadata, finalizers: ['f', 'g'] } };
    expect(bindingMergePatch(existing, mutated)).toEqual({
      metadata: { finalizers: ['f', 'g'], resourceVersion: '7' },
    });
  });
});
