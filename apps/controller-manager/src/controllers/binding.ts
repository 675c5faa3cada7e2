// ResourceBinding and ClusterResourceBinding are one shape with two kinds; these helpers pick the kind-specific
// keys Karmada uses for each.
import {
  Annotations,
  type ClusterResourceBinding,
  Finalizers,
  Labels,
  type ResourceBinding,
} from '@warmstart/api';

/** Either kind of binding. */
export type Binding = ResourceBinding | ClusterResourceBinding;

export function isClusterResourceBinding(
  binding: Readonly<Binding>,
): binding is Readonly<ClusterResourceBinding> {
  return binding.kind === 'ClusterResourceBinding';
}

/** The label that carries the binding's permanent id, on the binding itself and on its Works. */
export function bindingPermanentIdLabel(binding: Readonly<Binding>): string {
  return isClusterResourceBinding(binding)
    ? Labels.ClusterResourceBindingPermanentId
    : Labels.ResourceBindingPermanentId;
}

/** The binding's permanent id ('' when the webhook that sets it has not run). */
export function bindingPermanentId(binding: Readonly<Binding>): string {
  return binding.metadata.labels?.[bindingPermanentIdLabel(binding)] ?? '';
}

/** The annotations that name the binding, on its Works and on the manifests inside them. */
export function bindingReferenceAnnotations(binding: Readonly<Binding>): Record<string, string> {
  if (isClusterResourceBinding(binding)) {
    return { [Annotations.ClusterResourceBindingName]: binding.metadata.name ?? '' };
  }
  return {
    [Annotations.ResourceBindingNamespace]: binding.metadata.namespace ?? '',
    [Annotations.ResourceBindingName]: binding.metadata.name ?? '',
  };
}

/** The finalizer the binding controller owns on this kind of binding. */
export function bindingFinalizer(binding: Readonly<Binding>): string {
  return isClusterResourceBinding(binding) ? Finalizers.ClusterResourceBinding : Finalizers.ResourceBinding;
}
