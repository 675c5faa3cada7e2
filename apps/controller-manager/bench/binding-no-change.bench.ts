// The binding controller's no-change reconcile, as a restart runs it once per binding: desiredWorks over the
// cached binding, template and Works, then workNeedsUpdate against each cached Work, with nothing to write.
// Run: pnpm --filter @warmstart/controller-manager bench [-- --baseline <checkout root>]   (see README.md here)
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import type {
  Cluster,
  OverridePolicy,
  ResourceBinding,
  TargetCluster,
  UnstructuredObject,
  Work,
} from '@warmstart/api';
import { cluster, deepFreeze } from '../src/controllers/testing/fixtures.js';
import type * as WorkBuilder from '../src/controllers/work-builder.js';

type Builder = Pick<typeof WorkBuilder, 'desiredWorks' | 'workNeedsUpdate'>;

const N = 2_000;
const ROUNDS = 7;
const NAMESPACES = 20;

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const baselineRoot = flag('--baseline');
const only = flag('--only'); // a scenario name, for a profile of one thing

/** A Deployment as the control plane's cache holds it: decoded JSON, managedFields dropped, frozen. */
function deployment(i: number): UnstructuredObject {
  const name = `web-${i}`;
  const namespace = `team-${i % NAMESPACES}`;
  const env = Array.from({ length: 12 }, (_, k) => ({ name: `SETTING_${k}`, value: `value-${k}-${i}` }));
  return cached({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(100_000 + i),
      generation: 4,
      creationTimestamp: '2026-11-02T09:14:00Z',
      labels: {
        app: name,
        'app.kubernetes.io/name': name,
        'app.kubernetes.io/part-of': `shop-${i % 7}`,
        'app.kubernetes.io/version': '2.14.1',
        team: namespace,
        'propagationpolicy.karmada.io/permanent-id': `pp-${i % NAMESPACES}`,
      },
      annotations: {
        'deployment.kubernetes.io/revision': '4',
        'propagationpolicy.karmada.io/namespace': namespace,
        'propagationpolicy.karmada.io/name': 'spread',
        'example.com/owner': 'platform@example.com',
      },
    },
    spec: {
      replicas: 6,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: {
          labels: { app: name, 'app.kubernetes.io/name': name },
          annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' },
        },
        spec: {
          serviceAccountName: name,
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: { runAsNonRoot: true, runAsUser: 10001, fsGroup: 10001 },
          containers: [
            {
              name: 'app',
              image: `registry.example.com/shop/web:2.14.${i % 10}`,
              imagePullPolicy: 'IfNotPresent',
              args: ['--listen=:8080', '--metrics=:9090', `--instance=${name}`],
              ports: [
                { name: 'http', containerPort: 8080, protocol: 'TCP' },
                { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
              ],
              env,
              resources: {
                requests: { cpu: '250m', memory: '256Mi' },
                limits: { cpu: '1', memory: '512Mi' },
              },
              readinessProbe: {
                httpGet: { path: '/ready', port: 'http', scheme: 'HTTP' },
                periodSeconds: 5,
                timeoutSeconds: 1,
                successThreshold: 1,
                failureThreshold: 3,
              },
              livenessProbe: {
                httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
                initialDelaySeconds: 10,
                periodSeconds: 10,
                timeoutSeconds: 1,
                successThreshold: 1,
                failureThreshold: 3,
              },
              volumeMounts: [
                { name: 'config', mountPath: '/etc/web', readOnly: true },
                { name: 'tmp', mountPath: '/tmp' },
              ],
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
            {
              name: 'proxy',
              image: 'registry.example.com/infra/envoy:1.31.2',
              imagePullPolicy: 'IfNotPresent',
              ports: [{ name: 'proxy', containerPort: 15001, protocol: 'TCP' }],
              resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '128Mi' } },
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          volumes: [
            { name: 'config', configMap: { name: `${name}-config`, defaultMode: 420 } },
            { name: 'tmp', emptyDir: {} },
          ],
        },
      },
    },
    status: {
      observedGeneration: 4,
      replicas: 6,
      updatedReplicas: 6,
      readyReplicas: 6,
      availableReplicas: 6,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: '2026-11-02T09:15:00Z',
          lastTransitionTime: '2026-11-02T09:15:00Z',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'True',
          lastUpdateTime: '2026-11-02T09:15:00Z',
          lastTransitionTime: '2026-11-02T09:14:00Z',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${name}-6d9f7c8b5" has successfully progressed.`,
        },
      ],
    },
  });
}

