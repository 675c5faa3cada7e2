// A realistic Deployment as kubectl-applied workloads look on a live cluster: managedFields from two managers,
// the last-applied annotation, a status with two conditions. About 3.5 KB of JSON.

export function deployment(i) {
  const name = `app-${i}`;
  const namespace = `ns-${i % 100}`;
  const ts = new Date(1_700_000_000_000 + i * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  const lastApplied = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }] },
      },
    },
  };
  const conditionFields = {
    '.': {},
    'f:lastTransitionTime': {},
    'f:lastUpdateTime': {},
    'f:message': {},
    'f:reason': {},
    'f:status': {},
    'f:type': {},
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      generation: 1,
      labels: { app: name, team: `team-${i % 10}`, 'app.kubernetes.io/managed-by': 'warmstart-bench' },
      annotations: {
        'deployment.kubernetes.io/revision': '1',
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(lastApplied),
      },
      managedFields: [
        {
          manager: 'kubectl-client-side-apply',
          operation: 'Update',
          apiVersion: 'apps/v1',
          time: ts,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': {
              'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} },
              'f:labels': { '.': {}, 'f:app': {} },
            },
            'f:spec': {
              'f:progressDeadlineSeconds': {},
              'f:replicas': {},
              'f:revisionHistoryLimit': {},
              'f:selector': {},
              'f:strategy': {
                'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
                'f:type': {},
              },
              'f:template': {
                'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
                'f:spec': {
                  'f:containers': {
                    'k:{"name":"app"}': {
                      '.': {},
                      'f:image': {},
                      'f:imagePullPolicy': {},
                      'f:name': {},
                      'f:resources': {},
                      'f:terminationMessagePath': {},
                      'f:terminationMessagePolicy': {},
                    },
                  },
                  'f:dnsPolicy': {},
                  'f:restartPolicy': {},
                  'f:schedulerName': {},
                  'f:securityContext': {},
                  'f:terminationGracePeriodSeconds': {},
                },
              },
            },
          },
        },
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'apps/v1',
          time: ts,
          fieldsType: 'FieldsV1',
          subresource: 'status',
          fieldsV1: {
            'f:metadata': { 'f:annotations': { 'f:deployment.kubernetes.io/revision': {} } },
            'f:status': {
              'f:availableReplicas': {},
              'f:conditions': {
                '.': {},
                'k:{"type":"Available"}': conditionFields,
                'k:{"type":"Progressing"}': conditionFields,
              },
              'f:observedGeneration': {},
              'f:readyReplicas': {},
              'f:replicas': {},
              'f:updatedReplicas': {},
            },
          },
        },
      ],
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      progressDeadlineSeconds: 600,
      revisionHistoryLimit: 10,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'registry.k8s.io/pause:3.9',
              imagePullPolicy: 'IfNotPresent',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
    },
    status: {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: ts,
          lastTransitionTime: ts,
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'True',
          lastUpdateTime: ts,
          lastTransitionTime: ts,
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${name}-5d9c7b8f4" has successfully progressed.`,
        },
      ],
    },
  };
}
