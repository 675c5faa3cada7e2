// The patch flavours the fake API server applies: RFC 7386 merge patch (also standing in for strategic merge and
// server-side apply, which are close enough for tests) and a small RFC 6902 JSON patch.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** RFC 7386: objects merge, null deletes, everything else replaces. */
export function mergePatch(target: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export interface JsonPatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'test' | 'move' | 'copy';
  readonly path: string;
  readonly value?: Json;
  readonly from?: string;
}

export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer "${path}"`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** RFC 6902 add / remove / replace / test (move and copy are not needed by anything we test). */
export function jsonPatch(document: Json, operations: readonly JsonPatchOperation[]): Json {
  let doc = structuredClone(document);
  for (const op of operations) {
    const parts = pointer(op.path);
    if (parts.length === 0) {
      if (op.op === 'test') {
        if (JSON.stringify(doc) !== JSON.stringify(op.value)) throw new JsonPatchError('test failed at ""');
        continue;
      }
      doc = op.op === 'remove' ? null : structuredClone(op.value ?? null);
      continue;
    }
    let parent: Json = doc;
    for (const p of parts.slice(0, -1)) {
      const next: Json | undefined = Array.isArray(parent)
        ? parent[Number(p)]
        : isObject(parent)
          ? parent[p]
          : undefined;
      if (next === undefined) throw new JsonPatchError(`path "${op.path}" does not exist`);
      parent = next;
    }
    const last = parts[parts.length - 1] as string;
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(index, 0, structuredClone(op.value ?? null));
      else if (op.op === 'remove') parent.splice(index, 1);
      else if (op.op === 'replace') parent[index] = structuredClone(op.value ?? null);
      else if (op.op === 'test') {
        if (JSON.stringify(parent[index]) !== JSON.stringify(op.value))
          throw new JsonPatchError(`test failed at "${op.path}"`);
      } else throw new JsonPatchError(`op "${op.op}" is not supported`);
    } else if (isObject(parent)) {
      if (op.op === 'add' || op.op === 'replace') {
        if (op.op === 'replace' && !(last in parent))
          throw new JsonPatchError(`path "${op.path}" does not exist`);
        parent[last] = structuredClone(op.value ?? null);
      } else if (op.op === 'remove') {
        if (!(last in parent)) throw new JsonPatchError(`path "${op.path}" does not exist`);
        delete parent[last];
      } else if (op.op === 'test') {
        if (JSON.stringify(parent[last]) !== JSON.stringify(op.value))
          throw new JsonPatchError(`test failed at "${op.path}"`);
      } else throw new JsonPatchError(`op "${op.op}" is not supported`);
    } else throw new JsonPatchError(`path "${op.path}" does not exist`);
  }
  return doc;
}