function binding(
  template: UnstructuredObject,
  i: number,
  clusters: readonly TargetCluster[],
): ResourceBinding {
  const divided = clusters.length > 2;
  const namespace = template.metadata.namespace ?? '';
  return cached({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: {
      name: `${template.metadata.name}-deployment`,
      namespace,
      uid: `rb-uid-${i}`,
      resourceVersion: String(200_000 + i),
      generation: 2,
      labels: { 'resourcebinding.karmada.io/permanent-id': `rb-id-${i}` },
      finalizers: ['karmada.io/binding-controller'],
    },
    spec: {
      resource: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace,
        name: template.metadata.name ?? '',
        uid: template.metadata.uid ?? '',
        resourceVersion: template.metadata.resourceVersion ?? '',
      },
      replicas: 6,
      placement: {
        clusterAffinity: { clusterNames: clusters.map((c) => c.name) },
        replicaScheduling: divided
          ? { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' }
          : { replicaSchedulingType: 'Duplicated' },
      },
      clusters,
      conflictResolution: 'Abort',
    },
  });
}

/** Only the clusters a policy's rule selects by name change; every cluster gets the registry rewrite. */
function overridePolicy(namespace: string): OverridePolicy {
  return cached({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'OverridePolicy',
    metadata: { name: 'mirror-registry', namespace, uid: `op-${namespace}`, resourceVersion: '7' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
      overrideRules: [
        {
          overriders: {
            imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'mirror.example.com' }],
            annotationsOverrider: [{ operator: 'add', value: { 'example.com/mirrored': 'true' } }],
          },
        },
      ],
    },
  });
}

/** What the API server and the informer hand back for a Work we created: server fields, status, frozen. */
function asCached(work: Work, i: number): Work {
  return cached({
    ...work,
    metadata: {
      ...work.metadata,
      uid: `work-uid-${i}-${work.metadata.namespace}`,
      resourceVersion: String(300_000 + i),
      generation: 1,
      creationTimestamp: '2026-11-02T09:16:00Z',
    },
    status: {
      conditions: [
        {
          type: 'Applied',
          status: 'True',
          reason: 'AppliedSuccessful',
          message: 'Manifest has been successfully applied',
          lastTransitionTime: '2026-11-02T09:16:01Z',
        },
      ],
    },
  });
}

function cached<T>(value: T): T {
  return deepFreeze(JSON.parse(JSON.stringify(value)) as T);
}

interface Case {
  readonly binding: ResourceBinding;
  readonly template: UnstructuredObject;
  readonly existing: readonly Work[];
}

interface Scenario {
  readonly name: string;
  readonly overrides: WorkBuilder.WorkOverrides;
  readonly cases: readonly Case[];
}

const clusters = new Map<string, Cluster>(
  ['member1', 'member2', 'member3'].map((n) => [n, cluster(n, { region: 'eu' })]),
);
const noOverrides: WorkBuilder.WorkOverrides = {
  clusterOverridePolicies: [],
  overridePolicies: [],
  clusters: new Map(),
};
const withPolicy: WorkBuilder.WorkOverrides = {
  clusterOverridePolicies: [],
  overridePolicies: Array.from({ length: NAMESPACES }, (_, n) => overridePolicy(`team-${n}`)),
  clusters,
};

const templates = Array.from({ length: N }, (_, i) => deployment(i));
const placements: Record<string, readonly TargetCluster[]> = {
  'Duplicated to 2': [
    { name: 'member1', replicas: 6 },
    { name: 'member2', replicas: 6 },
  ],
  'Divided to 3': [
    { name: 'member1', replicas: 3 },
    { name: 'member2', replicas: 2 },
    { name: 'member3', replicas: 1 },
  ],
};

// The cached Works are what the current desiredWorks writes; both implementations must find them unchanged.
function scenario(
  builder: Builder,
  placement: string,
  policy: string,
  overrides: WorkBuilder.WorkOverrides,
): Scenario {
  const cases = templates.map((template, i) => {
    const b = binding(template, i, placements[placement] ?? []);
    const desired = builder.desiredWorks({ binding: b, template, overrides, newWorkId: randomUUID });
    if (desired.kind !== 'Works') throw new Error(desired.message);
    return { binding: b, template, existing: desired.works.map((w) => asCached(w, i)) };
  });
  return { name: `${placement}, ${policy}`, overrides, cases };
}

