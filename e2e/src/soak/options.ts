// The soak run's command line: `pnpm soak [--minutes 30] [--restart-every 5] [--rate 5] ...`.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface SoakOptions {
  /** How long churn runs, in minutes. */
  readonly minutes: number;
  /** Restart the manager every this many minutes (alternately SIGTERM and SIGKILL); 0: never. */
  readonly restartEveryMinutes: number;
  /** Churn operations per second (creates, replica updates, deletes). */
  readonly rate: number;
  /** Live Deployments the churn keeps around (it creates more below, deletes more above). */
  readonly population: number;
  /** The run fails if the manager's resident set ever exceeds this. */
  readonly rssBoundBytes: number;
  /** How long to wait, after churn stops, for both members to match. */
  readonly convergeTimeoutMs: number;
  /** Seed of the churn's choices, printed so that a run can be repeated. */
  readonly seed: number;
  /** Where the summary goes. */
  readonly json: string | undefined;
}

export class SoakOptionError extends Error {
  constructor(message: string) {
    super(
      `${message}; usage: pnpm soak [--minutes 30] [--restart-every 5] [--rate 5] [--population 100] [--rss-bound-mib 512] [--converge-timeout 300] [--seed N] [--json FILE]`,
    );
    this.name = 'SoakOptionError';
  }
}

function positive(name: string, text: string, allowZero = false): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0))
    throw new SoakOptionError(
      `--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, not "${text}"`,
    );
  return n;
}

/** `cwd`: where a relative --json is resolved; pnpm sets INIT_CWD to where the command was typed. */
export function parseSoakOptions(
  argv: readonly string[],
  cwd = process.env.INIT_CWD ?? process.cwd(),
): SoakOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      minutes: { type: 'string', default: '30' },
      'restart-every': { type: 'string', default: '5' },
      rate: { type: 'string', default: '5' },
      population: { type: 'string', default: '100' },
      'rss-bound-mib': { type: 'string', default: '512' },
      'converge-timeout': { type: 'string', default: '300' },
      seed: { type: 'string' },
      json: { type: 'string' },
    },
    strict: true,
  });
  const population = positive('population', values.population);
  if (!Number.isInteger(population)) throw new SoakOptionError('--population must be a whole number');
  const seed = values.seed === undefined ? Date.now() % 2 ** 31 : positive('seed', values.seed, true);
  return {
    minutes: positive('minutes', values.minutes),
    restartEveryMinutes: positive('restart-every', values['restart-every'], true),
    rate: positive('rate', values.rate),
    population,
    rssBoundBytes: positive('rss-bound-mib', values['rss-bound-mib']) * 2 ** 20,
    convergeTimeoutMs: positive('converge-timeout', values['converge-timeout']) * 1000,
    seed: Math.floor(seed),
    // pnpm runs the script in e2e/; a relative --json is meant from where the command was typed.
    json: values.json === undefined ? undefined : resolve(cwd, values.json),
  };
}
