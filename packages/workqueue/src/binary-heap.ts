// An array-backed binary heap ordered by a caller's `before` relation. The delayed-item room orders by due
// time and the ready queue orders its priority buckets with it; both need O(log n) push and pop and nothing else.

export class BinaryHeap<T> {
  readonly #items: T[] = [];
  readonly #before: (a: T, b: T) => boolean;

  /** `before(a, b)` is true when `a` must come out before `b`. */
  constructor(before: (a: T, b: T) => boolean) {
    this.#before = before;
  }

  get size(): number {
    return this.#items.length;
  }

  /** The item that `pop` would return, without removing it. */
  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const items = this.#items;
    let i = items.length;
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent] as T;
      if (!this.#before(item, p)) break;
      items[i] = p;
      i = parent;
    }
    items[i] = item;
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    // Sift the former last item down from the root.
    const n = items.length;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && this.#before(items[right] as T, items[left] as T)) child = right;
      const c = items[child] as T;
      if (!this.#before(c, last)) break;
      items[i] = c;
      i = child;
    }
    items[i] = last;
    return top;
  }

  clear(): void {
    this.#items.length = 0;
  }
}
