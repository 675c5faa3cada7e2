// A template's status from its binding's aggregatedStatus, with the rules of Karmada's default interpreter
// (pkg/resourceinterpreter/default/native/aggregatestatus.go and pkg/util/helper job.go, service.go, ingress.go at
// f8fdd02), for the thirteen kinds it aggregates. Each rule returns the template's whole new `.status` as Go would
// encode it, or undefined where Karmada's rule finds it up to date; the controller writes only a difference.
import type { AggregatedStatusItem, UnstructuredObject } from '@warmstart/api';
import { AggregateStatusError } from './aggregate-status.js';
import { deepCopy, isRecord, type JsonObject } from './json.js';
import { disruptedPods, gvk, PDB_FIELDS, statusMap, WORKLOAD_FIELDS } from './reflect-status.js';
import {
  type FieldSpec,
  int,
  list,
  obj,
  objects,
  put,
  StatusFieldError,
  str,
  time,
} from './status-fields.js';

type Items = readonly AggregatedStatusItem[];
/** `now`: the time Karmada stamps on the Job conditions it writes (metav1.Now()). */
type Aggregator = (
  template: Readonly<UnstructuredObject>,
  items: Items,
  now: string,
) => JsonObject | undefined;

/** The status an item carries (undefined when it has none), checked to be an object. */
function memberStatus(item: AggregatedStatusItem): Readonly<JsonObject> | undefined {
  if (item.status === undefined || item.status === null) return undefined;
  if (!isRecord(item.status)) {
    throw new AggregateStatusError(
      `the status of cluster ${item.clusterName} in the binding's aggregatedStatus is not a JSON object`,
    );
  }
  return item.status;
}

function templateStatus(template: Readonly<UnstructuredObject>): Readonly<JsonObject> {
  return statusMap(template) ?? {};
}

/**
 * Deployment, ReplicaSet, DaemonSet, StatefulSet: the members' counters summed into the template's status (its
 * other fields kept). observedGeneration becomes the template's generation once every item reports a status
 * that observed its member generation and was applied from the template's current generation (an item without
 * a status counts against), otherwise it stays. StatefulSet compares the member's applied generation with the
 * member's own generation instead of the template's: Karmada's rule, kept as it is.
 */
function workload(kind: keyof typeof WORKLOAD_FIELDS): Aggregator {
  const counters = WORKLOAD_FIELDS[kind].filter(([name]) => name !== 'observedGeneration');
  return (template, items) => {
    const old = templateStatus(template);
    const generation = template.metadata.generation ?? 0;
    const sums = counters.map(() => 0);
    let observedLatest = 0;
    for (const item of items) {
      const member = memberStatus(item);
      if (member === undefined) continue;
      const field = (key: string) => int(member, key, `status.${key} of cluster ${item.clusterName}`);
      const applied = field('resourceTemplateGeneration');
      const baseline = kind === 'StatefulSet' ? field('generation') : generation;
      if (field('observedGeneration') >= field('generation') && applied >= baseline) observedLatest++;
      counters.forEach(([name], i) => {
        sums[i]! += field(name);
      });
    }
    const observedGeneration = observedLatest === items.length ? generation : int(old, 'observedGeneration');
    const unchanged =
      observedGeneration === int(old, 'observedGeneration') &&
      counters.every(([name], i) => sums[i] === int(old, name));
    // (A DaemonSet's rule compares its whole status, but whatever it then returns carries these same values, and
    // the write is decided on the status as a whole, so the outcome is the same.)
    if (unchanged) return undefined;
    const next: JsonObject = deepCopy(old);
    put(next, ['observedGeneration', true], observedGeneration);
    counters.forEach((field, i) => {
      put(next, field, sums[i]!);
    });
    return next;
  };
}

/** A port status (Service or Ingress) as Go encodes it: port, protocol, error when set. */
function portStatus(port: Readonly<JsonObject>, path: string): JsonObject {
  const out: JsonObject = {
    port: int(port, 'port', `${path}.port`),
    protocol: str(port, 'protocol', `${path}.protocol`),
  };
  const error = port.error;
  if (error !== undefined && error !== null) out.error = str(port, 'error', `${path}.error`);
  return out;
}

