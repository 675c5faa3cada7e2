// The Host-header check that keeps a localhost dashboard localhost: without it, a web page the operator
// visits could point its own DNS name at 127.0.0.1 (DNS rebinding) and read /status.json same-origin.

/** The names a browser uses for a dashboard bound to a loopback address. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/** Whether a bind address or host name is a loopback one (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The host name of a Host header without its port ("[::1]:8090" -> "::1"); undefined when absent. */
export function hostName(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h : h.slice(1, end);
  }
  const colon = h.indexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}
