// Listener fan-out shared by gates, readiness and lifecycle.

/**
 * Calls every listener even if one throws, then reports the errors as uncaught exceptions on a microtask,
 * as Node's EventTarget does: a broken dashboard listener must not stop a gate from opening.
 */
export function notify<T>(listeners: Iterable<(value: T) => void>, value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