function comparePorts(a: Readonly<JsonObject>, b: Readonly<JsonObject>): number {
  if (a.port !== b.port) return (a.port as number) - (b.port as number);
  if (a.protocol !== b.protocol) return (a.protocol as string) < (b.protocol as string) ? -1 : 1;
  if (a.error === undefined) return b.error === undefined ? 0 : -1;
  if (b.error === undefined) return 1;
  return (a.error as string) < (b.error as string) ? -1 : a.error === b.error ? 0 : 1;
}

/** Hostnames first in order, then addresses without a hostname; then by IP (and IP mode for a Service). */
function compareIngress(withMode: boolean) {
  return (a: Readonly<JsonObject>, b: Readonly<JsonObject>): number => {
    const ha = (a.hostname as string | undefined) ?? '';
    const hb = (b.hostname as string | undefined) ?? '';
    if (ha !== hb) {
      if (hb === '') return -1;
      if (ha === '') return 1;
      return ha < hb ? -1 : 1;
    }
    const ia = (a.ip as string | undefined) ?? '';
    const ib = (b.ip as string | undefined) ?? '';
    if (ia !== ib) return ia < ib ? -1 : 1;
    if (!withMode) return 0;
    const ma = a.ipMode as string | undefined;
    const mb = b.ipMode as string | undefined;
    if (mb === undefined) return ma === undefined ? 0 : -1;
    if (ma === undefined) return 1;
    return ma < mb ? -1 : ma === mb ? 0 : 1;
  };
}

/**
 * DedupeAndSortServiceLoadBalancerIngress / DedupeAndSortIngressLoadBalancerIngress: one entry per hostname, IP
 * (and IP mode for a Service), the last one seen kept, with the union of their ports sorted.
 */
export function dedupeAndSortIngress(
  entries: readonly Readonly<JsonObject>[],
  withMode: boolean,
): JsonObject[] {
  const byKey = new Map<string, JsonObject>();
  const portsByKey = new Map<string, Map<string, JsonObject>>();
  entries.forEach((entry, i) => {
    const path = `.status.loadBalancer.ingress[${i}]`;
    const hostname = str(entry, 'hostname', `${path}.hostname`);
    const ip = str(entry, 'ip', `${path}.ip`);
    const mode =
      withMode && entry.ipMode !== undefined && entry.ipMode !== null ? str(entry, 'ipMode') : undefined;
    const key = JSON.stringify([hostname, ip, mode ?? null]);
    const ports = portsByKey.get(key) ?? new Map<string, JsonObject>();
    portsByKey.set(key, ports);
    objects(entry, 'ports', `${path}.ports`).forEach((p, j) => {
      const port = portStatus(p, `${path}.ports[${j}]`);
      ports.set(JSON.stringify([port.port, port.protocol, port.error ?? null]), port);
    });
    const { ports: _ports, ...rest } = deepCopy(entry) as JsonObject;
    byKey.set(key, rest);
  });
  const out: JsonObject[] = [];
  for (const [key, entry] of byKey) {
    const ports = [...(portsByKey.get(key)?.values() ?? [])].sort(comparePorts);
    out.push(ports.length > 0 ? { ...entry, ports } : entry);
  }
  return out.sort(compareIngress(withMode));
}

/** The members' load balancer ingresses, deduplicated and sorted, as the template's whole `.status`. */
function loadBalancer(withMode: boolean): (items: Items) => JsonObject {
  return (items) => {
    const all: Readonly<JsonObject>[] = [];
    for (const item of items) {
      const member = memberStatus(item);
      if (member === undefined) continue;
      const lb = obj(member, 'loadBalancer', `status.loadBalancer of cluster ${item.clusterName}`);
      if (lb)
        all.push(...objects(lb, 'ingress', `status.loadBalancer.ingress of cluster ${item.clusterName}`));
    }
    const ingress = dedupeAndSortIngress(all, withMode);
    return { loadBalancer: ingress.length > 0 ? { ingress } : {} };
  };
}

/** aggregateServiceStatus: LoadBalancer Services only; the status becomes the members' ingresses alone. */
const aggregateService: Aggregator = (template, items) => {
  const spec = (template as Readonly<JsonObject>).spec;
  if (!isRecord(spec) || spec.type !== 'LoadBalancer') return undefined;
  return loadBalancer(true)(items);
};

/** aggregateIngressStatus. */
const aggregateIngress: Aggregator = (_template, items) => loadBalancer(false)(items);

function jobFinished(status: Readonly<JsonObject>): 'Complete' | 'Failed' | undefined {
  for (const c of objects(status, 'conditions')) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  }
  return undefined;
}