/** One reconcile's CPU work when nothing changed; throws if it would write. */
function reconcileNoChange(builder: Builder, c: Case, overrides: WorkBuilder.WorkOverrides): void {
  const desired = builder.desiredWorks({
    binding: c.binding,
    template: c.template,
    existingWorks: c.existing,
    overrides,
    newWorkId: randomUUID,
  });
  if (desired.kind !== 'Works') throw new Error(desired.message);
  for (const work of desired.works) {
    const current = c.existing.find(
      (w) => w.metadata.namespace === work.metadata.namespace && w.metadata.name === work.metadata.name,
    );
    if (current === undefined || builder.workNeedsUpdate(current, work)) {
      throw new Error(`${work.metadata.namespace}/${work.metadata.name} would be written`);
    }
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

// When the last collection started; the observer hears of one a few turns of the event loop after it ran.
let lastGcStart = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) lastGcStart = Math.max(lastGcStart, e.startTime);
}).observe({ entryTypes: ['gc'] });
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 20));
const gc = (globalThis as { gc?: () => void }).gc;

/**
 * µs per binding for each builder: the median of ROUNDS passes over every case, after one warm-up pass each.
 * The builders take turns within each round, so a noisy neighbour slows both columns alike.
 */
function timePerBinding(builders: readonly Builder[], s: Scenario): number[] {
  const pass = (builder: Builder): void => {
    for (const c of s.cases) reconcileNoChange(builder, c, s.overrides);
  };
  for (const b of builders) pass(b);
  const times = builders.map((): number[] => []);
  for (let r = 0; r < ROUNDS; r += 1) {
    builders.forEach((b, i) => {
      const start = performance.now();
      pass(b);
      times[i]?.push(performance.now() - start);
    });
  }
  return times.map((t) => (median(t) * 1000) / s.cases.length);
}

/**
 * Bytes allocated per binding: the heap's growth over batches no collection interrupted (each batch starts
 * after a full gc; a batch a scavenge ran in is measured again), so what was freed is counted too.
 */
async function bytesPerBinding(builder: Builder, s: Scenario): Promise<number | undefined> {
  if (gc === undefined) return undefined;
  const BATCH = 50;
  let bytes = 0;
  let measured = 0;
  for (let start = 0; start < s.cases.length; start += BATCH) {
    const batch = s.cases.slice(start, start + BATCH);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      gc();
      const started = performance.now();
      const heap = process.memoryUsage().heapUsed;
      for (const c of batch) reconcileNoChange(builder, c, s.overrides);
      const grown = process.memoryUsage().heapUsed - heap;
      await settle();
      if (lastGcStart < started) {
        bytes += grown;
        measured += batch.length;
        break;
      }
    }
  }
  return measured === 0 ? undefined : bytes / measured;
}

const current: Builder = await import('../src/controllers/work-builder.js');
const baseline: Builder | undefined =
  baselineRoot === undefined
    ? undefined
    : await import(resolve(baselineRoot, 'apps/controller-manager/src/controllers/work-builder.ts'));

console.log(
  `node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'}; ${N.toLocaleString('en-US')} Deployments, ` +
    `median of ${ROUNDS} interleaved passes after a warm-up; allocation ${gc ? 'measured' : 'not measured (run node with --expose-gc)'}`,
);
const columns = baseline === undefined ? ['this checkout'] : ['baseline', 'this checkout'];
console.log(
  `${'scenario'.padEnd(44)}${columns.map((c) => `${c} µs/binding`.padStart(26)).join('')}` +
    `${columns.map((c) => `${c} KB/binding`.padStart(26)).join('')}`,
);
const fmt = (n: number | undefined, digits: number): string =>
  (n === undefined ? '-' : n.toFixed(digits)).padStart(26);
for (const placement of Object.keys(placements)) {
  for (const [policy, overrides] of [
    ['no OverridePolicy', noOverrides],
    ['an OverridePolicy applies', withPolicy],
  ] as const) {
    const s = scenario(current, placement, policy, overrides);
    if (only !== undefined && !s.name.includes(only)) continue;
    const builders = baseline === undefined ? [current] : [baseline, current];
    const times = timePerBinding(builders, s);
    const bytes: (number | undefined)[] = [];
    for (const b of builders) bytes.push(await bytesPerBinding(b, s));
    console.log(
      `${s.name.padEnd(44)}${times.map((t) => fmt(t, 1)).join('')}` +
        `${bytes.map((b) => fmt(b === undefined ? undefined : b / 1024, 1)).join('')}`,
    );
  }
}
