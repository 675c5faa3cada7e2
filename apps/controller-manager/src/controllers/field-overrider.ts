// fieldOverrider (Karmada's applyFieldOverriders): a string field of the object, named by a JSON pointer, holds a
// JSON or YAML document; the overrider's operations patch that document and it is written back into the field.
// JSON goes back compact with its keys and numbers as they were (evanphx/json-patch on the raw text); YAML goes
// back as sigs.k8s.io/yaml writes it (keys sorted, its own quoting), so any comments and layout are lost, as in
// Karmada. An overrider with neither json nor yaml empties the field, as Karmada does (its webhook refuses one).
import type { FieldOverrider, FieldPatchOperation } from '@warmstart/api';
import { readGoYaml } from './go-yaml-read.js';
import { writeGoYaml } from './go-yaml-write.js';
import { applyJsonPatchInPlace, type PatchOperation, parsePointer } from './json-patch.js';
import { patchRawJson } from './raw-json.js';

/** A fieldPath that does not name a string field of the object. */
export class FieldPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldPathError';
  }
}

/** Apply one fieldOverrider to `object` in place (pass a copy you own); throws when it does not apply. */
export function applyFieldOverrider(
  object: Record<string, unknown>,
  overrider: Readonly<FieldOverrider>,
): void {
  const { parent, key, value } = locate(object, overrider.fieldPath);
  if (typeof value !== 'string') {
    throw new FieldPathError(
      `the value at fieldPath ${overrider.fieldPath} is not a string; point fieldPath at a string field holding JSON or YAML`,
    );
  }
  let result = '';
  if ((overrider.yaml?.length ?? 0) > 0) {
    const doc = applyJsonPatchInPlace(readGoYaml(value), operations(overrider.yaml!));
    result = writeGoYaml(doc);
  } else if ((overrider.json?.length ?? 0) > 0) {
    result = patchRawJson(value, operations(overrider.json!));
  }
  if (Array.isArray(parent)) parent[Number(key)] = result;
  else parent[key] = result;
}

function operations(list: readonly FieldPatchOperation[]): PatchOperation[] {
  return list.map((o) => ({ op: o.operator, path: o.subPath, value: o.value ?? null }));
}

// go-openapi/jsonpointer Get: every token must exist (a map key, or an index within the array).
function locate(
  object: Record<string, unknown>,
  fieldPath: string,
): { parent: Record<string, unknown> | unknown[]; key: string; value: unknown } {
  if (fieldPath === '') {
    throw new FieldPathError('fieldPath is empty, which names the whole object, not a string field');
  }
  let tokens: string[];
  try {
    tokens = parsePointer(fieldPath);
  } catch {
    throw new FieldPathError(
      `fieldPath ${JSON.stringify(fieldPath)} must be a JSON pointer starting with "/"`,
    );
  }
  let parent: Record<string, unknown> | unknown[] = object;
  let value: unknown = object;
  let key = '';
  for (const token of tokens) {
    if (Array.isArray(value)) {
      const index = /^\d+$/.test(token) ? Number(token) : -1;
      if (index < 0 || index >= value.length) {
        throw new FieldPathError(`fieldPath ${fieldPath}: index ${token} is out of range of the array`);
      }
      parent = value;
      value = value[index];
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, token)) {
      parent = value as Record<string, unknown>;
      value = (value as Record<string, unknown>)[token];
    } else {
      throw new FieldPathError(`fieldPath ${fieldPath}: the object has no field ${JSON.stringify(token)}`);
    }
    key = token;
  }
  return { parent, key, value };
}
