// Kubernetes Events for bad input (an invalid policy, a manifest that cannot be applied): written through
// the write-only client, never read back. A failure to record an event is logged, never thrown.
import type { EventSink } from '@warmstart/detector';
import type { KubeObject } from '@warmstart/informer-cache';
import type { WriteClient } from './clients.js';
import type { Logger } from './logger.js';

export const EVENTS = {
  group: '',
  version: 'v1',
  resource: 'events',
  namespaced: true,
  kind: 'Event',
} as const;

export type { EventSink, EventSubject } from '@warmstart/detector';

export function eventSink(writer: WriteClient, component: string, log: Logger): EventSink {
  return (object, type, reason, message) => {
    const now = new Date().toISOString();
    const meta = object.metadata;
    void writer
      .create(EVENTS, {
        apiVersion: 'v1',
        kind: 'Event',
        // Named as client-go's recorder names them (<object>.<time in hex>), so audit logs can tie an Event to its object.
        metadata: {
          name: `${meta.name ?? 'object'}.${unixNanosHex()}`,
          namespace: meta.namespace ?? 'default',
        },
        involvedObject: {
          apiVersion: object.apiVersion,
          kind: object.kind,
          name: meta.name,
          namespace: meta.namespace,
          uid: meta.uid,
          resourceVersion: meta.resourceVersion,
        },
        type,
        reason,
        message: message.slice(0, 1024),
        source: { component },
        reportingComponent: component,
        reportingInstance: component,
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      } as unknown as KubeObject)
      .catch((error: unknown) =>
        log.warn(
          { err: error, reason, object: `${meta.namespace ?? ''}/${meta.name ?? ''}` },
          'could not record event',
        ),
      );
    log[type === 'Warning' ? 'warn' : 'info'](
      {
        object: `${meta.namespace ? `${meta.namespace}/` : ''}${meta.name ?? ''}`,
        kind: object.kind,
        reason,
      },
      message,
    );
  };
}

/** Wall-clock nanoseconds in hex; the sub-millisecond part comes from the monotonic clock, for uniqueness. */
function unixNanosHex(): string {
  return (BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n)).toString(16);
}
