// What the status page shows, as plain data the manager produces and the page renders. Counts, names, states
// and error texts only: never object contents, never credentials. Keep it that way when adding a field,
// because /status.json and /events hand every field to whoever can reach the dashboard.

/** One informer: a (cluster, resource) cache and how far its initial list has come. */
export interface InformerStatus {
  readonly cluster: string;
  /** "group/version/resource", e.g. "apps/v1/deployments". */
  readonly resource: string;
  /** pending: still listing; open: synced; failed: the list or watch failed (see error). */
  readonly state: 'pending' | 'open' | 'failed';
  /** Objects in the store (listed so far while pending). */
  readonly objects: number;
  /** Objects per second during the initial list; undefined before the first page or when unknown. */
  readonly listRatePerSecond: number | undefined;
  /** Since the informer was created while pending; else how long its sync took. */
  readonly waitingMs: number;
  /** The owner's progress text, e.g. "listed 41,000 objects, page 42". */
  readonly progress: string | undefined;
  /** Why it failed, when failed. */
  readonly error: string | undefined;
}

/** One controller: its work queue and what it waits for. */
export interface ControllerStatus {
  readonly name: string;
  /** Keys waiting in the queue. */
  readonly queueDepth: number;
  /** Keys being reconciled now. */
  readonly inFlight: number;
  /** Cache reads that had to wait for an informer to sync. */
  readonly readerWaits: number;
  /** The last failed reconcile: the object key, the error text and when (epoch ms). */
  readonly lastError: Readonly<{ key: string; message: string; at: number }> | undefined;
  /** What the controller waits for before it starts, e.g. "leader" or a gate name; undefined once started. */
  readonly waitingFor: string | undefined;
}

/** Everything the page shows, at one instant. */
export interface DashboardStatus {
  /** The --cache-sync-strategy in force. */
  readonly strategy: string;
  /** Process start, epoch ms. */
  readonly startedAt: number;
  /** When this snapshot was taken, epoch ms. */
  readonly now: number;
  /** This replica's identity, whether it leads, and the current holder of the lease if known. */
  readonly leader: Readonly<{ identity: string; leading: boolean; holder: string | undefined }>;
  /** Reads that went to the API server instead of a cache; 0 is the goal. */
  readonly directReads: number;
  /** Whether /readyz would answer ready. */
  readonly ready: boolean;
  readonly informers: readonly InformerStatus[];
  readonly controllers: readonly ControllerStatus[];
}

/** Where the dashboard gets its data. The manager implements it. */
export interface StatusSource {
  /** The state now. Called on every page load, /status.json request and (coalesced) change; must be cheap. */
  snapshot(): DashboardStatus;
  /** Optional push: called on any change; the dashboard coalesces. Returns an unsubscribe function. */
  onChange?(listener: () => void): () => void;
}
