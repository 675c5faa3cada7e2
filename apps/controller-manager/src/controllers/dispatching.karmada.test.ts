// Karmada conformance for the Work Dispatching condition, transcribed from Karmada at commit
// f8fdd02df3760fd9521624f284877fa84e7be6ef (2026-08-21): the dispatching cases of TestExecutionController_Reconcile
// (pkg/controllers/execution/execution_controller_test.go) and the values of updateWorkDispatchingConditionIfNeeded
// (pkg/controllers/execution/execution_controller.go; the type in pkg/apis/work/v1alpha1/work_types.go, the Event
// reason in pkg/events/events.go). Each case keeps the Go case's name.
import type { Condition } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import { setCondition } from './conditions.js';
import { dispatchingChanged, dispatchingCondition, planWorkSync } from './execution.js';
import { cluster, work } from './testing/fixtures.js';
import { WorkDispatchingEventReason } from './well-known.js';

const NOW = '2026-08-21T03:10:35Z';

/** One pass of updateWorkDispatchingConditionIfNeeded over the stored conditions: the list written, if any. */
function dispatchingPass(
  suspend: boolean | undefined,
  stored: readonly Condition[] | undefined,
): Condition[] | undefined {
  const w = work(suspend === undefined ? {} : { suspend });
  const next = dispatchingCondition(w);
  return dispatchingChanged(stored, next) ? setCondition(stored, next, NOW) : undefined;
}

describe('TestExecutionController_Reconcile (dispatching cases)', () => {
  it('work dispatching is suspended, no error, no apply', () => {
    expect(planWorkSync(work({ suspend: true }), cluster('member1'), () => undefined).kind).toBe('suspended');
  });

  it('work dispatching is suspended, adds false dispatching condition', () => {
    expect(dispatchingPass(true, undefined)).toEqual([
      {
        type: 'Dispatching',
        status: 'False',
        reason: 'SuspendDispatching',
        message: 'Work dispatching is in a suspended state.',
        lastTransitionTime: NOW,
      },
    ]);
  });

  it('work dispatching is suspended, adds event message', () => {
    // Go expects "Normal WorkDispatching Work dispatching is in a suspended state.": the Event carries the message
    // of the condition it goes with.
    expect(WorkDispatchingEventReason).toBe('WorkDispatching');
    expect(dispatchingCondition(work({ suspend: true })).message).toBe(
      'Work dispatching is in a suspended state.',
    );
  });

  it('work dispatching is suspended, overwrites existing dispatching condition', () => {
    const stored: Condition[] = [
      { type: 'Dispatching', status: 'True', reason: 'Dispatching', message: '', lastTransitionTime: '' },
    ];
    expect(dispatchingPass(true, stored)?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['Dispatching', 'False', 'SuspendDispatching'],
    ]);
  });

  it('suspend work with deletion timestamp is deleted', () => {
    // A Work being deleted is cleaned up; its Dispatching condition is not looked at.
    expect(
      planWorkSync(work({ suspend: true, deleting: true }), cluster('member1'), () => undefined).kind,
    ).toBe('deleting');
  });
});

describe('updateWorkDispatchingConditionIfNeeded', () => {
  it('not suspended: True, reason Dispatching, with its message', () => {
    expect(dispatchingPass(undefined, undefined)).toEqual([
      {
        type: 'Dispatching',
        status: 'True',
        reason: 'Dispatching',
        message: 'Work is being dispatched to member clusters.',
        lastTransitionTime: NOW,
      },
    ]);
    expect(dispatchingPass(false, undefined)?.[0]?.status).toBe('True');
  });

  it('present with the same status: nothing is written, whatever its reason or message (IsStatusConditionPresentAndEqual)', () => {
    const stored: Condition[] = [
      { type: 'Dispatching', status: 'True', reason: 'Other', message: 'other', lastTransitionTime: NOW },
    ];
    expect(dispatchingPass(undefined, stored)).toBeUndefined();
    expect(dispatchingPass(true, [{ ...stored[0]!, status: 'False' }])).toBeUndefined();
  });

  it('resumed: back to True with a new transition time; the Applied condition beside it is kept in its place', () => {
    const applied: Condition = {
      type: 'Applied',
      status: 'True',
      reason: 'AppliedSuccessful',
      message: 'Manifest has been successfully applied',
      lastTransitionTime: '2026-08-01T00:00:00Z',
    };
    const stored: Condition[] = [
      {
        type: 'Dispatching',
        status: 'False',
        reason: 'SuspendDispatching',
        message: 'Work dispatching is in a suspended state.',
        lastTransitionTime: '2026-08-02T00:00:00Z',
      },
      applied,
    ];
    expect(dispatchingPass(false, stored)).toEqual([
      {
        type: 'Dispatching',
        status: 'True',
        reason: 'Dispatching',
        message: 'Work is being dispatched to member clusters.',
        lastTransitionTime: NOW,
      },
      applied,
    ]);
  });
});
