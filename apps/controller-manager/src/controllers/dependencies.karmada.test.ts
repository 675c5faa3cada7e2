// Karmada conformance: the dependency interpreter against the tables of Karmada's
// pkg/resourceinterpreter/default/native/dependencies_test.go at commit f8fdd02 (transcribed: the Go file builds
// its objects from three shared pod specs, testPairs, which are repeated here once).
import type { UnstructuredObject } from '@warmstart/api';
import { describe, expect, it } from 'vitest';
import {
  DependencyInterpretError,
  type DependentObjectReference,
  dependencyInterpretedKinds,
  interpretDependencies,
} from './dependencies.js';

const LABEL = 'Karmada f8fdd02d pkg/resourceinterpreter/default/native/dependencies_test.go';
const namespace = 'karmada-test';
const ref = (kind: string, name: string): DependentObjectReference => ({
  apiVersion: 'v1',
  kind,
  namespace,
  name,
});

// testPairs: three pod specs and the references Karmada expects from each.
const testPairs: readonly { spec: Record<string, unknown>; want: DependentObjectReference[] }[] = [
  {
    spec: {
      serviceAccountName: 'test-serviceaccount',
      volumes: [
        { name: 'initcontainer-volume-mount', configMap: { name: 'test-configmap' } },
        { name: 'cloud-secret-volume', secret: { secretName: 'cloud-secret' } },
        { name: 'container-volume-mount', persistentVolumeClaim: { claimName: 'test-pvc' } },
      ],
    },
    want: [
      ref('ConfigMap', 'test-configmap'),
      ref('Secret', 'cloud-secret'),
      ref('ServiceAccount', 'test-serviceaccount'),
      ref('PersistentVolumeClaim', 'test-pvc'),
    ],
  },
  {
    spec: {
      serviceAccountName: 'test-serviceaccount',
      imagePullSecrets: [{ name: 'test-secret' }],
      initContainers: [
        {
          envFrom: [
            {
              configMapRef: { name: 'initcontainer-envfrom-configmap' },
              secretRef: { name: 'test-secret' },
            },
          ],
          env: [{ valueFrom: { secretKeyRef: { name: 'test-secret' } } }],
        },
      ],
    },
    want: [
      ref('ConfigMap', 'initcontainer-envfrom-configmap'),
      ref('Secret', 'test-secret'),
      ref('ServiceAccount', 'test-serviceaccount'),
    ],
  },
  {
    spec: {
      containers: [
        {
          envFrom: [{ configMapRef: { name: 'test-configmap' } }],
          env: [{ valueFrom: { configMapKeyRef: { name: 'test-configmap' } } }],
        },
      ],
      volumes: [
        {
          name: 'container-volume-mount',
          persistentVolumeClaim: { claimName: 'test-pvc' },
          azureFile: { secretName: 'test-secret' },
        },
      ],
    },
    want: [
      ref('ConfigMap', 'test-configmap'),
      ref('Secret', 'test-secret'),
      ref('PersistentVolumeClaim', 'test-pvc'),
    ],
  },
];

const object = (
  apiVersion: string,
  kind: string,
  name: string,
  spec: Record<string, unknown>,
): UnstructuredObject => ({ apiVersion, kind, metadata: { name, namespace }, spec });

interface Case {
  readonly name: string;
  readonly object: UnstructuredObject;
  readonly want: DependentObjectReference[];
}

/** The four cases every pod-template kind's table has: none, then testPairs 0..2 in its pod template. */
function podTemplateCases(
  prefix: string,
  apiVersion: string,
  kind: string,
  name: string,
  empty: Record<string, unknown>,
  wrap: (podSpec: Record<string, unknown>) => Record<string, unknown>,
  kindOfCase3 = kind,
  apiVersionOfCase3 = apiVersion,
): Case[] {
  return [
    { name: `${prefix} without dependencies`, object: object(apiVersion, kind, name, empty), want: [] },
    ...testPairs.map((pair, i) => ({
      name: `${prefix} with dependencies ${i + 1}`,
      object: object(
        i === 2 ? apiVersionOfCase3 : apiVersion,
        i === 2 ? kindOfCase3 : kind,
        name,
        wrap(pair.spec),
      ),
      want: pair.want,
    })),
  ];
}

