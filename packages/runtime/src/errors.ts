// The runtime's errors: each says what happened and what to do.

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
