// The runtime's errors: each says what happened and what to do.
import { describeCause as describe } from '@warmstart/sync-gate';

/** A Controller or Manager was used out of order (started twice, built after start, no reconcile given). */
export class ControllerStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ControllerStateError';
  }
}

/** Leadership was lost: the manager stops so a standby can lead. */
export class LeadershipLostError extends Error {
  constructor(identity: string) {
    super(
      `${identity} lost the leader lease (could not renew within the renew deadline); stopping so a standby can lead`,
    );
    this.name = 'LeadershipLostError';
  }
}

/** The lifecycle was used against its state machine (started twice, a runnable added after stop, ...). */
export class LifecycleStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LifecycleStateError';
  }
}

/** A runnable's start threw or rejected, or it reported a failure later; the lifecycle stopped because of it. */
export class RunnableFailedError extends Error {
  constructor(
    /** The runnable's name. */
    readonly runnable: string,
    /** The name of the group it belongs to. */
    readonly group: string,
    cause: unknown,
  ) {
    super(
      `runnable "${runnable}" in group "${group}" failed: ${describe(cause)}. ` +
        'Every started runnable was stopped in reverse order; fix the cause and start again.',
      { cause },
    );
    this.name = 'RunnableFailedError';
  }
}

/** A group could not start because a gate it waits for did not open (deadline, unknown gate). */
export class GroupStartError extends Error {
  constructor(
    /** The group's name. */
    readonly group: string,
    cause: unknown,
  ) {
    super(`group "${group}" did not start: ${describe(cause)}`, { cause });
    this.name = 'GroupStartError';
  }
}

/** A --cache-sync-strategy value that is not one of the known names. */
export class UnknownStrategyError extends Error {
  constructor(
    /** The value that was given. */
    readonly value: string,
    known: readonly string[],
  ) {
    super(`unknown cache sync strategy "${value}"; use one of: ${known.join(', ')}`);
    this.name = 'UnknownStrategyError';
  }
}
