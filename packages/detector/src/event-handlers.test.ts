import { Labels } from '@warmstart/api';
import {
  type KubeObject as CachedObject,
  DeletedFinalStateUnknown,
  type Logger,
} from '@warmstart/informer-cache';
import { Recorder } from '@warmstart/informer-cache/testing';
import { LOW_PRIORITY } from '@warmstart/workqueue';
import { describe, expect, it } from 'vitest';
import { policyHandler, templateHandler } from './event-handlers.js';
import { encodeTemplateKey, type TemplateKey } from './keys.js';
import { compileSkippedNamespaces } from './skipped-namespaces.js';
import { SpecChanges } from './spec-changes.js';
import { deployment, pp, ppClaimed, wire } from './testing/fixtures.js';

interface Enqueued {
  readonly key: string;
  readonly priority: number | undefined;
}

function recordingLogger(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (message: string) => lines.push(`${level}: ${message}`);
  return { lines, debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

const cached = (o: object): CachedObject => wire(o) as CachedObject;

function templates(claimIsLazy: () => Promise<boolean> = async () => false) {
  const enqueued = new Recorder<Enqueued>();
  const logger = recordingLogger();
  const specChanges = new SpecChanges();
  const handler = templateHandler({
    skippedNamespaces: compileSkippedNamespaces(),
    enqueue: (key: TemplateKey, priority?: number) =>
      enqueued.push({ key: encodeTemplateKey(key), priority }),
    specChanges,
    claimIsLazy,
    logger,
  });
  return { handler, enqueued, logger, specChanges };
}

describe('templateHandler', () => {
  it('enqueues initial-list adds at LOW_PRIORITY and later adds at the default priority', () => {
    const { handler, enqueued } = templates();
    handler.onAdd?.(cached(deployment('a')), true);
    handler.onAdd?.(cached(deployment('b')), false);
    expect(enqueued.values).toEqual([
      { key: 'apps/v1/Deployment/default/a', priority: LOW_PRIORITY },
      { key: 'apps/v1/Deployment/default/b', priority: undefined },
    ]);
  });

  it('drops objects of skipped and reserved namespaces and the apiserver-owned ConfigMap', () => {
    const { handler, enqueued } = templates();
    handler.onAdd?.(cached(deployment('a', { namespace: 'kube-system' })), false);
    handler.onAdd?.(cached(deployment('a', { namespace: 'karmada-system' })), false);
    handler.onAdd?.(cached(deployment('a', { namespace: 'karmada-es-member1' })), false);
    handler.onDelete?.(cached(deployment('a', { namespace: 'kube-public' })));
    expect(enqueued.values).toEqual([]);
  });

  it('drops updates that change only status or bookkeeping, enqueues label and spec changes', () => {
    const { handler, enqueued, specChanges } = templates();
    const before = cached(deployment('a', { resourceVersion: '1' }));
    const key = { group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'default', name: 'a' };
    handler.onUpdate?.(
      before,
      cached({ ...before, status: { ready: 1 }, metadata: { ...before.metadata, resourceVersion: '2' } }),
    );
    handler.onUpdate?.(before, before);
    expect(enqueued.values).toEqual([]);
    expect(specChanges.has(key)).toBe(false);
    handler.onUpdate?.(before, cached({ ...before, metadata: { ...before.metadata, labels: { app: 'x' } } }));
    expect(enqueued.values).toEqual([{ key: 'apps/v1/Deployment/default/a', priority: undefined }]);
    expect(specChanges.has(key)).toBe(true);
  });

  it('flags a change Karmada alone made to a template of a Lazy policy, after reading the policy', async () => {
    const { handler, enqueued } = templates(async () => true);
    const policy = pp('lazy', [], { spec: { activationPreference: 'Lazy' } });
    const before = cached(deployment('a'));
    const claimed = cached({ ...before, metadata: ppClaimed(before.metadata as never, policy) });
    handler.onUpdate?.(before, claimed);
    expect((await enqueued.waitFor(() => true)).key).toBe('karmada:apps/v1/Deployment/default/a');
    const edited = cached({ ...claimed, spec: { replicas: 9 } });
    handler.onUpdate?.(claimed, edited);
    expect((await enqueued.next(() => true)).key).toBe('apps/v1/Deployment/default/a');
  });

  it('takes a change as the user’s when the claiming policy cannot be read', async () => {
    const { handler, enqueued, logger } = templates(() => Promise.reject(new Error('cache timeout')));
    const before = cached(deployment('a'));
    const claimed = cached({
      ...before,
      metadata: { ...before.metadata, labels: { [Labels.PropagationPolicyPermanentId]: 'x' } },
    });
    const withAnnotations = cached({
      ...claimed,
      metadata: ppClaimed(claimed.metadata as never, pp('p', [], { id: 'x' })),
    });
    handler.onUpdate?.(claimed, withAnnotations);
    expect((await enqueued.waitFor(() => true)).key).toBe('apps/v1/Deployment/default/a');
    expect(logger.lines.some((l) => l.startsWith('warn: could not read the claiming policy'))).toBe(true);
  });

  it('enqueues deletes, tombstones included', () => {
    const { handler, enqueued } = templates();
    handler.onDelete?.(cached(deployment('a')));
    handler.onDelete?.(new DeletedFinalStateUnknown('default/b', cached(deployment('b'))));
    expect(enqueued.values.map((e) => e.key)).toEqual([
      'apps/v1/Deployment/default/a',
      'apps/v1/Deployment/default/b',
    ]);
  });

  it('never throws out of a handler', () => {
    const logger = recordingLogger();
    const handler = templateHandler({
      skippedNamespaces: [],
      enqueue: () => {
        throw new Error('queue exploded');
      },
      specChanges: new SpecChanges(),
      claimIsLazy: async () => false,
      logger,
    });
    expect(() => handler.onAdd?.(cached(deployment('a')), false)).not.toThrow();
    expect(logger.lines).toEqual(['error: resource detector event handler failed']);
  });
});

describe('policyHandler', () => {
  function policies(peers?: () => Promise<ReturnType<typeof pp>[]>) {
    const enqueued = new Recorder<Enqueued>();
    const handler = policyHandler({
      kind: 'PropagationPolicy',
      enqueue: (key, priority) => enqueued.push({ key, priority }),
      ...(peers === undefined ? {} : { peers }),
      logger: recordingLogger(),
    });
    return { handler, enqueued };
  }
  const withGeneration = (policy: ReturnType<typeof pp>, generation: number, extra: object = {}) =>
    cached({
      ...policy,
      metadata: { ...policy.metadata, generation, uid: 'u', resourceVersion: '1', ...extra },
    });

  it('enqueues adds (initial list at LOW_PRIORITY) and only updates that change the generation', () => {
    const { handler, enqueued } = policies();
    const v1 = withGeneration(pp('web', []), 1);
    handler.onAdd?.(v1, true);
    handler.onUpdate?.(v1, withGeneration(pp('web', [], { id: 'new-label-only' }), 1));
    handler.onUpdate?.(v1, withGeneration(pp('web', []), 2));
    handler.onUpdate?.(v1, withGeneration(pp('web', []), 1, { deletionTimestamp: '2026-01-01T00:00:00Z' }));
    expect(enqueued.values).toEqual([
      { key: 'default/web', priority: LOW_PRIORITY },
      { key: 'default/web', priority: undefined },
      { key: 'default/web', priority: undefined },
    ]);
  });

  it('after a priority drop, lets the preempting peers in between try again, highest first', async () => {
    const peers = [
      pp('p5', [], { priority: 5, spec: { preemption: 'Always' } }),
      pp('p8', [], { priority: 8, spec: { preemption: 'Always' } }),
      pp('never', [], { priority: 7 }),
      pp('p20', [], { priority: 20, spec: { preemption: 'Always' } }),
    ];
    const { handler, enqueued } = policies(async () => peers);
    handler.onUpdate?.(
      withGeneration(pp('web', [], { priority: 10 }), 1),
      withGeneration(pp('web', [], { priority: 1 }), 2),
    );
    await enqueued.waitFor((e) => e.key === 'default/p5');
    expect(enqueued.values.map((e) => e.key)).toEqual(['default/web', 'default/p8', 'default/p5']);
  });
});
