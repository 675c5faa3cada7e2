// @warmstart/detector/testing: the loader of test tables transcribed from Karmada's Go tests, for packages that
// repeat Karmada's tests of code built on the detector (the controller manager does). Test-only; not part of
// the detector's runtime API.

export type { KarmadaTable } from './karmada-cases.js';
export { karmadaTable } from './karmada-cases.js';
