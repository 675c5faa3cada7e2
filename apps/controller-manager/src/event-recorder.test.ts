import type { EventSubject } from '@warmstart/detector';
import {
  ApiError,
  type GroupVersionResource,
  type KubeObject,
  type KubeObjectInput,
  type Patch,
} from '@warmstart/informer-cache';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { EventRecorder } from './event-recorder.js';

type Call =
  | { readonly verb: 'create'; readonly body: Record<string, unknown> }
  | { readonly verb: 'patch'; readonly key: string; readonly patch: Record<string, unknown> };

/** Event writes in memory; `stored` is what the API server would hold by name. */
class FakeEventWriter {
  readonly calls: Call[] = [];
  readonly stored = new Map<string, Record<string, unknown>>();
  failCreates = 0;
  #gate: Promise<void> = Promise.resolve();
  #open: () => void = () => undefined;

  hold(): void {
    this.#gate = new Promise((r) => {
      this.#open = r;
    });
  }
  release(): void {
    this.#open();
  }

  create = async <T extends KubeObject>(_gvr: GroupVersionResource, body: KubeObjectInput): Promise<T> => {
    this.calls.push({ verb: 'create', body: body as Record<string, unknown> });
    await this.#gate;
    if (this.failCreates > 0) {
      this.failCreates--;
      throw new ApiError(500, 'create', '/api/v1/events', undefined);
    }
    const key = `${body.metadata.namespace}/${body.metadata.name}`;
    if (this.stored.has(key))
      throw new ApiError(409, 'create', key, { reason: 'AlreadyExists' } as ApiError['status']);
    this.stored.set(key, body as Record<string, unknown>);
    return body as unknown as T;
  };

  patch = async <T extends KubeObject>(_gvr: GroupVersionResource, key: string, patch: Patch): Promise<T> => {
    const merge = (patch as { patch: Record<string, unknown> }).patch;
    this.calls.push({ verb: 'patch', key, patch: merge });
    await this.#gate;
    const current = this.stored.get(key);
    if (current === undefined)
      throw new ApiError(404, 'patch', key, { reason: 'NotFound' } as ApiError['status']);
    const next = { ...current, ...merge };
    this.stored.set(key, next);
    return next as unknown as T;
  };

  verbs(): string[] {
    return this.calls.map((c) => c.verb);
  }
}

const template: EventSubject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { namespace: 'shop', name: 'web', uid: 'u-1', resourceVersion: '7' },
};
const other: EventSubject = { ...template, metadata: { ...template.metadata, name: 'api', uid: 'u-2' } };

function setup(options: { burst?: number; refillMs?: number; maxEntries?: number } = {}) {
  const writer = new FakeEventWriter();
  const clock = { t: Date.parse('2026-12-02T10:00:00Z') };
  const recorder = new EventRecorder({
    writer,
    component: 'binding-controller',
    log: pino({ level: 'silent' }),
    now: () => clock.t,
    ...options,
  });
  return { writer, clock, recorder };
}

