// The detector reads its own writes: a binding it created, or a template it claimed, is what its next reconcile of
// that key reads even when the informer has not delivered it yet. Without this a template reconciled again before
// its binding reached the cache tried to create the binding again (409 AlreadyExists, ~1.7 per workload in a first
// propagation).
import { MutationCache, readYourWritesReader, recordingWriter } from '@warmstart/informer-cache';
import type { ResourceDetectorOptions } from './detector.js';

/** `options` with the reader and writer sharing a MutationCache, unless `readYourWrites` is false. */
export function withOwnWrites(options: ResourceDetectorOptions): ResourceDetectorOptions {
  if (options.readYourWrites === false) return options;
  const cache = options.readYourWrites ?? new MutationCache(options.informers);
  return {
    ...options,
    reader: readYourWritesReader(options.reader, cache),
    writer: recordingWriter(options.writer, cache),
  };
}