/**
 * aggregateJobStatus and ParsingJobStatus: nothing once the template's Job is finished; otherwise the members'
 * counts summed, a Failed condition naming the members whose Job failed, Complete (and SuccessCriteriaMet when
 * every member met it) once every item completed, the earliest start time once every item started (a start time
 * already on the template is kept), and the latest completion time once every item completed.
 */
const aggregateJob: Aggregator = (template, items, now) => {
  const old = templateStatus(template);
  if (jobFinished(old) !== undefined) return undefined;
  let active = 0;
  let succeeded = 0;
  let failed = 0;
  const failedIn: string[] = [];
  let successful = 0;
  let criteriaMet = 0;
  let started = 0;
  let completed = 0;
  let startTime: string | null = null;
  let completionTime: string | null = null;
  for (const item of items) {
    const member = memberStatus(item);
    if (member === undefined) continue;
    const at = (key: string) => `status.${key} of cluster ${item.clusterName}`;
    active += int(member, 'active', at('active'));
    succeeded += int(member, 'succeeded', at('succeeded'));
    failed += int(member, 'failed', at('failed'));
    const finished = jobFinished(member);
    if (finished === 'Complete') successful++;
    else if (finished === 'Failed') failedIn.push(item.clusterName);
    if (objects(member, 'conditions').some((c) => c.type === 'SuccessCriteriaMet' && c.status === 'True'))
      criteriaMet++;
    const start = time(member, 'startTime', at('startTime'));
    if (start !== null) started++;
    if (startTime === null || (start !== null && Date.parse(start) < Date.parse(startTime)))
      startTime = start;
    const completion = time(member, 'completionTime', at('completionTime'));
    if (completion !== null) {
      completed++;
      if (completionTime === null || Date.parse(completionTime) < Date.parse(completion))
        completionTime = completion;
    }
  }
  const condition = (type: string, reason: string, message: string): JsonObject => ({
    type,
    status: 'True',
    lastProbeTime: now,
    lastTransitionTime: now,
    reason,
    message,
  });
  const conditions: JsonObject[] = [];
  if (failedIn.length > 0)
    conditions.push(
      condition('Failed', 'JobFailed', `Job executed failed in member clusters ${failedIn.join(',')}`),
    );
  if (successful === items.length && successful > 0) {
    conditions.push(condition('Complete', 'Completed', 'Job completed'));
    if (criteriaMet === items.length)
      conditions.push(
        condition(
          'SuccessCriteriaMet',
          'CompletionsReached',
          'All member clusters have met success criteria',
        ),
      );
  }
  const next: JsonObject = {};
  if (conditions.length > 0) next.conditions = conditions;
  const oldStart = time(old, 'startTime');
  const start = oldStart ?? (started === items.length && started > 0 ? startTime : null);
  if (start !== null) next.startTime = start;
  if (completionTime !== null && completed === items.length) next.completionTime = completionTime;
  put(next, ['active', true], active);
  put(next, ['succeeded', true], succeeded);
  put(next, ['failed', true], failed);
  return next;
};

/** aggregateCronJobStatus: the members' active Jobs appended, and the latest schedule and success times. */
const aggregateCronJob: Aggregator = (template, items) => {
  const active: unknown[] = [];
  let lastSchedule: string | null = null;
  let lastSuccessful: string | null = null;
  const later = (current: string | null, candidate: string | null) =>
    current === null || (candidate !== null && Date.parse(current) < Date.parse(candidate))
      ? candidate
      : current;
  for (const item of items) {
    const member = memberStatus(item);
    if (member === undefined) continue;
    const at = (key: string) => `status.${key} of cluster ${item.clusterName}`;
    active.push(...deepCopy(list(member, 'active', at('active'))));
    lastSchedule = later(lastSchedule, time(member, 'lastScheduleTime', at('lastScheduleTime')));
    lastSuccessful = later(lastSuccessful, time(member, 'lastSuccessfulTime', at('lastSuccessfulTime')));
  }
  const next: JsonObject = deepCopy(templateStatus(template));
  delete next.active;
  delete next.lastScheduleTime;
  delete next.lastSuccessfulTime;
  if (active.length > 0) next.active = active;
  if (lastSchedule !== null) next.lastScheduleTime = lastSchedule;
  if (lastSuccessful !== null) next.lastSuccessfulTime = lastSuccessful;
  return next;
};

