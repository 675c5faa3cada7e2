// Optional bearer-token protection of /metrics and the dashboard (--metrics-auth, --dashboard-auth), checked by
// the API server with TokenReview and SubjectAccessReview.
export { type AuthDecision, refusalStatus } from './decision.js';
export {
  bearerToken,
  DelegatedAuth,
  type DelegatedAuthOptions,
  type ReviewClient,
  SUBJECT_ACCESS_REVIEWS,
  TOKEN_REVIEWS,
} from './delegated-auth.js';
