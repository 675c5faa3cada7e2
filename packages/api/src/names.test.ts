import { describe, expect, it } from 'vitest';
import { deepHashString, fnv32a, safeEncodeString } from './hash.js';
import {
  bindingName,
  bindingReferenceKey,
  clusterNameFromExecutionNamespace,
  executionNamespace,
  InvalidNameInputError,
  isReservedNamespace,
  workName,
} from './names.js';

describe('bindingName', () => {
  it.each([
    // Karmada's names_test.go cases and the reference's own example.
    ['Pods', 'pod', 'pod-pods'],
    ['pods', 'Pod', 'pod-pods'],
    ['Deployment', 'Nginx', 'nginx-deployment'],
    ['Deployment', 'nginx', 'nginx-deployment'],
    // ':' is not allowed in a CRD object's name, so Karmada swaps it for '.'.
    ['ClusterRole', 'system:controller:foo', 'system.controller.foo-clusterrole'],
    ['ClusterRoleBinding', 'system:basic-user', 'system.basic-user-clusterrolebinding'],
  ])('kind %s, name %s -> %s', (kind, name, expected) => {
    expect(bindingName(kind, name)).toBe(expected);
  });

  it('puts the name before the kind, not after', () => {
    expect(bindingName('ConfigMap', 'settings')).toBe('settings-configmap');
  });
});

describe('workName', () => {
  // Expected values computed with Karmada's GenerateWorkName formula in Go (go-spew d8f796af, apimachinery
  // v0.37.2 rand.SafeEncodeString), so a drift in the hash or the encoding shows up here.
  it.each([
    ['Deployment', 'nginx', 'default', 'nginx-6c47d997fc'],
    ['Deployment', 'Nginx', 'default', 'nginx-6c47d997fc'],
    ['Pod', 'pod', '', 'pod-9d6c69bf8'],
    ['pods', 'Pod', 'default', 'pod-758c7f54ff'],
    ['ClusterRole', 'system:controller:foo', '', 'system.controller.foo-67f654fdc5'],
    [
      'ConfigMap',
      'e1d4477a478c4797b03d22281718bd50-actor-configmap',
      'default',
      'e1d4477a478c4797b03d22281718bd50-actor-configmap-759c975db',
    ],
    ['Namespace', 'tenant-a', '', 'tenant-a-d7ddc96b5'],
  ])('kind %s, name %s, namespace %j -> %s', (kind, name, namespace, expected) => {
    expect(workName(kind, name, namespace)).toBe(expected);
  });

  it('treats an undefined namespace like a cluster-scoped one', () => {
    expect(workName('Namespace', 'tenant-a', undefined)).toBe('tenant-a-d7ddc96b5');
  });
});

describe('bindingReferenceKey', () => {
  it.each([
    ['prod-xxx', 'mytest-deployment', '5fd84f767b'],
    ['', 'mytest-deployment', '5cb5d6b85c'],
  ])('namespace %j, name %s -> %s', (namespace, name, expected) => {
    expect(bindingReferenceKey(namespace, name)).toBe(expected);
  });
});

describe('hash primitives', () => {
  it('fnv32a matches the published FNV-1a test vectors', () => {
    expect(fnv32a('')).toBe(0x811c9dc5);
    expect(fnv32a('a')).toBe(0xe40c292c);
    expect(fnv32a('foobar')).toBe(0xbf9cf968);
  });

  it('hashes a string the way go-spew prints it', () => {
    expect(deepHashString('default-nginx-deployment')).toBe(2703855397);
  });

  it('safeEncodeString maps every byte into the vowel-free alphabet', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });
});

describe('execution namespaces', () => {
  it('prefixes the cluster name with karmada-es-', () => {
    expect(executionNamespace('member-cluster-normal')).toBe('karmada-es-member-cluster-normal');
  });

  it('refuses an empty cluster name', () => {
    expect(() => executionNamespace('')).toThrow(InvalidNameInputError);
  });

  it.each([
    ['karmada-es-member-cluster-normal', 'member-cluster-normal'],
    ['invalid', undefined],
    ['', undefined],
  ])('cluster of %j is %j', (namespace, cluster) => {
    expect(clusterNameFromExecutionNamespace(namespace)).toBe(cluster);
  });
});

describe('isReservedNamespace', () => {
  it.each([
    ['karmada-system', true],
    ['karmada-cluster', true],
    ['karmada-es-member1', true],
    ['karmada-es-', true],
    // kube-* is skipped by the --skipped-propagating-namespaces default, not by this check.
    ['kube-system', false],
    ['default', false],
    ['karmada-other', false],
  ])('%s -> %s', (namespace, reserved) => {
    expect(isReservedNamespace(namespace)).toBe(reserved);
  });
});
