// Cuts `metadata.managedFields` out of an object's JSON text before JSON.parse sees it. The default transform drops
// managedFields anyway, but only after JSON.parse has built every entry's fieldsV1 tree: in a restart's profile
// decoding was the manager's largest CPU cost, and managedFields is often the larger part of a small object's
// text. Only the object's own metadata is cut (never a pod template's), found by walking keys from the root;
// anything unexpected leaves the text as it was, and the transform after the parse still drops the field.
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  isJsonSpace as isSpace,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
} from './json-chars.js';

/** Where the object sits in the text: the text is the object (a LIST item), or a watch event's `object`. */
export type ManagedFieldsCutAt = 'object' | 'watch-event';

const PATHS: Record<ManagedFieldsCutAt, readonly string[]> = {
  object: ['metadata', 'managedFields'],
  'watch-event': ['object', 'metadata', 'managedFields'],
};

/**
 * Returns `json` without the object's `metadata.managedFields` member, or `json` itself when there is none (or
 * the text is not shaped as expected). The result parses to what JSON.parse(json) would give minus that member.
 */
export function cutManagedFields(json: string, at: ManagedFieldsCutAt): string {
  return cutMember(json, PATHS[at]);
}

/** Removes the member at `path` (keys from the root object, each but the last naming an object) from `json`. */
export function cutMember(json: string, path: readonly string[]): string {
  const n = json.length;
  const last = path.length - 1;
  // `matched` keys of the path have been entered; the object holding path[matched] is open at depth matched + 1.
  let matched = 0;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(json, i);
      if (end < 0) return json;
      if (depth === matched + 1) {
        const afterKey = skipSpace(json, end + 1);
        if (json.charCodeAt(afterKey) === COLON) {
          const want = path[matched] as string;
          if (end - i - 1 === want.length && json.startsWith(want, i + 1)) {
            const valueStart = skipSpace(json, afterKey + 1);
            if (matched === last) {
              const valueEnd = valueEndAt(json, valueStart);
              return valueEnd < 0 ? json : removeMember(json, i, valueEnd);
            }
            // A path key whose value is not an object: there is nothing to cut.
            if (json.charCodeAt(valueStart) !== OPEN_BRACE) return json;
            matched++;
            depth++;
            i = valueStart + 1;
            continue;
          }
        }
      }
      i = end + 1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      // The object that should hold the next key closed without it.
      if (depth < matched + 1) return json;
    }
    i++;
  }
  return json;
}

/** Index of the quote closing the string that opens at `start`, or -1 when the text ends first. */
function stringEnd(json: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const q = json.indexOf('"', at);
    if (q < 0) return -1;
    let slashes = 0;
    for (let k = q - 1; json.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q;
    at = q + 1;
  }
}

function skipSpace(json: string, from: number): number {
  let i = from;
  while (isSpace(json.charCodeAt(i))) i++;
  return i;
}

/** Index just past the value that starts at `start`, or -1 when the text ends first. */
function valueEndAt(json: string, start: number): number {
  const first = json.charCodeAt(start);
  if (first === QUOTE) {
    const end = stringEnd(json, start);
    return end < 0 ? -1 : end + 1;
  }
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: it runs to the next separator.
    let i = start;
    for (; i < json.length; i++) {
      const c = json.charCodeAt(i);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) return i;
    }
    return -1;
  }
  let depth = 0;
  let i = start;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(json, i);
      if (end < 0) return -1;
      i = end + 1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/** Removes the member from its key's opening quote to the end of its value, with one of its separating commas. */
function removeMember(json: string, keyStart: number, valueEnd: number): string {
  let before = keyStart - 1;
  while (before >= 0 && isSpace(json.charCodeAt(before))) before--;
  if (json.charCodeAt(before) === COMMA) return json.slice(0, before) + json.slice(valueEnd);
  const after = skipSpace(json, valueEnd);
  if (json.charCodeAt(after) === COMMA) return json.slice(0, keyStart) + json.slice(after + 1);
  return json.slice(0, keyStart) + json.slice(valueEnd);
}