const template = (spec: Record<string, unknown>) => ({ template: { spec } });

const TABLES: readonly (readonly [string, string, Case[]])[] = [
  [
    'Test_getDeploymentDependencies',
    'apps/v1/Deployment',
    podTemplateCases('deployment', 'apps/v1', 'Deployment', 'fake-deployment', { replicas: 3 }, (s) => ({
      replicas: 3,
      ...template(s),
    })),
  ],
  [
    'Test_getReplicaSetDependencies',
    'apps/v1/ReplicaSet',
    podTemplateCases('replicaset', 'apps/v1', 'ReplicaSet', 'fake-replicaset', { replicas: 3 }, (s) => ({
      replicas: 3,
      ...template(s),
    })),
  ],
  [
    'Test_getJobDependencies',
    'batch/v1/Job',
    podTemplateCases('job', 'batch/v1', 'Job', 'fake-job', { replicas: 3 }, (s) => template(s)),
  ],
  [
    'Test_getCronJobDependencies',
    'batch/v1/CronJob',
    podTemplateCases(
      'cronjob',
      'batch/v1beta1',
      'CronJob',
      'fake-cronjob',
      { schedule: '*/1 * * * *' },
      (s) => ({ schedule: '*/1 * * * *', jobTemplate: { spec: template(s) } }),
    ),
  ],
  [
    'Test_getPodDependencies',
    'v1/Pod',
    podTemplateCases(
      'pod',
      'v1',
      'Pod',
      'fake-pod',
      { containers: [{ name: 'example-container', image: 'busybox', command: ['echo', 'Hello, World!'] }] },
      (s) => s,
      'pod',
      'batch/v1beta1',
    ),
  ],
  [
    'Test_getDaemonSetDependencies',
    'apps/v1/DaemonSet',
    podTemplateCases(
      'daemonset',
      'apps/v1',
      'DaemonSet',
      'fake-daemonset',
      { selector: { matchLabels: { app: 'fake' } } },
      (s) => ({ selector: { matchLabels: { app: 'fake' } }, ...template(s) }),
    ),
  ],
  [
    'Test_getStatefulSetDependencies',
    'apps/v1/StatefulSet',
    [
      ...podTemplateCases(
        'statefulset',
        'apps/v1',
        'StatefulSet',
        'fake-statefulset',
        { serviceName: 'fake-service', selector: { matchLabels: { app: 'fake' } } },
        (s) => ({ serviceName: 'fake-service', selector: { matchLabels: { app: 'fake' } }, ...template(s) }),
      ),
      {
        name: 'statefulset with partial dependencies 4',
        object: object('apps/v1', 'StatefulSet', 'fake-statefulset', {
          serviceName: 'fake-service',
          selector: { matchLabels: { app: 'fake' } },
          ...template(testPairs[0]?.spec ?? {}),
          volumeClaimTemplates: [{ metadata: { name: 'test-pvc' } }],
        }),
        // The claim made from the StatefulSet's own volumeClaimTemplates is not a dependency.
        want: testPairs[0]?.want.slice(0, 3) ?? [],
      },
    ],
  ],
  [
    'Test_getServiceImportDependencies',
    'multicluster.x-k8s.io/v1alpha1/ServiceImport',
    [
      {
        name: 'serviceImport get dependencies',
        object: object('multicluster.x-k8s.io/v1alpha1', 'ServiceImport', 'fake-serviceImport', {
          type: 'ClusterSetIP',
          ports: [{ port: 80, protocol: 'TCP' }],
        }),
        want: [
          ref('Service', 'derived-fake-serviceImport'),
          {
            apiVersion: 'discovery.k8s.io/v1',
            kind: 'EndpointSlice',
            namespace,
            labelSelector: { matchLabels: { 'kubernetes.io/service-name': 'derived-fake-serviceImport' } },
          },
        ],
      },
    ],
  ],
  [
    'Test_getIngressDependencies',
    'networking.k8s.io/v1/Ingress',
    [
      {
        name: 'ingress with dependencies 2',
        object: object('networking.k8s.io/v1', 'Ingress', 'test-ingress', {
          tls: [
            { hosts: ['foo1.*.bar.com'], secretName: 'cloud-secret' },
            { hosts: ['foo2.*.bar.com'], secretName: 'test-secret' },
          ],
        }),
        want: [ref('Secret', 'cloud-secret'), ref('Secret', 'test-secret')],
      },
    ],
  ],
];