/** A ContainerState as Go decodes and re-encodes it. */
function containerState(state: Readonly<JsonObject> | undefined, path: string): JsonObject {
  const out: JsonObject = {};
  if (state === undefined) return out;
  const waiting = obj(state, 'waiting', `${path}.waiting`);
  if (waiting) {
    const w: JsonObject = {};
    put(w, ['reason', true], str(waiting, 'reason', `${path}.waiting.reason`));
    put(w, ['message', true], str(waiting, 'message', `${path}.waiting.message`));
    out.waiting = w;
  }
  const running = obj(state, 'running', `${path}.running`);
  if (running) out.running = { startedAt: time(running, 'startedAt', `${path}.running.startedAt`) };
  const terminated = obj(state, 'terminated', `${path}.terminated`);
  if (terminated) {
    const p = `${path}.terminated`;
    const t: JsonObject = { exitCode: int(terminated, 'exitCode', `${p}.exitCode`) };
    put(t, ['signal', true], int(terminated, 'signal', `${p}.signal`));
    put(t, ['reason', true], str(terminated, 'reason', `${p}.reason`));
    put(t, ['message', true], str(terminated, 'message', `${p}.message`));
    t.startedAt = time(terminated, 'startedAt', `${p}.startedAt`);
    t.finishedAt = time(terminated, 'finishedAt', `${p}.finishedAt`);
    put(t, ['containerID', true], str(terminated, 'containerID', `${p}.containerID`));
    out.terminated = t;
  }
  return out;
}

/** A ContainerStatus with only `ready` and `state` set, as Go encodes it (its other required fields zero). */
function containerSummary(status: Readonly<JsonObject>, path: string): JsonObject {
  return {
    name: '',
    state: containerState(obj(status, 'state', `${path}.state`), `${path}.state`),
    lastState: {},
    ready: status.ready === true,
    restartCount: 0,
    image: '',
    imageID: '',
  };
}

/** The first phase of `order` that any item reports (items without a status count as `missing`). */
function worstPhase(items: Items, order: readonly string[], missing: string): string {
  const phases = new Set<string>();
  for (const item of items) {
    const member = memberStatus(item);
    phases.add(
      member === undefined ? missing : str(member, 'phase', `status.phase of cluster ${item.clusterName}`),
    );
  }
  return order.find((p) => phases.has(p)) ?? '';
}

/**
 * aggregatePodStatus: phase Failed, else Pending (an item without a status counts as Pending), else Running,
 * else Succeeded; each member's container and init container statuses reduced to ready and state. The status
 * becomes exactly that. Nothing when the binding has no items.
 */
const aggregatePod: Aggregator = (_template, items) => {
  if (items.length === 0) return undefined;
  const containers: JsonObject[] = [];
  const initContainers: JsonObject[] = [];
  for (const item of items) {
    const member = memberStatus(item);
    if (member === undefined) continue;
    const at = (key: string) => `status.${key} of cluster ${item.clusterName}`;
    objects(member, 'containerStatuses', at('containerStatuses')).forEach((c, i) => {
      containers.push(containerSummary(c, `${at('containerStatuses')}[${i}]`));
    });
    objects(member, 'initContainerStatuses', at('initContainerStatuses')).forEach((c, i) => {
      initContainers.push(containerSummary(c, `${at('initContainerStatuses')}[${i}]`));
    });
  }
  const next: JsonObject = {};
  put(next, ['phase', true], worstPhase(items, ['Failed', 'Pending', 'Running', 'Succeeded'], 'Pending'));
  if (containers.length > 0) next.containerStatuses = containers;
  if (initContainers.length > 0) next.initContainerStatuses = initContainers;
  return next;
};

/** aggregatePersistentVolumeStatus: Failed, Pending (no status yet), Available, Bound, Released, in that order. */
const aggregatePersistentVolume: Aggregator = (_template, items) => {
  const next: JsonObject = {};
  put(
    next,
    ['phase', true],
    worstPhase(items, ['Failed', 'Pending', 'Available', 'Bound', 'Released'], 'Pending'),
  );
  return next;
};

/** aggregatePersistentVolumeClaimStatus: Bound unless a member is not (Lost wins at once; else the last other). */
const aggregatePersistentVolumeClaim: Aggregator = (_template, items) => {
  let phase = 'Bound';
  for (const item of items) {
    const member = memberStatus(item);
    if (member === undefined) continue;
    const p = str(member, 'phase', `status.phase of cluster ${item.clusterName}`);
    if (p === 'Lost') {
      phase = 'Lost';
      break;
    }
    if (p !== 'Bound') phase = p;
  }
  const next: JsonObject = {};
  put(next, ['phase', true], phase);
  return next;
};

