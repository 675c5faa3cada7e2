// The manager's resident set, read from /proc (Linux): sampled every 10 s by the soak, and the kernel's
// high-water mark read just before each stop, so a peak between two samples is not missed.
import { readFileSync } from 'node:fs';

export interface RssSample {
  readonly at: number;
  readonly pid: number;
  readonly rssBytes: number;
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined; // the process is gone
  }
}

export function rssBytes(pid: number): number | undefined {
  return statusField(pid, 'VmRSS');
}

export function peakRssBytes(pid: number): number | undefined {
  return statusField(pid, 'VmHWM');
}

export class RssSampler {
  readonly samples: RssSample[] = [];
  #peak = 0;
  readonly #timer: NodeJS.Timeout;
  readonly #pid: () => number | undefined;

  constructor(pid: () => number | undefined, intervalMs = 10_000) {
    this.#pid = pid;
    this.#timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): void {
    const pid = this.#pid();
    if (pid === undefined) return;
    const rss = rssBytes(pid);
    if (rss === undefined) return;
    this.samples.push({ at: Date.now(), pid, rssBytes: rss });
    this.#peak = Math.max(this.#peak, rss);
  }

  /** Before a process stops: its kernel high-water mark counts too. */
  notePeak(pid: number): void {
    this.#peak = Math.max(this.#peak, peakRssBytes(pid) ?? 0);
  }

  get maxBytes(): number {
    return this.#peak;
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
