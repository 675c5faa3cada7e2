import { describe, expect, it } from 'vitest';
import { StringInterner } from './string-interner.js';
import { freezeDeep, LAST_APPLIED_ANNOTATION, stripManagedFields } from './transform.js';
import type { KubeObject } from './types.js';

function object(): KubeObject {
  return JSON.parse(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'a',
        namespace: 'ns',
        uid: 'u1',
        resourceVersion: '5',
        annotations: { [LAST_APPLIED_ANNOTATION]: '{"big":true}', keep: 'me' },
        managedFields: [{ manager: 'kubectl' }],
      },
      data: { k: 'v', list: ['x', { y: 'z' }] },
    }),
  );
}

describe('stripManagedFields', () => {
  it('drops managedFields and the last-applied annotation and keeps everything else', () => {
    const out = stripManagedFields(object());
    expect(out.metadata.managedFields).toBeUndefined();
    expect(out.metadata.annotations).toEqual({ keep: 'me' });
    expect(out.metadata).toMatchObject({ name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5' });
    expect(out.data).toEqual({ k: 'v', list: ['x', { y: 'z' }] });
  });

  it('removes annotations entirely when last-applied was the only one', () => {
    const o = object();
    (o.metadata as { annotations: unknown }).annotations = { [LAST_APPLIED_ANNOTATION]: '{}' };
    expect('annotations' in stripManagedFields(o).metadata).toBe(false);
  });

  it('is idempotent and returns the same object when there is nothing to drop', () => {
    const once = stripManagedFields(object());
    expect(stripManagedFields(once)).toBe(once);
  });
});

describe('freezeDeep', () => {
  it('freezes every nested object and array', () => {
    const o = freezeDeep(object());
    expect(Object.isFrozen(o)).toBe(true);
    expect(Object.isFrozen(o.metadata)).toBe(true);
    expect(Object.isFrozen(o.metadata.annotations)).toBe(true);
    const data = o.data as { list: [string, { y: string }] };
    expect(Object.isFrozen(data.list)).toBe(true);
    expect(Object.isFrozen(data.list[1])).toBe(true);
    expect(() => {
      (data.list[1] as { y: string }).y = 'changed';
    }).toThrow(TypeError);
  });

  it('shares the strings two objects have in common but not their unique metadata fields', () => {
    const interner = new StringInterner();
    freezeDeep(object(), interner);
    freezeDeep(object(), interner);
    // 'v', 'x', 'z', 'ConfigMap', 'ns', 'me', ... but not the name, uid or resourceVersion.
    expect(interner.size).toBeGreaterThan(3);
    freezeDeep(object(), interner);
    expect(interner.shared).toBe(interner.size);
    interner.clear();
    freezeDeep({ metadata: { uid: 'only-uid', name: 'n', resourceVersion: '1' } }, interner);
    freezeDeep({ metadata: { uid: 'only-uid', name: 'n', resourceVersion: '1' } }, interner);
    expect(interner.size).toBe(0);
  });

  it('counts a whole graph as one object: a value repeated inside it is not shared', () => {
    const interner = new StringInterner();
    freezeDeep({ metadata: { labels: { app: 'wl-1' } }, spec: { selector: { app: 'wl-1' } } }, interner);
    expect(interner.size).toBe(0);
  });
});
