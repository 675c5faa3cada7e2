// A scripted StatusSource for the dashboard's browser test: a manager restarting in front of 100k
// Deployments, step by step, as the test calls step(). States and counts only, like the real one.
import type {
  DashboardStatus as DashboardStatusLike,
  InformerStatus as InformerStatusLike,
  StatusSource as StatusSourceLike,
} from '@warmstart/controller-manager';

type Row = readonly [cluster: string, resource: string];

const ROWS: readonly Row[] = [
  ['host', 'apps/v1/deployments'],
  ['host', 'core/v1/configmaps'],
  ['host', 'policy.karmada.io/v1alpha1/propagationpolicies'],
  ['host', 'policy.karmada.io/v1alpha1/clusterpropagationpolicies'],
  ['host', 'work.karmada.io/v1alpha2/resourcebindings'],
  ['host', 'work.karmada.io/v1alpha1/works'],
  ['host', 'cluster.karmada.io/v1alpha1/clusters'],
  ['member1', 'apps/v1/deployments'],
  ['member2', 'apps/v1/deployments'],
  ['member2', 'networking.k8s.io/v1/ingresses'],
];

/** Per step: [state, objects, list rate, waiting or took (s)] for each row of ROWS, in order. */
type Cell = readonly [
  state: 'pending' | 'open' | 'failed',
  objects: number,
  rate: number | undefined,
  seconds: number,
];

const STEPS: readonly (readonly Cell[])[] = [
  // 0: just started, nothing listed yet.
  ROWS.map(() => ['pending', 0, undefined, 0.4] as const),
  // 1: lists under way; small resources done.
  [
    ['pending', 41_000, 8_210, 5.0],
    ['pending', 37_500, 7_480, 5.0],
    ['open', 120, undefined, 0.3],
    ['open', 8, undefined, 0.2],
    ['pending', 22_000, 4_390, 5.0],
    ['pending', 30_000, 6_020, 5.0],
    ['open', 2, undefined, 0.1],
    ['pending', 19_000, 3_810, 5.0],
    ['pending', 18_000, 3_600, 5.0],
    ['pending', 0, undefined, 5.0],
  ],
  // 2: ConfigMaps and member1 synced; member2's ingresses forbidden.
  [
    ['pending', 78_000, 7_920, 9.8],
    ['open', 50_000, undefined, 6.6],
    ['open', 120, undefined, 0.3],
    ['open', 8, undefined, 0.2],
    ['pending', 61_000, 6_110, 9.8],
    ['pending', 84_000, 8_470, 9.8],
    ['open', 2, undefined, 0.1],
    ['open', 50_000, undefined, 9.1],
    ['pending', 44_000, 4_480, 9.8],
    ['failed', 0, undefined, 9.8],
  ],
  // 3: everything synced (the RBAC was fixed and the ingress list retried).
  [
    ['open', 100_000, undefined, 12.6],
    ['open', 50_000, undefined, 6.6],
    ['open', 120, undefined, 0.3],
    ['open', 8, undefined, 0.2],
    ['open', 100_000, undefined, 15.9],
    ['open', 200_000, undefined, 21.4],
    ['open', 2, undefined, 0.1],
    ['open', 50_000, undefined, 9.1],
    ['open', 50_000, undefined, 11.2],
    ['open', 340, undefined, 13.0],
  ],
];

export const LAST_STEP = STEPS.length - 1;

const FORBIDDEN =
  'ingresses.networking.k8s.io is forbidden: User "system:serviceaccount:karmada-system:warmstart" ' +
  'cannot list resource "ingresses" in API group "networking.k8s.io" at the cluster scope';

export class RestartScript implements StatusSourceLike {
  #step = 0;
  #directReads = 0;
  readonly #startedAt = Date.now() - 2_000;
  readonly #listeners = new Set<() => void>();

  get step(): number {
    return this.#step;
  }

  /** Moves to step `n` and tells the dashboard. */
  go(n: number): void {
    this.#step = n;
    for (const l of this.#listeners) l();
  }

  /** Sets the direct-reads counter (0 throughout a healthy restart) and tells the dashboard. */
  setDirectReads(n: number): void {
    this.#directReads = n;
    for (const l of this.#listeners) l();
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  snapshot(): DashboardStatusLike {
    const n = this.#step;
    const now = Date.now();
    const informers: InformerStatusLike[] = ROWS.map(([cluster, resource], i) => {
      const [state, objects, rate, seconds] = STEPS[n]![i]!;
      return {
        cluster,
        resource,
        state,
        objects,
        listRatePerSecond: rate,
        waitingMs: seconds * 1_000,
        progress:
          state === 'pending' && objects > 0
            ? `listed ${objects.toLocaleString('en-US')} objects`
            : undefined,
        error: state === 'failed' ? FORBIDDEN : undefined,
      };
    });
    const leading = n > 0;
    const ready = informers.every((i) => i.state === 'open');
    const depth = [0, 61_000, 38_500, 1_240][n]!;
    return {
      strategy: 'block-reads',
      startedAt: this.#startedAt,
      now,
      leader: {
        identity: 'warmstart-7d9f-0',
        leading,
        holder: leading ? 'warmstart-7d9f-0' : 'warmstart-7d9f-1',
      },
      directReads: this.#directReads,
      ready,
      informers,
      controllers: [
        {
          name: 'detector',
          queueDepth: depth,
          inFlight: leading ? 5 : 0,
          readerWaits: [0, 12, 31, 31][n]!,
          lastError: undefined,
          waitingFor: leading ? undefined : 'leader',
        },
        {
          name: 'scheduler',
          queueDepth: Math.round(depth / 3),
          inFlight: leading ? 5 : 0,
          readerWaits: [0, 4, 9, 9][n]!,
          lastError: undefined,
          waitingFor: leading ? undefined : 'leader',
        },
        {
          name: 'binding',
          queueDepth: Math.round(depth / 4),
          inFlight: leading ? 5 : 0,
          readerWaits: [0, 0, 3, 3][n]!,
          lastError:
            n >= 2
              ? {
                  key: 'default/web-00421-deployment',
                  message:
                    'Operation cannot be fulfilled on works.work.karmada.io "web-00421-5d8f7": the object has been modified; retrying',
                  at: now - 4_000,
                }
              : undefined,
          waitingFor: leading ? undefined : 'leader',
        },
        {
          name: 'execution',
          queueDepth: Math.round(depth / 5),
          inFlight: leading ? 5 : 0,
          readerWaits: 0,
          lastError: undefined,
          waitingFor: leading ? undefined : 'leader',
        },
        {
          name: 'cluster',
          queueDepth: 0,
          inFlight: 0,
          readerWaits: 0,
          lastError: undefined,
          waitingFor: leading ? undefined : 'leader',
        },
      ],
    };
  }
}
