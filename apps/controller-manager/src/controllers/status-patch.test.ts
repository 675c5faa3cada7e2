// The lost-condition race on a binding (issue 15): the scheduler (Scheduled) and the binding status controller
// (FullyApplied) both replace status.conditions by merge patch, each computing its list from its cache. Here each
// writes from a cache one write behind the API server, which holds the other controller's condition. The server is
// a fake for this edge case: RFC 7386 over the stored status, and a 409 when the patch names another
// resourceVersion; that the real kube-apiserver refuses such a /status patch is asserted in
// e2e/src/manager/status-aggregation.int.test.ts.
import {
  type AggregatedStatusItem,
  type Condition,
  KarmadaResources,
  type ResourceBinding,
  type ResourceBindingStatus,
} from '@warmstart/api';
import { ApiError } from '@warmstart/informer-cache';
import type { WriteClient } from '@warmstart/runtime';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { bindingStatusUpdate } from './aggregate-status.js';
import { scheduleStatusUpdate } from './schedule-writes.js';
import type { ScheduleResult } from './scheduler.js';
import {
  type StatusFields,
  type StatusMergePatch,
  statusMergePatch,
  statusWriteName,
  UnversionedConditionsWriteError,
  writeStatus,
} from './status-patch.js';
import { resourceBinding } from './testing/fixtures.js';

const NOW = '2026-12-04T18:00:00Z';
const EARLIER = '2026-12-04T17:00:00Z';
const clusters = [{ name: 'member1', replicas: 1 }];

const scheduledTrue: Condition = {
  type: 'Scheduled',
  status: 'True',
  reason: 'Success',
  message: 'Binding has been scheduled successfully.',
  lastTransitionTime: EARLIER,
};
const fullyAppliedTrue: Condition = {
  type: 'FullyApplied',
  status: 'True',
  reason: 'FullyAppliedSuccess',
  message: 'All works have been successfully applied',
  lastTransitionTime: EARLIER,
};
const appliedItems: AggregatedStatusItem[] = [{ clusterName: 'member1', applied: true, health: 'Healthy' }];

function binding(resourceVersion: string, status: ResourceBindingStatus): ResourceBinding {
  const b = resourceBinding({ generation: 2, clusters, status });
  return { ...b, metadata: { ...b.metadata, resourceVersion } };
}

function mergeJson(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergeJson(out[k], v);
  }
  return out;
}

/** The API server's /status merge patch, as far as this race goes: the status merged, or 409 on a stale version. */
function serverPatchStatus(
  stored: ResourceBinding,
  patch: StatusMergePatch | { readonly status: StatusFields },
): { readonly code: 200; readonly stored: ResourceBinding } | { readonly code: 409 } {
  const precondition = 'metadata' in patch ? patch.metadata?.resourceVersion : undefined;
  if (precondition !== undefined && precondition !== stored.metadata.resourceVersion) return { code: 409 };
  const status = mergeJson(stored.status ?? {}, patch.status) as ResourceBindingStatus;
  const resourceVersion = String(Number(stored.metadata.resourceVersion) + 1);
  return { code: 200, stored: { ...stored, metadata: { ...stored.metadata, resourceVersion }, status } };
}

const types = (b: ResourceBinding) => b.status?.conditions?.map((c) => `${c.type}=${c.status}`);

describe('the scheduler, from a cache that has not seen FullyApplied', () => {
  const noFit: ScheduleResult = {
    kind: 'Unschedulable',
    reason: 'NoClusterFit',
    message:
      '0/2 clusters are available: 2 cluster(s) did not match the placement cluster affinity constraint.',
    clusters: [],
  };
  const base: ResourceBindingStatus = {
    schedulerObservedGeneration: 2,
    lastScheduledTime: EARLIER,
    conditions: [scheduledTrue],
  };
  const cached = binding('11', base);
  // The binding status controller's write (resourceVersion 12) is on the server, not yet in the scheduler's cache.
  const server = binding('12', { ...base, conditions: [scheduledTrue, fullyAppliedTrue] });

  it('the status it computes replaces the conditions list', () => {
    expect(scheduleStatusUpdate(cached, noFit, NOW)?.conditions?.map((c) => c.type)).toEqual(['Scheduled']);
  });

  it('sent as a bare merge patch (as before the fix) it drops FullyApplied: the race reproduced', () => {
    const status = scheduleStatusUpdate(cached, noFit, NOW)!;
    const after = serverPatchStatus(server, { status });
    expect(after.code).toBe(200);
    if (after.code === 200) expect(types(after.stored)).toEqual(['Scheduled=False']);
  });

  it('sent as statusMergePatch it is refused with 409 and FullyApplied stays', () => {
    const status = scheduleStatusUpdate(cached, noFit, NOW)!;
    expect(serverPatchStatus(server, statusMergePatch(cached, status)).code).toBe(409);
  });

  it('the retry, from a cache that caught up, keeps both conditions', () => {
    const status = scheduleStatusUpdate(server, noFit, NOW)!;
    const after = serverPatchStatus(server, statusMergePatch(server, status));
    expect(after.code).toBe(200);
    if (after.code === 200) expect(types(after.stored)).toEqual(['Scheduled=False', 'FullyApplied=True']);
  });

  it('a write that leaves Scheduled as it is carries no conditions and no precondition', () => {
    const moved = binding('11', { ...base, schedulerObservedGeneration: 1 });
    const status = scheduleStatusUpdate(moved, { kind: 'Scheduled', clusters }, NOW)!;
    const patch = statusMergePatch(moved, status);
    expect(patch).toEqual({ status: { schedulerObservedGeneration: 2, lastScheduledTime: NOW } });
    const after = serverPatchStatus(server, patch);
    expect(after.code).toBe(200);
    if (after.code === 200) expect(types(after.stored)).toEqual(['Scheduled=True', 'FullyApplied=True']);
  });
});

