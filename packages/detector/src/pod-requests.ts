// A pod template's effective resource request, computed the way Karmada's scheduler estimates it
// (util.Resource.AddPodTemplateRequest): requests default to limits per container; the pod's request is the
// sum over containers, at least the largest init container, plus overhead.
import type { ResourceList } from '@warmstart/api';
import { labelKeyProblems } from '@warmstart/informer-cache';
import { formatBinarySI, formatDecimalSI, integerValue, milliValue } from './quantity.js';

interface ContainerResources {
  readonly requests?: ResourceList;
  readonly limits?: ResourceList;
}

interface Container {
  readonly name?: string;
  readonly resources?: ContainerResources;
}

/** The part of a corev1.PodSpec this computation reads. */
export interface PodSpecResources {
  readonly containers?: readonly Container[];
  readonly initContainers?: readonly Container[];
  readonly overhead?: ResourceList;
}

function isExtendedResourceName(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  if (native || name.startsWith('requests.')) return false;
  return labelKeyProblems(`requests.${name}`).length === 0;
}

function isScalarResourceName(name: string): boolean {
  return (
    isExtendedResourceName(name) ||
    name.startsWith('hugepages-') ||
    name.includes('kubernetes.io/') ||
    name.startsWith('attachable-volumes-')
  );
}

// cpu in millicores, everything else in whole units; names the scheduler does not count are dropped.
function amountOf(name: string, quantity: string | number): bigint | undefined {
  if (name === 'cpu') return milliValue(quantity);
  if (name === 'memory' || name === 'pods' || name === 'ephemeral-storage' || isScalarResourceName(name)) {
    return integerValue(quantity);
  }
  return undefined;
}

function effectiveRequests(container: Container): ResourceList {
  const { requests, limits } = container.resources ?? {};
  return limits === undefined ? (requests ?? {}) : { ...limits, ...requests };
}

/**
 * The per-replica resource request of a pod spec, as canonical quantities, or undefined when it requests
 * nothing Karmada counts. Throws InvalidQuantityError on a malformed quantity.
 */
export function podResourceRequest(spec: PodSpecResources): ResourceList | undefined {
  const total = new Map<string, bigint>();
  const add = (list: ResourceList): void => {
    for (const [name, q] of Object.entries(list)) {
      const amount = amountOf(name, q);
      if (amount !== undefined) total.set(name, (total.get(name) ?? 0n) + amount);
    }
  };
  for (const c of spec.containers ?? []) add(effectiveRequests(c));
  for (const c of spec.initContainers ?? []) {
    for (const [name, q] of Object.entries(effectiveRequests(c))) {
      const amount = amountOf(name, q);
      if (amount !== undefined && amount > (total.get(name) ?? 0n)) total.set(name, amount);
    }
  }
  if (spec.overhead) add(spec.overhead);

  const out: Record<string, string> = {};
  for (const name of [...total.keys()].sort()) {
    const amount = total.get(name)!;
    if (amount <= 0n) continue;
    if (name === 'cpu') out[name] = formatDecimalSI(amount, -3);
    else if (name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-')) {
      out[name] = formatBinarySI(amount);
    } else out[name] = formatDecimalSI(amount, 0);
  }
  return Object.keys(out).length === 0 ? undefined : out;
}
