// Reading the manager's JSON log lines (pino: `time` in epoch ms, `msg`) without trusting any one of them to parse.
import { waitFor } from '../cluster/wait.js';
import type { ManagerProcess } from '../manager/manager-process.js';

export interface LogRecord {
  readonly time: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export function parseLogLines(lines: readonly string[]): LogRecord[] {
  const out: LogRecord[] = [];
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      const record = JSON.parse(line) as Partial<LogRecord>;
      if (typeof record.time === 'number' && typeof record.msg === 'string') out.push(record as LogRecord);
    } catch {
      // A line cut by a crash is not evidence of anything.
    }
  }
  return out;
}

/** Waits until the process logged a record whose msg includes `text`; returns the first such record. */
export function waitForLog(
  m: ManagerProcess,
  text: string,
  timeoutMs: number,
  what = 'the replica',
): Promise<LogRecord> {
  return waitFor(
    `${what} (pid ${m.pid}) to log "${text}"`,
    () => parseLogLines(m.logs()).find((r) => r.msg.includes(text)),
    { timeoutMs, intervalMs: 50 },
  );
}
