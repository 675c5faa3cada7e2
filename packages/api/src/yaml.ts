// A small YAML emitter for JSON-shaped data, so the CRD files can be written without a runtime dependency.
// Block style throughout; a string is left unquoted only when it cannot be read back as anything else.

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

// Letters first, then a conservative set; nothing YAML 1.1 or 1.2 could read as a bool, null or number.
const PLAIN = /^[A-Za-z][A-Za-z0-9_./-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|y|n|null|nan|inf)$/i;

function scalar(value: null | boolean | number | string): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} as YAML`);
    return String(value);
  }
  if (PLAIN.test(value) && !RESERVED.test(value)) return value;
  // A JSON string is a valid YAML double-quoted scalar. When its only escapes would be for '"', single
  // quotes read better (and are what biome's YAML formatter would rewrite it to).
  const quoted = JSON.stringify(value);
  const onlyQuotesEscaped = quoted === `"${value.replaceAll('"', '\\"')}"`;
  return onlyQuotesEscaped && value.includes('"') && !value.includes("'") ? `'${value}'` : quoted;
}

function isCollection(value: Json): value is readonly Json[] | { readonly [key: string]: Json } {
  return typeof value === 'object' && value !== null;
}

function isEmpty(value: readonly Json[] | { readonly [key: string]: Json }): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}

function emptyLiteral(value: readonly Json[] | { readonly [key: string]: Json }): string {
  return Array.isArray(value) ? '[]' : '{}';
}

function entries(value: { readonly [key: string]: Json }): [string, Json][] {
  return Object.entries(value).filter((entry): entry is [string, Json] => entry[1] !== undefined);
}

function emit(value: Json, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value as readonly Json[]) {
      if (isCollection(item) && !isEmpty(item)) {
        // The first line of the nested block shares the "- " line; the rest is indented under it.
        const nested: string[] = [];
        emit(item, `${indent}  `, nested);
        out.push(`${indent}- ${nested[0]!.slice(indent.length + 2)}`, ...nested.slice(1));
      } else {
        out.push(`${indent}- ${isCollection(item) ? emptyLiteral(item) : scalar(item)}`);
      }
    }
    return;
  }
  if (isCollection(value)) {
    for (const [key, child] of entries(value as { readonly [key: string]: Json })) {
      if (isCollection(child) && !isEmpty(child)) {
        out.push(`${indent}${scalar(key)}:`);
        // Sequences are indented under their key too: the layout biome's YAML formatter keeps.
        emit(child, `${indent}  `, out);
      } else {
        out.push(`${indent}${scalar(key)}: ${isCollection(child) ? emptyLiteral(child) : scalar(child)}`);
      }
    }
    return;
  }
  out.push(`${indent}${scalar(value)}`);
}

/** Writes one YAML document (no leading "---"), ending in a newline. */
export function toYaml(value: unknown): string {
  const out: string[] = [];
  const json = value as Json;
  if (isCollection(json) && isEmpty(json)) return `${emptyLiteral(json)}\n`;
  emit(json, '', out);
  return `${out.join('\n')}\n`;
}
