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

// Karmada conformance: cases transcribed from pkg/util/names/names_test.go at Karmada commit
// f8fdd02df3760fd9521624f284877fa84e7be6ef. Where Karmada's test computes its expectation with the formula
// itself (TestGenerateWorkName, TestGenerateBindingReferenceKey), the pinned value is what Karmada's own
// function returned when run at that commit, so a drift in the hash or the encoding shows up here.
const KARMADA_NAMES_TEST = 'pkg/util/names/names_test.go';

describe('bindingName', () => {
  it.each([
    ['TestGenerateBindingName', 'uppercase kind', 'Pods', 'pod', 'pod-pods'],
    ['TestGenerateBindingName', 'uppercase name', 'pods', 'Pod', 'pod-pods'],
    ['TestGenerateBindingName', 'lowercase name', 'pods', 'Pod', 'pod-pods'],
    [
      'TestGenerateBindingName',
      'role kind resource',
      'Role',
      'system:controller:tom',
      'system.controller.tom-role',
    ],
    [
      'TestGenerateBindingName',
      'clusterRole kind resource',
      'ClusterRole',
      'system::tom',
      'system..tom-clusterrole',
    ],
    [
      'TestGenerateBindingName',
      'roleBinding kind resource',
      'RoleBinding',
      'system::tt:tom',
      'system..tt.tom-rolebinding',
    ],
    [
      'TestGenerateBindingName',
      'clusterRoleBinding kind resource',
      'ClusterRoleBinding',
      'system:tt:tom',
      'system.tt.tom-clusterrolebinding',
    ],
  ])(`${KARMADA_NAMES_TEST} %s: %s`, (_test, _case, kind, name, expected) => {
    expect(bindingName(kind, name)).toBe(expected);
  });

  it('puts the name before the kind, not after', () => {
    expect(bindingName('ConfigMap', 'settings')).toBe('settings-configmap');
  });
});

describe('workName', () => {
  it.each([
    ['TestGenerateWorkName', 'empty namespace', 'Pod', 'pod', '', 'pod-6c46fd8b9d'],
    ['TestGenerateWorkName', 'non nil namespace', 'pods', 'Pod', 'default', 'pod-5fdddc94c5'],
    [
      'TestGenerateWorkName',
      'non nil namespace, colon in name',
      'Pods',
      'work:pod',
      'default',
      'work.pod-85bc474696',
    ],
    // Further values from Karmada's GenerateWorkName at the same commit.
    ['GenerateWorkName', 'Deployment', 'Deployment', 'nginx', 'default', 'nginx-687f7fb96f'],
    ['GenerateWorkName', 'upper-case name', 'Deployment', 'Nginx', 'default', 'nginx-687f7fb96f'],
    [
      'GenerateWorkName',
      'cluster-scoped, colons',
      'ClusterRole',
      'system:controller:foo',
      '',
      'system.controller.foo-77f96cf7cf',
    ],
    [
      'GenerateWorkName',
      'long name',
      'ConfigMap',
      'e1d4477a478c4797b03d22281718bd50-actor-configmap',
      'default',
      'e1d4477a478c4797b03d22281718bd50-actor-configmap-78d8f8c7c8',
    ],
    ['GenerateWorkName', 'Namespace', 'Namespace', 'tenant-a', '', 'tenant-a-5554879ff7'],
  ])(`${KARMADA_NAMES_TEST} %s: %s`, (_test, _case, kind, name, namespace, expected) => {
    expect(workName(kind, name, namespace)).toBe(expected);
  });

  it('treats an undefined namespace like a cluster-scoped one', () => {
    expect(workName('Namespace', 'tenant-a', undefined)).toBe('tenant-a-5554879ff7');
  });
});

describe('bindingReferenceKey', () => {
  // TestGenerateBindingReferenceKey asserts that these five keys are all different; the values are Karmada's.
  const cases = [
    ['prod-xxx', 'mytest-deployment', '5d6cf9f4c6'],
    ['qa-xxx', 'mytest-deployment', '656646cbb7'],
    ['', 'mytest-deployment', '5f6fd649fc'],
    ['a', 'b-c', '54b8f6799c'],
    ['a-b', 'c', '57959946cc'],
  ] as const;

  it.each(cases)(
    `${KARMADA_NAMES_TEST} TestGenerateBindingReferenceKey: namespace %j, name %s -> %s`,
    (namespace, name, expected) => {
      expect(bindingReferenceKey(namespace, name)).toBe(expected);
    },
  );

  it(`${KARMADA_NAMES_TEST} TestGenerateBindingReferenceKey: no two keys collide`, () => {
    const keys = cases.map(([namespace, name]) => bindingReferenceKey(namespace, name));
    expect(new Set(keys).size).toBe(cases.length);
  });
});

describe('hash primitives', () => {
  it('fnv32a matches the published FNV-1a test vectors', () => {
    expect(fnv32a('')).toBe(0x811c9dc5);
    expect(fnv32a('a')).toBe(0xe40c292c);
    expect(fnv32a('foobar')).toBe(0xbf9cf968);
  });

  it('hashes a string as it is, the way kr/pretty prints it with %v', () => {
    expect(deepHashString('default-nginx-deployment')).toBe(fnv32a('default-nginx-deployment'));
    expect(deepHashString('a')).toBe(0xe40c292c);
  });

  it('safeEncodeString maps every byte into the vowel-free alphabet', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });
});

describe('execution namespaces', () => {
  it(`${KARMADA_NAMES_TEST} TestGenerateExecutionSpaceName: normal cluster name`, () => {
    expect(executionNamespace('member-cluster-normal')).toBe('karmada-es-member-cluster-normal');
  });

  it('refuses an empty cluster name', () => {
    expect(() => executionNamespace('')).toThrow(InvalidNameInputError);
  });

  // TestGetClusterName: Karmada returns an error where we return undefined.
  it.each([
    ['karmada-es-member-cluster-normal', 'member-cluster-normal'],
    ['invalid', undefined],
    ['', undefined],
  ])(`${KARMADA_NAMES_TEST} TestGetClusterName: cluster of %j is %j`, (namespace, cluster) => {
    expect(clusterNameFromExecutionNamespace(namespace)).toBe(cluster);
  });
});

describe('isReservedNamespace', () => {
  it.each([
    // TestIsReservedNamespace's four cases first.
    ['karmada-system', true],
    ['karmada-cluster', true],
    ['karmada-es-', true],
    ['test-A', false],
    ['karmada-es-member1', true],
    // kube-* is skipped by the --skipped-propagating-namespaces default, not by this check.
    ['kube-system', false],
    ['default', false],
    ['karmada-other', false],
  ])('%s -> %s', (namespace, reserved) => {
    expect(isReservedNamespace(namespace)).toBe(reserved);
  });
});
