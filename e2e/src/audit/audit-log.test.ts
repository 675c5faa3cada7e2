import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../testing/temp-dirs.js';
import { type AuditEvent, classify, readAuditLog, summarize } from './audit-log.js';

const tempDir = useTempDirs('audit-test-');

const ev = (over: Partial<AuditEvent> & Pick<AuditEvent, 'verb' | 'requestURI'>): AuditEvent => ({
  auditID: Math.random().toString(36),
  stage: 'ResponseComplete',
  user: { username: 'warmstart-manager' },
  objectRef: { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' },
  requestReceivedTimestamp: '2026-12-02T10:00:00.000000Z',
  stageTimestamp: '2026-12-02T10:00:00.010000Z',
  ...over,
});

describe('classify', () => {
  it('tells informer lists from direct lists by the resourceVersion parameter', () => {
    expect(classify(ev({ verb: 'list', requestURI: '/api/v1/configmaps?limit=500&resourceVersion=0' }))).toBe(
      'informer-list',
    );
    expect(classify(ev({ verb: 'list', requestURI: '/api/v1/configmaps?resourceVersion=' }))).toBe(
      'informer-list',
    );
    expect(classify(ev({ verb: 'list', requestURI: '/api/v1/configmaps?limit=500' }))).toBe('direct-list');
    expect(classify(ev({ verb: 'list', requestURI: '/api/v1/namespaces/default/configmaps' }))).toBe(
      'direct-list',
    );
  });

  it('counts every get as a direct read, and watches and writes as themselves', () => {
    expect(classify(ev({ verb: 'get', requestURI: '/api/v1/namespaces/default/configmaps/a' }))).toBe(
      'direct-get',
    );
    expect(
      classify(ev({ verb: 'watch', requestURI: '/api/v1/configmaps?watch=true&resourceVersion=5' })),
    ).toBe('watch');
    for (const verb of ['create', 'update', 'patch', 'delete', 'deletecollection']) {
      expect(classify(ev({ verb, requestURI: '/api/v1/namespaces/default/configmaps/a' }))).toBe('write');
    }
  });

  it('leaves non-resource requests out of the read and write counts', () => {
    expect(classify({ verb: 'get', requestURI: '/readyz' })).toBe('other');
  });
});

describe('readAuditLog', () => {
  it('keeps one entry per auditID, filters by user and time, and skips a torn last line', async () => {
    const dir = tempDir();
    const path = join(dir, 'audit.log');
    const watchStarted = ev({
      auditID: 'w1',
      stage: 'ResponseStarted',
      verb: 'watch',
      requestURI: '/api/v1/configmaps?watch=true&resourceVersion=1',
    });
    const lines = [
      watchStarted,
      { ...watchStarted, stage: 'ResponseComplete' },
      ev({ auditID: 'g1', verb: 'get', requestURI: '/api/v1/namespaces/default/configmaps/a' }),
      ev({
        auditID: 'other-user',
        verb: 'get',
        requestURI: '/api/v1/namespaces/default/configmaps/a',
        user: { username: 'someone' },
      }),
      ev({
        auditID: 'late',
        verb: 'create',
        requestURI: '/api/v1/namespaces/default/configmaps',
        requestReceivedTimestamp: '2026-12-02T11:00:00.000000Z',
      }),
    ].map((e) => JSON.stringify(e));
    await writeFile(path, `${lines.join('\n')}\n{"auditID":"torn`);
    const events = await readAuditLog(path, {
      user: 'warmstart-manager',
      until: Date.parse('2026-12-02T10:30:00Z'),
    });
    expect(events.map((e) => e.auditID)).toEqual(['w1', 'g1']);
    const summary = summarize(events);
    expect(summary.directReads).toBe(1);
    expect(summary.byClass.watch).toBe(1);
    expect(summary.byVerbAndResource).toEqual({ 'watch core/configmaps': 1, 'get core/configmaps': 1 });
  });
});
