// A diagnostic floor: the WatchList stream (sendInitialEvents) read line by line with JSON.parse, keeping nothing,
// until the initial-events-end bookmark. It tells how much of a WatchList sync is the server's streaming and how much
// is the informer's work on top.
import type { KubeConfig } from '@kubernetes/client-node';
import { rawClient } from './raw-client.js';

const QUERY =
  'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=';

interface WatchEvent {
  readonly type: string;
  readonly object: { readonly metadata?: { readonly annotations?: Readonly<Record<string, string>> } };
}

/** Streams the initial events of `path`; returns how many objects came before the initial-events-end bookmark. */
export async function rawWatchList(kc: KubeConfig, path: string): Promise<number> {
  const client = rawClient(kc);
  let count = 0;
  let rest = '';
  let ended = false;
  try {
    await client.get(`${path}?${QUERY}`, (chunk) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        const event = JSON.parse(line) as WatchEvent;
        if (event.type === 'ADDED') count++;
        else if (
          event.type === 'BOOKMARK' &&
          event.object.metadata?.annotations?.['k8s.io/initial-events-end']
        ) {
          ended = true;
          return true;
        }
      }
      return undefined;
    });
  } finally {
    client.close();
  }
  if (!ended) throw new Error(`WatchList of ${path} ended after ${count} objects without initial-events-end`);
  return count;
}