describe.each(TABLES)('%s', (test, gvk, cases) => {
  it.each(cases)(`${LABEL} ${test}: $name`, ({ object: o, want }) => {
    expect(interpretDependencies(gvk, o)).toEqual(want);
  });
});

describe('Test_getAllDefaultDependenciesInterpreter', () => {
  it(`${LABEL} Test_getAllDefaultDependenciesInterpreter: every kind Karmada interprets, and no other`, () => {
    expect(dependencyInterpretedKinds().sort()).toEqual(
      [
        'apps/v1/Deployment',
        'apps/v1/ReplicaSet',
        'batch/v1/Job',
        'batch/v1/CronJob',
        'v1/Pod',
        'apps/v1/DaemonSet',
        'apps/v1/StatefulSet',
        'networking.k8s.io/v1/Ingress',
        'multicluster.x-k8s.io/v1alpha1/ServiceImport',
      ].sort(),
    );
  });
});

// Beyond Karmada's tables: what its typed conversion and Kubernetes' visitors do with other shapes.
describe('dependency interpreter edge cases', () => {
  const deployment = (podSpec: Record<string, unknown>): UnstructuredObject =>
    object('apps/v1', 'Deployment', 'web', { template: { spec: podSpec } });

  it('reads projected sources, CSI secrets and ephemeral containers; skips empty names and the default ServiceAccount', () => {
    const got = interpretDependencies(
      'apps/v1/Deployment',
      deployment({
        serviceAccountName: 'default',
        ephemeralContainers: [
          { envFrom: [{ secretRef: { name: 'debug' } }, { configMapRef: { name: '' } }] },
        ],
        volumes: [
          { projected: { sources: [{ secret: { name: 'p-secret' } }, { configMap: { name: 'p-cm' } }] } },
          { csi: { driver: 'x', nodePublishSecretRef: { name: 'csi-secret' } } },
          { secret: { secretName: '' } },
        ],
      }),
    );
    expect(got).toEqual([
      ref('ConfigMap', 'p-cm'),
      ref('Secret', 'csi-secret'),
      ref('Secret', 'debug'),
      ref('Secret', 'p-secret'),
    ]);
  });

  it('lists each name once, sorted within its kind', () => {
    const got = interpretDependencies(
      'apps/v1/Deployment',
      deployment({
        containers: [{ envFrom: [{ configMapRef: { name: 'b' } }, { configMapRef: { name: 'a' } }] }],
        volumes: [{ configMap: { name: 'b' } }],
      }),
    );
    expect(got).toEqual([ref('ConfigMap', 'a'), ref('ConfigMap', 'b')]);
  });

  it('refuses a template whose pod spec has the wrong shape, naming the field', () => {
    expect(() => interpretDependencies('apps/v1/Deployment', deployment({ volumes: 'x' }))).toThrow(
      DependencyInterpretError,
    );
    expect(() => interpretDependencies('apps/v1/Deployment', deployment({ volumes: 'x' }))).toThrow(
      /spec\.template\.spec\.volumes is not a list/,
    );
  });

  it('has nothing to say about a kind without an interpreter', () => {
    expect(interpretDependencies('v1/ConfigMap', object('v1', 'ConfigMap', 'c', {}))).toEqual([]);
  });
});