/** aggregatePodDisruptionBudgetStatus: the counters summed, disrupted pods keyed `<cluster>/<pod>`. */
const aggregatePodDisruptionBudget: Aggregator = (_template, items) => {
  const sums = PDB_FIELDS.map(() => 0);
  const disrupted: Record<string, string | null> = {};
  for (const item of items) {
    const member = memberStatus(item);
    if (member === undefined) continue;
    PDB_FIELDS.forEach(([name], i) => {
      sums[i]! += int(member, name, `status.${name} of cluster ${item.clusterName}`);
    });
    for (const [pod, at] of Object.entries(disruptedPods(member)))
      disrupted[`${item.clusterName}/${pod}`] = at;
  }
  const next: JsonObject = {};
  if (Object.keys(disrupted).length > 0) next.disruptedPods = disrupted;
  PDB_FIELDS.forEach((field: FieldSpec, i) => {
    put(next, field, sums[i]!);
  });
  return next;
};

/** aggregateHorizontalPodAutoscalerStatus: current and desired replicas summed; the status becomes just those. */
const aggregateHorizontalPodAutoscaler: Aggregator = (_template, items) => {
  let current = 0;
  let desired = 0;
  for (const item of items) {
    const member = memberStatus(item);
    if (member === undefined) continue;
    current += int(member, 'currentReplicas', `status.currentReplicas of cluster ${item.clusterName}`);
    desired += int(member, 'desiredReplicas', `status.desiredReplicas of cluster ${item.clusterName}`);
  }
  const next: JsonObject = {};
  put(next, ['currentReplicas', true], current);
  put(next, ['desiredReplicas', false], desired);
  next.currentMetrics = null;
  return next;
};

/** The kinds Karmada's default interpreter aggregates (getAllDefaultAggregateStatusInterpreter). */
export const AGGREGATORS: ReadonlyMap<string, Aggregator> = new Map<string, Aggregator>([
  ['apps/v1/Deployment', workload('Deployment')],
  ['apps/v1/ReplicaSet', workload('ReplicaSet')],
  ['v1/Service', aggregateService],
  ['networking.k8s.io/v1/Ingress', aggregateIngress],
  ['batch/v1/Job', aggregateJob],
  ['batch/v1/CronJob', aggregateCronJob],
  ['apps/v1/DaemonSet', workload('DaemonSet')],
  ['apps/v1/StatefulSet', workload('StatefulSet')],
  ['v1/Pod', aggregatePod],
  ['v1/PersistentVolume', aggregatePersistentVolume],
  ['v1/PersistentVolumeClaim', aggregatePersistentVolumeClaim],
  ['policy/v1/PodDisruptionBudget', aggregatePodDisruptionBudget],
  ['autoscaling/v2/HorizontalPodAutoscaler', aggregateHorizontalPodAutoscaler],
]);

/** Whether Karmada's default interpreter aggregates this template kind's status. */
export function aggregatesStatus(apiVersion: string, kind: string): boolean {
  return AGGREGATORS.has(gvk({ apiVersion, kind }));
}

/** Go's metav1.Now() as JSON: RFC 3339 in UTC, whole seconds. */
export function goNow(date = new Date()): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * The template's new `.status` from the binding's items (AggregateStatus), or undefined when its kind is not
 * aggregated or its rule finds the status up to date. Throws {@link AggregateStatusError} on a malformed status.
 */
export function aggregateTemplateStatus(
  template: Readonly<UnstructuredObject>,
  items: Items,
  now: string = goNow(),
): JsonObject | undefined {
  const aggregate = AGGREGATORS.get(gvk(template));
  if (aggregate === undefined) return undefined;
  try {
    return aggregate(template, items, now);
  } catch (error) {
    if (error instanceof StatusFieldError) {
      const { namespace, name } = template.metadata;
      throw new AggregateStatusError(
        `cannot aggregate the status of ${template.kind} ${namespace ? `${namespace}/` : ''}${name}: ${error.message}; ` +
          'the status a member reports (or the template holds) does not read as its kind; it is aggregated once it does',
      );
    }
    throw error;
  }
}
