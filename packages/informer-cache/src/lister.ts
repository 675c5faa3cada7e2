// A Lister: synchronous reads from one informer's store, by key, by namespace and label selector, by index.
import { toKey } from './gvr.js';
import { type LabelSelector, type Selector, toSelector } from './label-selector.js';
import { type Indexer, NAMESPACE_INDEX } from './store.js';
import type { KubeObject, ObjectKey } from './types.js';

export interface ListOptions {
  /** Only objects of this namespace; all namespaces when omitted. */
  readonly namespace?: string | undefined;
  /** A label selector: string form (`app=web,tier in (a,b)`), a metav1.LabelSelector, or a compiled Selector. */
  readonly labelSelector?: string | LabelSelector | Selector | undefined;
}

/** Reads one resource from its store. It does not wait for sync; CacheReader does. */
export class Lister<T extends KubeObject = KubeObject> {
  constructor(readonly indexer: Indexer<T>) {}

  /** The object at `namespace/name` (or `name`), or undefined. */
  get(key: ObjectKey): T | undefined {
    return this.indexer.get(toKey(key));
  }

  /** Objects of a namespace (or all), matching a label selector (or all). */
  list(options: ListOptions = {}): T[] {
    const selector = toSelector(options.labelSelector);
    const candidates =
      options.namespace === undefined
        ? this.indexer.list()
        : this.indexer.byIndex(NAMESPACE_INDEX, options.namespace);
    if (selector.empty) return candidates;
    return candidates.filter((o) => selector.matches(o.metadata.labels));
  }

  /** Objects whose index `indexName` includes `value`. */
  byIndex(indexName: string, value: string): T[] {
    return this.indexer.byIndex(indexName, value);
  }

  /** A lister bound to one namespace, as client-go's `Pods(namespace)`. */
  namespace(namespace: string): NamespaceLister<T> {
    return new NamespaceLister(this, namespace);
  }
}

export class NamespaceLister<T extends KubeObject = KubeObject> {
  constructor(
    readonly parent: Lister<T>,
    readonly namespace: string,
  ) {}

  get(name: string): T | undefined {
    return this.parent.get({ namespace: this.namespace, name });
  }

  list(labelSelector?: ListOptions['labelSelector']): T[] {
    return this.parent.list({ namespace: this.namespace, labelSelector });
  }
}
