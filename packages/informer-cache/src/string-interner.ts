// One shared copy of each string value that recurs across an informer's objects. JSON.parse shares property
// names but allocates every string value anew, so 100,000 Deployments carry 100,000 copies of "RollingUpdate",
// of their image registry and of every annotation a policy stamps on each workload it selects.

export interface StringInternerOptions {
  /** Strings kept at most; once full, known strings are still shared but no new one is learnt. */
  readonly maxEntries?: number;
  /** Longer strings are never shared (a long value that recurs, such as a policy's override list, is shared). */
  readonly maxLength?: number;
  /** Strings seen once remembered at most, while they wait for a second sighting; then forgotten all at once. */
  readonly maxCandidates?: number;
}

/**
 * Admits a string once it has been seen in two different objects. A table that learnt every string it saw
 * would fill with values unique to one object (a workload's name in its labels, selector and image) before the
 * shared ones arrived, and each entry costs more than the copy it saves. A value repeated within one object only
 * is shared from its second copy on, and forgotten with the object.
 */
export class StringInterner {
  readonly maxEntries: number;
  readonly maxLength: number;
  readonly maxCandidates: number;
  readonly #strings = new Map<string, string>();
  /** A string seen once, and the number of the object it was seen in. */
  readonly #candidates = new Map<string, number>();
  /** Candidates seen again within the current object: its later copies share the second one. */
  readonly #repeated = new Map<string, string>();
  #object = 0;
  #shared = 0;

  constructor(options: StringInternerOptions = {}) {
    this.maxEntries = options.maxEntries ?? 50_000;
    this.maxLength = options.maxLength ?? 1_024;
    this.maxCandidates = options.maxCandidates ?? 20_000;
  }

  /** Strings interned from now on belong to another object than the ones before. */
  beginObject(): void {
    this.#object++;
    if (this.#repeated.size > 0) this.#repeated.clear();
  }

  /** The shared copy of `value` if there is one, else `value` itself. */
  intern(value: string): string {
    if (value.length > this.maxLength) return value;
    const known = this.#strings.get(value);
    if (known !== undefined) {
      this.#shared++;
      return known;
    }
    const seenIn = this.#candidates.get(value);
    if (seenIn === undefined) {
      // Forgetting every candidate at once is O(1) a string on average; a recurring value is seen again soon.
      if (this.#candidates.size >= this.maxCandidates) this.#candidates.clear();
      this.#candidates.set(value, this.#object);
    } else if (seenIn !== this.#object) {
      if (this.#strings.size < this.maxEntries) {
        this.#candidates.delete(value);
        this.#strings.set(value, value);
      }
    } else {
      // A value repeated inside one object (a timestamp in each condition, a name in labels and selector) is
      // shared within it but not learnt: it is likely unique to this object.
      const repeated = this.#repeated.get(value);
      if (repeated !== undefined) {
        this.#shared++;
        return repeated;
      }
      this.#repeated.set(value, value);
    }
    return value;
  }

  /** Strings learnt (shared across objects). */
  get size(): number {
    return this.#strings.size;
  }

  /**
   * Calls that returned an earlier copy instead of the one passed in (JavaScript cannot tell two equal strings
   * apart, so this is how sharing shows).
   */
  get shared(): number {
    return this.#shared;
  }

  clear(): void {
    this.#strings.clear();
    this.#candidates.clear();
    this.#repeated.clear();
  }
}
