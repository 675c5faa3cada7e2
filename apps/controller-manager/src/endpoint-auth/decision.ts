// What an endpoint's access check concluded. Kept apart from how it was checked so the dashboard and /metrics
// map the same outcomes to the same HTTP answers whatever decides them.

/** The outcome of checking one request to /metrics or the dashboard. */
export type AuthDecision =
  | { readonly allowed: true; readonly user: string }
  | {
      readonly allowed: false;
      /**
       * unauthenticated: no token, or the API server did not accept it (401).
       * forbidden: the token is valid but its user may not read this path (403).
       * unavailable: the API server could not be asked (503; the client should retry).
       */
      readonly reason: 'unauthenticated' | 'forbidden' | 'unavailable';
      readonly message: string;
    };

/** The HTTP status an AuthDecision that refuses maps to. */
export function refusalStatus(reason: 'unauthenticated' | 'forbidden' | 'unavailable'): 401 | 403 | 503 {
  switch (reason) {
    case 'unauthenticated':
      return 401;
    case 'forbidden':
      return 403;
    case 'unavailable':
      return 503;
  }
}
