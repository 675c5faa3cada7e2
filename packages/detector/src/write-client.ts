// The detector's write capability: the informer-cache Writer's write methods and nothing else, so a read through
// it cannot be written. The manager hands in a Writer that refuses writes when this process is not the leader.
import type { Writer } from '@warmstart/informer-cache';

export type DetectorWriteClient = Pick<
  Writer,
  'create' | 'update' | 'updateStatus' | 'patch' | 'patchStatus' | 'apply' | 'delete'
>;
