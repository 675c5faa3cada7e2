// RFC 6902 add/remove/replace on a JSON document, with the strictness of evanphx/json-patch v5 (the library
// Karmada applies override patches with): a missing parent, a missing key to replace or remove, or an index out of
// range is an error, not a silent no-op. The input is never mutated.

import { deepCopy } from './json.js';

/** One operation, as Karmada builds them from overriders. */
export interface PatchOperation {
  readonly op: 'add' | 'remove' | 'replace';
  readonly path: string;
  readonly value?: unknown;
}

/** A patch that does not apply to the document. */
export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

type Container = Record<string, unknown> | unknown[];

/** The document after the operations, applied in order; throws JsonPatchError. */
export function applyJsonPatch(document: unknown, operations: readonly PatchOperation[]): unknown {
  return applyJsonPatchInPlace(deepCopy(document), operations);
}

/**
 * As applyJsonPatch, but changes `document` itself (returning the new root, which differs only for a whole-document
 * operation): for a caller that owns its copy, so a chain of overriders does not copy the object at every step.
 * On an error the document may be partly patched.
 */
export function applyJsonPatchInPlace(document: unknown, operations: readonly PatchOperation[]): unknown {
  let doc = document;
  for (const operation of operations) doc = applyOne(doc, operation);
  return doc;
}

function applyOne(doc: unknown, { op, path, value }: PatchOperation): unknown {
  if (path === '') return rootValue(op, value, (v) => deepCopy(v ?? null));
  const tokens = parsePointer(path);
  const last = tokens.pop()!;
  let parent: unknown = doc;
  for (const token of tokens) {
    parent = child(parent, token);
    if (parent === undefined)
      throw new JsonPatchError(`${op} operation does not apply: doc is missing path ${path}`);
  }
  if (!isContainer(parent)) {
    throw new JsonPatchError(
      `${op} operation does not apply: the parent of ${path} is not an object or array`,
    );
  }
  const v = deepCopy(value ?? null);
  if (Array.isArray(parent)) {
    if (op === 'add') {
      const index = last === '-' ? parent.length : arrayIndex(last, parent.length + 1, path);
      parent.splice(index, 0, v);
    } else {
      const index = arrayIndex(last, parent.length, path);
      if (op === 'remove') parent.splice(index, 1);
      else parent[index] = v;
    }
    return doc;
  }
  if (op !== 'add' && !Object.hasOwn(parent, last)) {
    throw new JsonPatchError(`${op} operation does not apply: doc is missing key ${path}`);
  }
  if (op === 'remove') delete parent[last];
  else parent[last] = v;
  return doc;
}

/**
 * What an operation on the whole document ("" path) leaves, as v5 has it: the document must stay an object or an
 * array, except that replace may also make it null; remove is an error.
 */
export function rootValue<T>(op: PatchOperation['op'], value: unknown, make: (value: unknown) => T): T {
  if (op === 'remove') throw new JsonPatchError('cannot remove the whole document');
  const v = value ?? null;
  if (!(typeof v === 'object' && (v !== null || op === 'replace'))) {
    throw new JsonPatchError(`${op} operation on the whole document needs an object or an array`);
  }
  return make(v);
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return isContainer(value) && !Array.isArray(value);
}

function child(value: unknown, token: string): unknown {
  if (Array.isArray(value)) {
    if (!/^\d+$/.test(token)) return undefined;
    return value[Number(token)];
  }
  if (isObject(value) && Object.hasOwn(value, token)) return value[token];
  return undefined;
}

/** v5 accepts negative indices counted from the end; anything else out of range is an error. */
export function arrayIndex(token: string, size: number, path: string): number {
  if (!/^-?\d+$/.test(token)) throw new JsonPatchError(`invalid array index ${token} in ${path}`);
  let index = Number(token);
  if (index < 0) index += size;
  if (index < 0 || index >= size) throw new JsonPatchError(`array index ${token} out of range in ${path}`);
  return index;
}

/** RFC 6901: "/a~1b/c~0d" -> ["a/b", "c~d"]. */
export function parsePointer(path: string): string[] {
  if (!path.startsWith('/'))
    throw new JsonPatchError(`JSON pointer ${JSON.stringify(path)} must start with "/"`);
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}
