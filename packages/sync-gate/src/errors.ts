// Typed errors for waits on gates. Each names the gate and how long the caller waited, so a log line alone
// tells an operator which cache or start-up step held things up.

/** Base class of every error a gate wait rejects with. */
export class GateWaitError extends Error {
  constructor(
    message: string,
    /** The name of the gate that was waited on. */
    readonly gate: string,
    /** Milliseconds between the start of the wait and this error. */
    readonly waitedMs: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The gate failed (or was already failed) while the caller waited. `cause` is the owner's reason. */
export class GateFailedError extends GateWaitError {
  constructor(gate: string, waitedMs: number, cause: unknown) {
    super(
      `gate "${gate}" failed after ${waitedMs} ms: ${describe(cause)}. ` +
        "Fix the cause (see the gate owner's logs or /readyz?verbose); the owner resets the gate when it retries.",
      gate,
      waitedMs,
      { cause },
    );
  }
}

/** The caller's deadline passed before the gate opened. */
export class GateTimeoutError extends GateWaitError {
  constructor(
    gate: string,
    waitedMs: number,
    /** The owner's progress text at the moment of the timeout, if any (e.g. "listed 41,000 objects"). */
    readonly progress: string | undefined,
    /** The gate's failure text when it was failed at the deadline (a wait with tolerateFailure), else undefined. */
    readonly lastError?: string | undefined,
    /** Set when the stall deadline ended the wait: milliseconds since the owner's last progress (or the start). */
    readonly stalledMs?: number | undefined,
  ) {
    super(
      (stalledMs === undefined
        ? `timed out after ${waitedMs} ms waiting for gate "${gate}"`
        : `gate "${gate}" made no progress for ${stalledMs} ms (waited ${waitedMs} ms)`) +
        (progress ? ` (progress: ${progress})` : '') +
        (lastError ? `; the gate is failed: ${lastError}` : '') +
        '. Raise the deadline if the work is just slow, or check /readyz?verbose for what is stuck.',
      gate,
      waitedMs,
    );
  }
}

/** The caller's AbortSignal fired before the gate opened. `cause` is the signal's reason. */
export class GateAbortedError extends GateWaitError {
  constructor(gate: string, waitedMs: number, reason: unknown) {
    super(`wait for gate "${gate}" was aborted after ${waitedMs} ms: ${describe(reason)}`, gate, waitedMs, {
      cause: reason,
    });
  }
}

/** A gate was used against its state machine (e.g. reset while open). */
export class GateStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GateStateError';
  }
}

/** A gate name is already taken in a registry or an aggregate. */
export class DuplicateGateError extends Error {
  constructor(
    /** The name that is already registered. */
    readonly gate: string,
    where: string,
  ) {
    super(
      `a different gate named "${gate}" is already registered in ${where}; gate names must be unique ` +
        '(unregister the old one first, or pick a distinct name such as "informer:<cluster>/<group>/<version>/<resource>")',
    );
    this.name = 'DuplicateGateError';
  }
}

/** No gate of that name is registered where a lifecycle group or an aggregate looked for it. */
export class UnknownGateError extends Error {
  constructor(
    /** The name that was looked up. */
    readonly gate: string,
  ) {
    super(
      `no gate named "${gate}" is registered in the readiness registry; register it (e.g. readiness.allOf("${gate}")) ` +
        'before the lifecycle reaches the group that waits for it',
    );
    this.name = 'UnknownGateError';
  }
}

/** The cause an aggregate gate fails with: it names the member that failed and carries that member's cause. */
export class MemberFailedError extends Error {
  constructor(
    /** The aggregate gate's name. */
    readonly aggregate: string,
    /** The failed member's name. */
    readonly member: string,
    cause: unknown,
  ) {
    super(`member "${member}" failed: ${describe(cause)}`, { cause });
    this.name = 'MemberFailedError';
  }
}

/** Renders any thrown value or failure cause as one line of text. */
export function describe(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === 'string') return cause;
  try {
    return JSON.stringify(cause) ?? String(cause);
  } catch {
    return String(cause);
  }
}