describe('the binding status controller, from a cache that has not seen the new Scheduled', () => {
  const scheduledFalse: Condition = {
    type: 'Scheduled',
    status: 'False',
    reason: 'NoClusterFit',
    message: '0/2 clusters are available.',
    lastTransitionTime: NOW,
  };
  const cached = binding('11', { conditions: [scheduledTrue] });
  // The scheduler's write (resourceVersion 12): Scheduled turned False.
  const server = binding('12', { conditions: [scheduledFalse] });

  it('sent as a bare merge patch (as before the fix) it puts the stale Scheduled=True back: the race reproduced', () => {
    const status = bindingStatusUpdate(cached, appliedItems, NOW)!;
    const after = serverPatchStatus(server, { status });
    expect(after.code).toBe(200);
    if (after.code === 200) expect(types(after.stored)).toEqual(['Scheduled=True', 'FullyApplied=True']);
  });

  it('sent as statusMergePatch it is refused with 409; the retry keeps Scheduled=False', () => {
    expect(
      serverPatchStatus(server, statusMergePatch(cached, bindingStatusUpdate(cached, appliedItems, NOW)!))
        .code,
    ).toBe(409);
    const after = serverPatchStatus(
      server,
      statusMergePatch(server, bindingStatusUpdate(server, appliedItems, NOW)!),
    );
    expect(after.code).toBe(200);
    if (after.code === 200) expect(types(after.stored)).toEqual(['Scheduled=False', 'FullyApplied=True']);
  });

  it('an aggregatedStatus change with FullyApplied unchanged leaves the conditions out and cannot conflict', () => {
    const stale = binding('11', { conditions: [scheduledTrue, fullyAppliedTrue], aggregatedStatus: [] });
    const status = bindingStatusUpdate(stale, appliedItems, NOW)!;
    expect(status).toEqual({ aggregatedStatus: appliedItems });
    const after = serverPatchStatus(
      binding('12', { conditions: [scheduledFalse, fullyAppliedTrue] }),
      statusMergePatch(stale, status),
    );
    expect(after.code).toBe(200);
    if (after.code === 200) expect(types(after.stored)).toEqual(['Scheduled=False', 'FullyApplied=True']);
  });

  it('nothing changed: nothing to write', () => {
    const settled = binding('12', {
      conditions: [scheduledTrue, fullyAppliedTrue],
      aggregatedStatus: appliedItems,
    });
    expect(bindingStatusUpdate(settled, appliedItems, NOW)).toBeUndefined();
  });
});

describe('statusMergePatch', () => {
  it('refuses to replace conditions computed from an object without a resourceVersion', () => {
    const unversioned = resourceBinding({ status: { conditions: [scheduledTrue] } });
    expect(() => statusMergePatch(unversioned, { conditions: [] })).toThrow(UnversionedConditionsWriteError);
    expect(statusMergePatch(unversioned, { lastScheduledTime: NOW })).toEqual({
      status: { lastScheduledTime: NOW },
    });
  });
});

describe('writeStatus', () => {
  const refusing = (error: Error): WriteClient => {
    const fail = () => Promise.reject(error);
    return {
      create: fail,
      update: fail,
      updateStatus: fail,
      patch: fail,
      patchStatus: fail,
      apply: fail,
      delete: fail,
    };
  };
  const gvr = KarmadaResources.ResourceBinding;
  const patch = { status: {} };
  const signal = new AbortController().signal;
  const lines: Record<string, unknown>[] = [];
  const who = {
    log: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
    controller: 'resource-binding-status',
    write: 'conditions[FullyApplied]+aggregatedStatus',
    baseConditions: ['Scheduled'],
  };

  it('a 409 Conflict is an outcome to requeue on, not an error', async () => {
    const conflict = new ApiError(409, 'PATCH', '/x', {
      reason: 'Conflict',
      message: 'the object has been modified',
    });
    expect(await writeStatus(refusing(conflict), gvr, { name: 'b' }, patch, signal, who)).toEqual({
      kind: 'conflict',
    });
  });

  it('a 409 leaves one info line naming the controller, the object, the write and what it was computed from', async () => {
    lines.length = 0;
    const conflict = new ApiError(409, 'PATCH', '/x', { reason: 'Conflict', message: 'modified' });
    const guarded = { metadata: { resourceVersion: '41' }, status: { conditions: [] } };
    await writeStatus(refusing(conflict), gvr, { namespace: 'ns', name: 'b' }, guarded, signal, who);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        controller: 'resource-binding-status',
        resource: 'resourcebindings',
        object: 'ns/b',
        write: 'conditions[FullyApplied]+aggregatedStatus',
        resourceVersion: '41',
        baseConditions: ['Scheduled'],
      }),
    ]);
  });

  it('any other failure is thrown', async () => {
    lines.length = 0;
    const forbidden = new ApiError(403, 'PATCH', '/x', { reason: 'Forbidden', message: 'no' });
    await expect(writeStatus(refusing(forbidden), gvr, { name: 'b' }, patch, signal, who)).rejects.toBe(
      forbidden,
    );
    expect(lines).toHaveLength(0);
  });
});

describe('statusWriteName', () => {
  it('names the fields, with the condition types the list sets', () => {
    expect(statusWriteName({ conditions: [], lastScheduledTime: 't' }, ['Scheduled'])).toBe(
      'conditions[Scheduled]+lastScheduledTime',
    );
    expect(statusWriteName({ aggregatedStatus: null }, ['FullyApplied'])).toBe('aggregatedStatus');
  });
});
