// Reading and writing status values the way Go's typed conversion does: a field of the wrong JSON type is an
// error (Go's FromUnstructured refuses it), and a zero value is left out exactly where the Kubernetes type's
// JSON tag says `omitempty`. Shared by the reflect, health and aggregate rules of the default interpreter.
import { isRecord, type JsonObject } from './json.js';

/** A status value that Go's typed conversion would refuse; the caller turns it into its own typed error. */
export class StatusFieldError extends Error {
  constructor(path: string, value: unknown, expected: string) {
    super(`${path} is ${JSON.stringify(value)}, not ${expected}`);
    this.name = 'StatusFieldError';
  }
}

/** An integer field (absent or null is 0). */
export function int(source: Readonly<JsonObject>, key: string, path = `.status.${key}`): number {
  const value = source[key];
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new StatusFieldError(path, value, 'an integer');
  return value;
}

/** A string field (absent or null is ""). */
export function str(source: Readonly<JsonObject>, key: string, path = `.status.${key}`): string {
  const value = source[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new StatusFieldError(path, value, 'a string');
  return value;
}

/** An object field (absent or null is undefined). */
export function obj(
  source: Readonly<JsonObject>,
  key: string,
  path = `.status.${key}`,
): Readonly<JsonObject> | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new StatusFieldError(path, value, 'an object');
  return value;
}

/** An array field (absent or null is []). */
export function list(source: Readonly<JsonObject>, key: string, path = `.status.${key}`): readonly unknown[] {
  const value = source[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new StatusFieldError(path, value, 'an array');
  return value;
}

/** A list of objects (each entry checked). */
export function objects(
  source: Readonly<JsonObject>,
  key: string,
  path = `.status.${key}`,
): readonly Readonly<JsonObject>[] {
  return list(source, key, path).map((entry, i) => {
    if (!isRecord(entry)) throw new StatusFieldError(`${path}[${i}]`, entry, 'an object');
    return entry;
  });
}

/** A field spec: its JSON name and whether Go leaves it out when zero (`omitempty`). */
export type FieldSpec = readonly [name: string, omitempty: boolean];

/** Sets `out[name] = value` unless the field is omitempty and the value is Go's zero (0, "", false). */
export function put(out: JsonObject, [name, omitempty]: FieldSpec, value: number | string | boolean): void {
  if (omitempty && (value === 0 || value === '' || value === false)) {
    delete out[name];
    return;
  }
  out[name] = value;
}

/** Go's metav1.Time as JSON: the string, or null for the zero time (its MarshalJSON writes null). */
export function time(source: Readonly<JsonObject>, key: string, path = `.status.${key}`): string | null {
  const value = source[key];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    throw new StatusFieldError(path, value, 'an RFC 3339 time');
  return value;
}
