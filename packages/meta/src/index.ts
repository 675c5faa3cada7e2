// @warmstart/meta: the one Kubernetes object model (ObjectMeta, KubeObject) and typed resource descriptors.
// This file is the package's whole public surface.
export type {
  KubeObject,
  KubeObjectInput,
  LabelSelector,
  LabelSelectorRequirement,
  ObjectKey,
  ObjectMeta,
  OwnerReference,
  StringMap,
} from './object.js';
export type { GroupVersionResource, ObjectOf, Resource } from './resource.js';
export { apiVersionOf, gvrToString, resource } from './resource.js';
