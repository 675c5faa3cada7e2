import { describe, expect, it } from 'vitest';
import { cutManagedFields, cutMember } from './managed-fields-cut.js';

const ENTRY = {
  manager: 'kube-controller-manager',
  operation: 'Update',
  apiVersion: 'apps/v1',
  time: '2026-12-05T10:00:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Available"}': { '.': {}, 'f:status': {} } } } },
  subresource: 'status',
};

function deployment(metadata: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata,
    spec: {
      replicas: 2,
      template: {
        metadata: { labels: { app: 'a' }, managedFields: [{ manager: 'kept' }] },
        spec: { containers: [{ name: 'app', image: 'pause' }] },
      },
    },
    status: { replicas: 2 },
  };
}

function without(o: Record<string, unknown>): Record<string, unknown> {
  const { managedFields: _, ...rest } = o.metadata as Record<string, unknown>;
  return { ...o, metadata: rest };
}

describe('cutManagedFields', () => {
  it('cuts the object’s managedFields wherever they sit in its metadata, and nothing else', () => {
    const cases: Record<string, unknown>[] = [
      { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '7', managedFields: [ENTRY, ENTRY] },
      { managedFields: [ENTRY], name: 'a', labels: { x: 'y' } },
      { name: 'a', managedFields: [ENTRY], annotations: { b: 'c' } },
      { managedFields: [] },
    ];
    for (const metadata of cases) {
      const object = deployment(metadata);
      for (const text of [JSON.stringify(object), JSON.stringify(object, null, 2)]) {
        const cut = cutManagedFields(text, 'object');
        expect(cut.length).toBeLessThan(text.length);
        expect(JSON.parse(cut)).toEqual(without(object));
      }
    }
  });

  it('finds the object inside a watch event', () => {
    const object = deployment({ name: 'a', managedFields: [ENTRY] });
    const event = { type: 'MODIFIED', object };
    expect(JSON.parse(cutManagedFields(JSON.stringify(event), 'watch-event'))).toEqual({
      type: 'MODIFIED',
      object: without(object),
    });
    // A LIST item's path does not match an event, and the reverse: the text is left alone.
    const text = JSON.stringify(event);
    expect(cutManagedFields(text, 'object')).toBe(text);
    expect(cutManagedFields(JSON.stringify(object), 'watch-event')).toBe(JSON.stringify(object));
  });

  it('leaves a pod template’s managedFields when the object’s metadata has none', () => {
    const text = JSON.stringify(deployment({ name: 'a', namespace: 'ns' }));
    expect(cutManagedFields(text, 'object')).toBe(text);
  });

  it('is not fooled by keys and brackets inside strings', () => {
    const metadata = {
      name: 'a',
      annotations: {
        tricky: '"managedFields":[1,2] } ] { \\"metadata\\": {',
        slash: 'ends in a backslash\\',
        quote: 'a "quoted" word',
      },
      managedFields: [{ ...ENTRY, manager: 'odd "name" with } and ]' }],
    };
    const object = deployment(metadata);
    expect(JSON.parse(cutManagedFields(JSON.stringify(object), 'object'))).toEqual(without(object));
  });

  it('leaves text it cannot follow as it was', () => {
    const texts = [
      '{"metadata":null,"managedFields":[]}',
      '{"metadata":"x"}',
      '[{"metadata":{"managedFields":[]}}]',
      '{"metadata":{"name":"a"',
      '{"metadata":{"managedFields":[{"a":"unterminated',
      '{"type":"BOOKMARK","object":{"kind":"Deployment","metadata":{"resourceVersion":"9"}}}',
    ];
    for (const text of texts) expect(cutManagedFields(text, 'watch-event')).toBe(text);
    for (const text of texts) expect(cutManagedFields(text, 'object')).toBe(text);
  });

  it('cuts scalar and string members too', () => {
    expect(cutMember('{"a":{"b":1,"c":2}}', ['a', 'b'])).toBe('{"a":{"c":2}}');
    expect(cutMember('{"a":{"b":"x,}","c":2}}', ['a', 'c'])).toBe('{"a":{"b":"x,}"}}');
    expect(cutMember('{ "a" : { "b" : true } }', ['a', 'b'])).toBe('{ "a" : {  } }');
  });

  it('matches JSON.parse minus the member on many generated objects', () => {
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = ['"', '\\', '{', '}', '[', ']', ',', ':', 'managedFields', 'metadata', 'é', '\u2028', ' '];
    const word = (): string => {
      let s = '';
      const n = Math.floor(random() * 6);
      for (let i = 0; i < n; i++) s += pieces[Math.floor(random() * pieces.length)];
      return s;
    };
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return word();
      if (r < 0.4) return Math.floor(random() * 1000) - 500;
      if (r < 0.45) return r < 0.42 ? null : true;
      if (r < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      const o: Record<string, unknown> = {};
      const n = Math.floor(random() * 4);
      for (let i = 0; i < n; i++) o[word()] = value(depth + 1);
      return o;
    };
    let cut = 0;
    for (let i = 0; i < 500; i++) {
      const metadata: Record<string, unknown> = {};
      const n = Math.floor(random() * 4);
      const at = Math.floor(random() * (n + 1));
      for (let k = 0; k <= n; k++) {
        if (k === at && random() < 0.8) metadata.managedFields = value(1);
        else metadata[`k${k}${word()}`] = value(1);
      }
      const object = { [word()]: value(1), metadata, spec: { metadata: { managedFields: value(2) } } };
      const text = JSON.stringify(object, null, random() < 0.5 ? undefined : 1);
      const out = cutManagedFields(text, 'object');
      if (out !== text) cut++;
      expect(JSON.parse(out)).toEqual('managedFields' in metadata ? without(object) : object);
    }
    expect(cut).toBeGreaterThan(300);
  });
});
