import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AuditEvent, type ClassifiedEvent, classify } from '../audit/audit-log.js';
import type { ClusterInfo } from '../cluster/provider.js';
import { useTempDirs } from '../testing/temp-dirs.js';
import { changePaths, memberStage } from './change-path.js';

const tempDir = useTempDirs('change-path-');

const T0 = Date.parse('2026-12-05T10:00:00Z');
let id = 0;
/** A write of `resource` `name`, received at T0 + `ms` and answered 5 ms later. */
const write = (resource: string, name: string, ms: number, userAgent = 'warmstart/0.0.0 (detector)') => {
  const e: AuditEvent = {
    auditID: `a${id++}`,
    stage: 'ResponseComplete',
    verb: 'patch',
    requestURI: `/x/${name}`,
    user: { username: 'warmstart-manager' },
    userAgent,
    objectRef: { resource, name },
    responseStatus: { code: 200 },
    requestReceivedTimestamp: new Date(T0 + ms).toISOString(),
    stageTimestamp: new Date(T0 + ms + 5).toISOString(),
  };
  return e;
};
const classified = (e: AuditEvent): ClassifiedEvent => ({ ...e, class: classify(e), resourceKey: '' });

describe('changePaths', () => {
  it("gives each change its own stages, from writes after it only, reading each member's log once", async () => {
    const dir = tempDir();
    const auditLogPath = join(dir, 'audit.log');
    await writeFile(
      auditLogPath,
      `${[
        write('deployments', 'wl-000001', 900),
        write('deployments', 'wl-000000', 2_000),
        write('deployments', 'wl-000001', 3_000),
      ]
        .map((e) => JSON.stringify(e))
        .join('\n')}\n`,
    );
    const member = { name: 'member1', auditLogPath } as ClusterInfo;
    const host = [
      // The early change (wl-000000 at T0 + 100): its binding at 600, a scheduler write at 700, a Work at 800.
      write('resourcebindings', 'wl-000000-deployment', 600),
      write('resourcebindings', 'wl-000000-deployment', 700, 'warmstart/0.0.0 (scheduler)'),
      write('works', 'wl-000000-5d8f', 800),
      // The late change (wl-000001 at T0 + 1000): a binding write before it does not count.
      write('resourcebindings', 'wl-000001-deployment', 500),
      write('resourcebindings', 'wl-000001-deployment', 1_400),
    ].map(classified);
    const [late, early] = await changePaths(
      host,
      [member],
      [
        { name: 'wl-000001', at: T0 + 1_000 },
        { name: 'wl-000000', at: T0 + 100 },
      ],
    );
    expect(early).toEqual({
      detector: 505,
      scheduler: 605,
      'binding-controller': 705,
      [memberStage('member1')]: 1_905,
    });
    expect(late).toEqual({ detector: 405, [memberStage('member1')]: 2_005 });
  });
});
