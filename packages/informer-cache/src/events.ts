// The closed set of events a reflector emits (after kube-rs's watcher): everything downstream — the store, the
// handlers, readiness — is a function of this sequence.
import type { KubeObject } from './types.js';

/**
 * - `init`: a (re)list starts; the store opens a side buffer. A second `init` before `init-done` restarts it.
 * - `init-apply`: one object of the list, into the side buffer (readers do not see it yet).
 * - `init-done`: the list is complete at `resourceVersion`; the buffer replaces the store in one step.
 * - `apply`: a watch ADDED or MODIFIED.
 * - `delete`: a watch DELETED, with the object's final state.
 */
export type ReflectorEvent<T extends KubeObject = KubeObject> =
  | { readonly type: 'init' }
  | { readonly type: 'init-apply'; readonly object: T }
  | { readonly type: 'init-done'; readonly resourceVersion: string }
  | { readonly type: 'apply'; readonly object: T }
  | { readonly type: 'delete'; readonly object: T };
