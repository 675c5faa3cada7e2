import { describe, expect, it } from 'vitest';
import { DecodeError } from './errors.js';
import { LineDecoder, ListDecoder } from './list-decoder.js';

const items = [
  { metadata: { name: 'a', annotations: { tricky: 'quote " brace { bracket ] backslash \\ end' } } },
  { metadata: { name: 'b' }, data: { nested: [{ x: [1, 2, { y: '}]' }] }], unicode: 'héllo ✓ 𝄞' } },
  { metadata: { name: 'c' }, spec: {} },
];
const body = JSON.stringify({
  kind: 'ConfigMapList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '42', continue: 'tok' },
  items,
});

function decode(chunks: Buffer[]): { out: unknown[]; meta: unknown } {
  const out: unknown[] = [];
  const d = new ListDecoder((json) => out.push(JSON.parse(json)));
  for (const c of chunks) d.write(c);
  return { out, meta: d.end() };
}

function split(buf: Buffer, size: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) parts.push(buf.subarray(i, i + size));
  return parts;
}

describe('ListDecoder', () => {
  it.each([1, 2, 3, 7, 64, 100_000])('decodes items and metadata with chunks of %i bytes', (size) => {
    const { out, meta } = decode(split(Buffer.from(body), size));
    expect(out).toEqual(items);
    expect(meta).toEqual({ resourceVersion: '42', continue: 'tok' });
  });

  it('handles metadata after items and an empty list', () => {
    const reordered = JSON.stringify({ items: [items[2]], metadata: { resourceVersion: '7' }, kind: 'List' });
    expect(decode([Buffer.from(reordered)])).toEqual({ out: [items[2]], meta: { resourceVersion: '7' } });
    expect(decode([Buffer.from('{"metadata":{"resourceVersion":"1"},"items":[]}')]).out).toEqual([]);
    expect(decode([Buffer.from('{"metadata":{},"items":null}')]).out).toEqual([]);
  });

  it('does not mistake a nested "items" key for the list', () => {
    const nested = JSON.stringify({
      metadata: {},
      items: [{ metadata: { name: 'x' }, spec: { items: [1, 2] } }],
    });
    expect(decode(split(Buffer.from(nested), 5)).out).toEqual([
      { metadata: { name: 'x' }, spec: { items: [1, 2] } },
    ]);
  });

  it('throws DecodeError when the body is cut short', () => {
    const d = new ListDecoder(() => {});
    d.write(Buffer.from(body.slice(0, body.length - 10)));
    expect(() => d.end()).toThrow(DecodeError);
  });

  it('counts items handed out', () => {
    const d = new ListDecoder(() => {});
    d.write(Buffer.from(body));
    expect(d.items).toBe(3);
  });
});

describe('LineDecoder', () => {
  it('splits newline-delimited events across arbitrary chunks', () => {
    const events = [{ type: 'ADDED', object: { s: 'ü\n' } }, { type: 'BOOKMARK' }, { type: 'DELETED' }];
    const text = `${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
    for (const size of [1, 3, 1000]) {
      const lines: unknown[] = [];
      const d = new LineDecoder((l) => lines.push(JSON.parse(l)));
      for (const c of split(Buffer.from(text), size)) d.write(c);
      expect(lines).toEqual(events);
      expect(d.pending).toBe(0);
    }
  });

  it('keeps an unfinished line pending', () => {
    const lines: string[] = [];
    const d = new LineDecoder((l) => lines.push(l));
    d.write(Buffer.from('{"a":1}\n{"b":'));
    expect(lines).toEqual(['{"a":1}']);
    expect(d.pending).toBe(5);
  });
});
