// @warmstart/informer-cache/testing: an in-process fake kube-apiserver and wait helpers, for unit tests of code
// built on informers (controllers, detectors) without a real cluster.

export type {
  FakeApiServerOptions,
  FakeObjectInput,
  Fault,
  FaultMatcher,
  RecordedRequest,
} from './fake-api-server.js';
export { FAKE_TOKEN, FakeApiServer, INITIAL_EVENTS_END_ANNOTATION } from './fake-api-server.js';
export { Recorder, until } from './recorder.js';
export { selfSignedCertificate } from './self-signed.js';
