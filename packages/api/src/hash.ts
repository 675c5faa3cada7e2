// Go-compatible hashing for Karmada's generated names. Karmada hashes a string with hashutil.DeepHashObject
// into FNV-1a 32-bit, prints the sum in decimal and passes it through apimachinery's rand.SafeEncodeString.
// At Karmada f8fdd02 DeepHashObject prints with kr/pretty's Fprintf("%v"), which writes a string as it is:
// the hashed bytes are the plain string. (Before Karmada 58c15c8ed, June 2024, the format was "%# v", which
// quotes the string; names made by those releases differ.)

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;
const encoder = new TextEncoder();

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`. */
export function fnv32a(text: string): number {
  let hash = FNV32_OFFSET;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV32_PRIME) >>> 0;
  }
  return hash >>> 0;
}

/** The FNV-1a sum Karmada's DeepHashObject computes for a Go string: the hash of the string itself. */
export function deepHashString(value: string): number {
  return fnv32a(value);
}

// apimachinery/pkg/util/rand: no vowels (no words), no 0/1/3 (confusable with o, l, e).
const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** apimachinery's rand.SafeEncodeString: maps each byte onto a 27-letter alphabet. */
export function safeEncodeString(text: string): string {
  let out = '';
  for (const byte of encoder.encode(text)) out += SAFE_ALPHANUMS[byte % SAFE_ALPHANUMS.length];
  return out;
}
