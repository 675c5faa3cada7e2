// YAML text to a JSON value the way sigs.k8s.io/yaml's YAMLToJSON does it (which Karmada's fieldOverrider uses):
// only the first document; YAML 1.1 scalars as go.yaml.in/yaml/v2 resolves them; `<<` merge keys; a later
// duplicate key wins; int, float and bool keys become their text; a null or collection key, NaN or infinity is
// an error, as encoding/json refuses them. The `yaml` package does the parsing (with every scalar kept as text);
// what the scalars mean is decided here.
import { type Document, isAlias, isMap, isPair, isScalar, isSeq, type Node, parseAllDocuments } from 'yaml';
import { formatGoFloat } from './go-float.js';
import { resolvePlain } from './go-yaml-resolve.js';

/** YAML content that sigs.k8s.io/yaml would not convert to JSON. */
export class YamlContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlContentError';
  }
}

/** The JSON value of the first YAML document in `text` (null when there is none). */
export function readGoYaml(text: string): unknown {
  const docs = parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, merge: false });
  if (!Array.isArray(docs)) return null;
  const doc = docs[0];
  if (doc === undefined) return null;
  if (doc.errors.length > 0) {
    throw new YamlContentError(`the field does not hold valid YAML: ${doc.errors[0]!.message}`);
  }
  return toJson({ doc, nodes: 0, depth: 0, anchors: new Map() }, doc.contents);
}

// The document, and how many nodes have been decoded: aliases can make a small text expand without bound (or,
// pointing into their own anchor, forever), which yaml.v2 refuses as excessive aliasing.
interface Reader {
  readonly doc: Document;
  nodes: number;
  depth: number;
  // Each alias's anchored node, found once: the parser finds it by walking the whole document, which, per use of
  // an alias, made refusing a billion-laughs text take seconds of CPU.
  readonly anchors: Map<Node, Node | undefined>;
}

const MAX_NODES = 1_000_000;
const MAX_DEPTH = 10_000;

function toJson(r: Reader, node: Node | null | undefined): unknown {
  if (++r.nodes > MAX_NODES || r.depth >= MAX_DEPTH) {
    throw new YamlContentError('yaml: document contains excessive aliasing or nesting');
  }
  r.depth++;
  try {
    return decode(r, node);
  } finally {
    r.depth--;
  }
}

function decode(r: Reader, node: Node | null | undefined): unknown {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) {
    let target = r.anchors.get(node);
    if (target === undefined && !r.anchors.has(node)) {
      target = node.resolve(r.doc) as Node | undefined;
      r.anchors.set(node, target);
    }
    return toJson(r, target);
  }
  if (isScalar(node)) {
    const value = scalarValue(node.value, node.type, node.tag);
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new YamlContentError(`the YAML holds ${String(value)}, which JSON cannot represent`);
    }
    return value;
  }
  if (isSeq(node)) return node.items.map((item) => toJson(r, item as Node));
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    mergeInto(r, node, out);
    return out;
  }
  throw new YamlContentError('the YAML holds a node that is neither a scalar nor a collection');
}

// yaml.v2 decodes a mapping in order into one map: a `<<` entry merges its mapping (or, for a sequence of them,
// each from last to first) into what is there so far, and later keys override.
function mergeInto(r: Reader, map: Node | null | undefined, out: Record<string, unknown>): void {
  if (!isMap(map)) throw new YamlContentError('a << merge key must refer to a mapping');
  for (const pair of map.items) {
    if (!isPair(pair)) continue;
    const keyNode = pair.key as Node | null;
    if (
      isScalar(keyNode) &&
      keyNode.type === 'PLAIN' &&
      keyNode.tag === undefined &&
      keyNode.value === '<<'
    ) {
      const target = resolveAlias(r, pair.value as Node | null);
      if (isSeq(target)) {
        for (const item of [...target.items].reverse()) mergeInto(r, resolveAlias(r, item as Node), out);
      } else {
        mergeInto(r, target, out);
      }
      continue;
    }
    const key = keyText(r, keyNode);
    const value = toJson(r, pair.value as Node | null);
    // A "__proto__" key must stay data.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
}

function resolveAlias(r: Reader, node: Node | null): Node | null | undefined {
  return isAlias(node) ? node.resolve(r.doc) : node;
}

// convertToJSONableObject's key conversion.
function keyText(r: Reader, node: Node | null): string {
  const key = toJson(r, node);
  if (typeof key === 'string') return key;
  if (typeof key === 'boolean' || typeof key === 'bigint') return String(key);
  if (typeof key === 'number') {
    const isInt = isScalar(node) && node.tag === undefined && resolvePlain(String(node.value)).tag === 'int';
    return isInt ? String(key) : formatGoFloat(Math.fround(key), 'float32');
  }
  throw new YamlContentError(`the YAML has a map key of unsupported type: ${JSON.stringify(key)}`);
}

// A quoted scalar is a string unless a tag (!!int "7") says otherwise; an unknown tag leaves the text.
function scalarValue(text: unknown, type: string | undefined, tag: string | undefined): unknown {
  const s = String(text);
  const short = tag?.replace('tag:yaml.org,2002:', '!!');
  const typed = short !== undefined && ['!!int', '!!float', '!!bool', '!!null'].includes(short);
  if (short !== undefined && !typed) return s;
  if (type !== 'PLAIN' && !typed) return s;
  const r = resolvePlain(s);
  return r.tag === 'merge' || r.tag === 'timestamp' ? s : r.value;
}
