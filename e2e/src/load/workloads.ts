// Synthetic workloads of realistic size: Deployments with labels, annotations, several containers, env,
// resources and probes, as platform teams run them. Names are deterministic so a seed can resume.

export interface LoadShape {
  /** Number of Deployments. */
  readonly workloads: number;
  /** Prefix of the namespaces; default `load`. */
  readonly prefix?: string | undefined;
  /** Spread over this many namespaces `<prefix>-0..M-1`. */
  readonly namespaces: number;
  /** Also one ConfigMap per this many workloads (0: none). */
  readonly configMapEvery?: number | undefined;
}

export function namespaceOf(i: number, shape: LoadShape): string {
  return `${shape.prefix ?? 'load'}-${i % shape.namespaces}`;
}

export function workloadName(i: number): string {
  return `wl-${i.toString().padStart(6, '0')}`;
}

const TEAMS = ['payments', 'search', 'checkout', 'identity', 'ledger', 'catalog', 'growth', 'infra'];

export function deployment(i: number, shape: LoadShape): Record<string, unknown> {
  const name = workloadName(i);
  const team = TEAMS[i % TEAMS.length]!;
  const labels = {
    app: name,
    'app.kubernetes.io/name': name,
    'app.kubernetes.io/part-of': 'load',
    team,
    tier: i % 3 === 0 ? 'frontend' : 'backend',
  };
  const container = (n: number) => ({
    name: n === 0 ? 'app' : `sidecar-${n}`,
    image: `registry.example.com/${team}/${name}:${(i % 50) + 1}.${n}.0`,
    ports: [{ name: 'http', containerPort: 8080 + n, protocol: 'TCP' }],
    env: [
      { name: 'TEAM', value: team },
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'CONFIG_PATH', value: `/etc/${name}/config.yaml` },
    ],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
    readinessProbe: { httpGet: { path: '/ready', port: 8080 + n }, periodSeconds: 10 },
    livenessProbe: { httpGet: { path: '/healthz', port: 8080 + n }, periodSeconds: 20, failureThreshold: 3 },
    volumeMounts: [{ name: 'config', mountPath: `/etc/${name}` }],
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: namespaceOf(i, shape),
      labels,
      annotations: {
        'example.com/owner': `${team}@example.com`,
        'example.com/runbook': `https://runbooks.example.com/${team}/${name}`,
      },
    },
    spec: {
      replicas: (i % 5) + 1,
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels },
        spec: {
          containers: Array.from({ length: 1 + (i % 3) }, (_, n) => container(n)),
          volumes: [{ name: 'config', configMap: { name: `${name}-config`, optional: true } }],
          terminationGracePeriodSeconds: 30,
        },
      },
    },
  };
}

export function configMap(i: number, shape: LoadShape): Record<string, unknown> {
  const name = `${workloadName(i)}-config`;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: namespaceOf(i, shape), labels: { 'app.kubernetes.io/part-of': 'load' } },
    data: { 'config.yaml': `name: ${workloadName(i)}\nreplicas: ${(i % 5) + 1}\nfeatures: [a, b, c]\n` },
  };
}
