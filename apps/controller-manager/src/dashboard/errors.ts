// Typed errors of the dashboard.

/** The dashboard's server could not listen on its address (in use, not on this host, not permitted). */
export class DashboardListenError extends Error {
  constructor(
    /** The address asked for, "host:port". */
    readonly address: string,
    cause: unknown,
  ) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    super(
      `the dashboard could not listen on ${address}: ${code ?? String(cause)}. ` +
        "Pick a free local address with --dashboard-bind-address, or '0' to run without the dashboard.",
      { cause },
    );
    this.name = new.target.name;
  }
}
