// A JSON document patched the way evanphx/json-patch v5 patches raw bytes (Karmada's JSON fieldOverrider): object
// keys keep their order (added keys go last), numbers and strings keep their text, and the result is written
// compact with encoding/json's escaping of <, >, &, U+2028 and U+2029. JSON.parse would reorder integer-like keys
// and rewrite numbers (1.0 -> 1), so the document is kept as a small tree of raw texts instead.
import { arrayIndex, JsonPatchError, type PatchOperation, parsePointer, rootValue } from './json-patch.js';

// An object as v5's partialDoc holds it: the keys in order (a repeated key stays listed twice) and one value each.
type RawNode =
  | { readonly kind: 'object'; readonly keys: string[]; readonly values: Map<string, RawNode> }
  | { readonly kind: 'array'; readonly items: RawNode[] }
  | { readonly kind: 'scalar'; readonly text: string };

/** Text that is not one JSON value. */
export class JsonContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonContentError';
  }
}

/** `text` after the operations, written compact; throws JsonContentError or JsonPatchError. */
export function patchRawJson(text: string, operations: readonly PatchOperation[]): string {
  // v5 hands an empty document back untouched.
  if (text === '') return text;
  let doc = parse(text);
  // v5 decodes the document into an object or an array before it applies anything.
  if (doc.kind === 'scalar')
    throw new JsonContentError('the field holds JSON that is not an object or an array');
  for (const op of operations) doc = applyOne(doc, op);
  return write(doc);
}

function parse(text: string): RawNode {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new JsonContentError(`the field does not hold valid JSON: ${what} at offset ${i}`);
  };
  const value = (): RawNode => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const keys: string[] = [];
      const values = new Map<string, RawNode>();
      ws();
      if (text[i] === '}') {
        i++;
        return { kind: 'object', keys, values };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a string key');
        const key = JSON.parse(stringText()) as string;
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        keys.push(key);
        values.set(key, value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return { kind: 'object', keys, values };
        } else fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const items: RawNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { kind: 'array', items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return { kind: 'array', items };
        } else fail('expected "," or "]"');
      }
    }
    if (c === '"') return { kind: 'scalar', text: stringText() };
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (m === null || m[0] === '') return fail('unexpected input');
    i += m[0].length;
    return { kind: 'scalar', text: m[0] };
  };
  // A string token as written: no raw control characters, only JSON's escapes.
  const stringText = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail('control character in a string');
      if (text[i] === '\\') {
        const e = text[i + 1] ?? '';
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape');
          i += 6;
        } else if ('"\\/bfnrt'.includes(e) && e !== '') i += 2;
        else fail('invalid escape');
      } else i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    return text.slice(start, i);
  };
  const root = value();
  ws();
  if (i !== text.length) fail('unexpected input after the value');
  return root;
}

const NULL: RawNode = { kind: 'scalar', text: 'null' };

function fromValue(value: unknown): RawNode {
  return parse(JSON.stringify(value ?? null));
}

function applyOne(doc: RawNode, { op, path, value }: PatchOperation): RawNode {
  if (path === '') return rootValue(op, value, fromValue);
  const tokens = parsePointer(path);
  const last = tokens.pop()!;
  let parent: RawNode | undefined = doc;
  for (const token of tokens) {
    parent = child(parent, token);
    if (parent === undefined)
      throw new JsonPatchError(`${op} operation does not apply: doc is missing path ${path}`);
  }
  if (parent.kind === 'scalar') {
    throw new JsonPatchError(
      `${op} operation does not apply: the parent of ${path} is not an object or array`,
    );
  }
  if (parent.kind === 'array') {
    const items = parent.items;
    if (op === 'add') {
      const index = last === '-' ? items.length : arrayIndex(last, items.length + 1, path);
      items.splice(index, 0, fromValue(value));
    } else {
      const index = arrayIndex(last, items.length, path);
      if (op === 'remove') items.splice(index, 1);
      else items[index] = fromValue(value);
    }
    return doc;
  }
  const { keys, values } = parent;
  if (op !== 'add' && !values.has(last)) {
    throw new JsonPatchError(`${op} operation does not apply: doc is missing key ${path}`);
  }
  if (op === 'remove') {
    keys.splice(keys.indexOf(last), 1);
    values.delete(last);
  } else {
    if (!values.has(last)) keys.push(last);
    values.set(last, fromValue(value));
  }
  return doc;
}

function child(node: RawNode, token: string): RawNode | undefined {
  if (node.kind === 'array') return /^\d+$/.test(token) ? node.items[Number(token)] : undefined;
  if (node.kind === 'object') return node.values.get(token);
  return undefined;
}

function write(node: RawNode): string {
  if (node.kind === 'array') return `[${node.items.map(write).join(',')}]`;
  if (node.kind === 'object') {
    const entry = (k: string): string =>
      `${goEscape(JSON.stringify(k))}:${write(node.values.get(k) ?? NULL)}`;
    return `{${node.keys.map(entry).join(',')}}`;
  }
  return goEscape(node.text);
}

function goEscape(text: string): string {
  return text
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}