describe('EventRecorder', () => {
  it('writes an Event the way client-go does: named after its object, count 1, both timestamps', async () => {
    const { writer, recorder } = setup();
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    expect(writer.calls).toHaveLength(1);
    const body = (writer.calls[0] as { body: Record<string, unknown> }).body;
    expect(body).toMatchObject({
      metadata: { namespace: 'shop', name: expect.stringMatching(/^web\.[0-9a-f]+$/) },
      involvedObject: {
        kind: 'Deployment',
        name: 'web',
        namespace: 'shop',
        uid: 'u-1',
        resourceVersion: '7',
      },
      type: 'Warning',
      reason: 'SyncWorkFailed',
      message: 'too large',
      source: { component: 'binding-controller' },
      count: 1,
      firstTimestamp: '2026-12-02T10:00:00.000Z',
      lastTimestamp: '2026-12-02T10:00:00.000Z',
    });
  });

  it('counts a repeat on the Event already written instead of writing another', async () => {
    const { writer, recorder, clock } = setup();
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    clock.t += 30_000;
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    expect(writer.verbs()).toEqual(['create', 'patch', 'patch']);
    const [event] = [...writer.stored.values()];
    expect(writer.stored.size).toBe(1);
    expect(event).toMatchObject({
      count: 3,
      firstTimestamp: '2026-12-02T10:00:00.000Z',
      lastTimestamp: '2026-12-02T10:00:30.000Z',
    });
  });

  it('writes a new Event when the object, type, reason or message differs', async () => {
    const { writer, recorder } = setup();
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'forbidden');
    await recorder.record(template, 'Normal', 'SyncWorkFailed', 'too large');
    await recorder.record(template, 'Warning', 'ApplyPolicyFailed', 'too large');
    await recorder.record(other, 'Warning', 'SyncWorkFailed', 'too large');
    expect(writer.verbs()).toEqual(['create', 'create', 'create', 'create', 'create']);
  });

  it('counts a repeat that arrives while the first write is in flight, after it (never two creates)', async () => {
    const { writer, recorder } = setup();
    writer.hold();
    const first = recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    const second = recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    writer.release();
    await Promise.all([first, second]);
    expect(writer.verbs()).toEqual(['create', 'patch']);
    expect([...writer.stored.values()][0]).toMatchObject({ count: 2 });
  });

  it('writes the Event again, with its count, when the server has dropped it (event TTL)', async () => {
    const { writer, recorder } = setup();
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    writer.stored.clear();
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    expect(writer.verbs()).toEqual(['create', 'patch', 'create']);
    expect([...writer.stored.values()][0]).toMatchObject({ count: 2, reason: 'SyncWorkFailed' });
  });

  it('after a failed create, the next repeat creates again rather than patching nothing', async () => {
    const { writer, recorder } = setup();
    writer.failCreates = 1;
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    await recorder.record(template, 'Warning', 'SyncWorkFailed', 'too large');
    expect(writer.verbs()).toEqual(['create', 'create']);
    expect(writer.stored.size).toBe(1);
  });

  it('drops Events about one object beyond the burst, then allows one per refill period', async () => {
    const { writer, recorder, clock } = setup({ burst: 3, refillMs: 300_000 });
    for (let i = 0; i < 5; i++) await recorder.record(template, 'Warning', 'R', `message ${i}`);
    expect(writer.calls).toHaveLength(3);
    expect(recorder.dropped).toBe(2);
    // Another object has its own bucket.
    await recorder.record(other, 'Warning', 'R', 'message 0');
    expect(writer.calls).toHaveLength(4);
    clock.t += 299_999;
    await recorder.record(template, 'Warning', 'R', 'late');
    expect(writer.calls).toHaveLength(4);
    clock.t += 1;
    await recorder.record(template, 'Warning', 'R', 'later');
    await recorder.record(template, 'Warning', 'R', 'too soon');
    expect(writer.calls).toHaveLength(5);
    expect(recorder.dropped).toBe(4);
  });

  it('cuts messages at 1,024 characters and treats equal cut messages as the same Event', async () => {
    const { writer, recorder } = setup();
    await recorder.record(template, 'Warning', 'R', `${'x'.repeat(1024)}a`);
    await recorder.record(template, 'Warning', 'R', `${'x'.repeat(1024)}b`);
    expect(writer.verbs()).toEqual(['create', 'patch']);
    expect(((writer.calls[0] as { body: Record<string, unknown> }).body.message as string).length).toBe(1024);
  });

  it('forgets the least recently used Events beyond its bound', async () => {
    const { writer, recorder } = setup({ maxEntries: 2 });
    await recorder.record(template, 'Warning', 'R', 'a');
    await recorder.record(template, 'Warning', 'R', 'b');
    await recorder.record(template, 'Warning', 'R', 'c');
    await recorder.record(template, 'Warning', 'R', 'a');
    expect(writer.verbs()).toEqual(['create', 'create', 'create', 'create']);
  });

  it('never throws: a failing writer is logged', async () => {
    const { writer, recorder } = setup();
    writer.failCreates = 5;
    await expect(recorder.record(template, 'Warning', 'R', 'a')).resolves.toBeUndefined();
    expect(() => recorder.sink(template, 'Warning', 'R', 'b')).not.toThrow();
  });
});
