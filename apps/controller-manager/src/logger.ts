// Structured logs through pino. `text` format renders the same records as one readable line each, without a
// second dependency (pino-pretty) in the deployable.
import { Writable } from 'node:stream';
import type { Logger as CacheLogger } from '@warmstart/informer-cache';
import { type Logger, pino } from 'pino';

export type { Logger } from 'pino';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

function textStream(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        const {
          level,
          time,
          msg,
          pid: _pid,
          hostname: _host,
          ...rest
        } = JSON.parse(line) as Record<string, unknown>;
        const fields = Object.entries(rest)
          .map(
            ([k, v]) =>
              `${k}=${typeof v === 'string' ? (/\s/.test(v) ? JSON.stringify(v) : v) : JSON.stringify(v)}`,
          )
          .join(' ');
        out.write(
          `${new Date(Number(time)).toISOString()} ${LEVELS[Number(level)] ?? level} ${String(msg)}${fields ? ` ${fields}` : ''}\n`,
        );
      }
      done();
    },
  });
}

export function createLogger(
  level: string,
  format: 'json' | 'text',
  out: NodeJS.WritableStream = process.stderr,
): Logger {
  const options = { level, base: { component: 'warmstart-controller-manager' } };
  return format === 'json'
    ? pino(options, pino.destination({ dest: 2, sync: false }))
    : pino(options, textStream(out));
}

/** Adapts pino to the tiny Logger interface the library packages take. */
export function cacheLogger(log: Logger): CacheLogger {
  return {
    debug: (m, f) => log.debug(f ?? {}, m),
    info: (m, f) => log.info(f ?? {}, m),
    warn: (m, f) => log.warn(f ?? {}, m),
    error: (m, f) => log.error(f ?? {}, m),
  };
}
