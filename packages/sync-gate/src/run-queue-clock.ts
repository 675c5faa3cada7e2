// The main thread's run-queue delay from /proc/thread-self/schedstat, read without allocating. The stall recorder
// reads it every tick (100 times a second); readFileSync there allocated ~18 KB of ArrayBuffers per read, about
// 1.8 MB/s of external memory and almost no heap. In a process whose young generation has grown large (a manager
// after listing its caches), scavenges then come minutes apart, those buffers reach V8's external-memory limit
// first, and V8 answers with a full mark-compact of the whole heap: a 100-280 ms pause every half minute or so on
// an idle manager of 100k workloads (issue #16). One descriptor, one small buffer and pread at offset 0 instead.
import { closeSync, openSync, readSync } from 'node:fs';

const SPACE = 0x20;
const ZERO = 0x30;
const NINE = 0x39;

/** A reader of the main thread's run-queue delay; close() releases its file descriptor. */
export interface RunQueueClock {
  /** ms the main thread has spent runnable but waiting for a core; undefined if the read failed. */
  read(): number | undefined;
  close(): void;
}

/**
 * The second field of a schedstat line ("<ns on CPU> <ns waiting on a run queue> <timeslices>") in ms, or undefined
 * when the bytes are not shaped like one.
 */
export function parseRunQueueMs(bytes: Uint8Array, length: number): number | undefined {
  let i = 0;
  while (i < length && bytes[i] !== SPACE) i++;
  i++;
  let ns = 0;
  let digits = 0;
  for (; i < length; i++) {
    const c = bytes[i] as number;
    if (c < ZERO || c > NINE) break;
    ns = ns * 10 + (c - ZERO);
    digits++;
  }
  return digits === 0 ? undefined : ns / 1e6;
}

/**
 * Opens the calling thread's schedstat (call it from the main thread: /proc/thread-self names the caller) and
 * returns its reader, or undefined where there is no such file (not Linux, a sandbox without /proc).
 */
export function openRunQueueClock(): RunQueueClock | undefined {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
  // Three decimal numbers of at most 20 digits and their separators fit.
  const buffer = Buffer.alloc(128);
  let open = true;
  const read = (): number | undefined => {
    if (!open) return undefined;
    try {
      // Position 0 makes it a pread: the kernel renders the file afresh on each read from its start.
      return parseRunQueueMs(buffer, readSync(fd, buffer, 0, buffer.length, 0));
    } catch {
      return undefined;
    }
  };
  if (read() === undefined) {
    closeSync(fd);
    return undefined;
  }
  return {
    read,
    close: () => {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}
