import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_TOKEN, FakeApiServer, INITIAL_EVENTS_END_ANNOTATION } from './fake-api-server.js';
import { cm, configmaps } from './fixtures.js';

interface WatchEvent {
  readonly type: string;
  readonly object: {
    readonly metadata: {
      readonly name?: string;
      readonly resourceVersion: string;
      readonly annotations?: Record<string, string>;
    };
  };
}

let server: FakeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Opens a WatchList of configmaps and collects its events until the response ends or `stopAfter` holds;
 * `onFirstChunk` runs when the first bytes arrive.
 */
function watchList(
  s: FakeApiServer,
  options: { onFirstChunk?: () => void; stopAfter?: (events: readonly WatchEvent[]) => boolean },
): Promise<WatchEvent[]> {
  const url = new URL(`${s.endpoint().server}/api/v1/namespaces/default/configmaps`);
  url.search = new URLSearchParams({
    watch: 'true',
    sendInitialEvents: 'true',
    resourceVersionMatch: 'NotOlderThan',
    allowWatchBookmarks: 'true',
  }).toString();
  return new Promise((resolve, reject) => {
    const events: WatchEvent[] = [];
    const req = http.get(url, { headers: { Authorization: `Bearer ${FAKE_TOKEN}` } }, (res) => {
      let rest = '';
      let first = true;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (first) {
          first = false;
          options.onFirstChunk?.();
        }
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) if (line !== '') events.push(JSON.parse(line) as WatchEvent);
        if (options.stopAfter?.(events)) {
          req.destroy();
          resolve(events);
        }
      });
      res.on('end', () => resolve(events));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('FakeApiServer WatchList of many objects', () => {
  const n = 5_000;
  const fill = async () => {
    server = await FakeApiServer.start();
    server.addResource(configmaps);
    for (let i = 0; i < n; i++) server.create(configmaps, cm(`cm-${i}`, { payload: 'x'.repeat(1_000) }));
    return server;
  };

  it('streams the initial events in slices, then the bookmark, then what changed meanwhile', async () => {
    const s = await fill();
    const snapshotRv = s.resourceVersion;
    let openWhileStreaming: number | undefined;
    const events = await watchList(s, {
      onFirstChunk: () => {
        openWhileStreaming = s.openWatches(configmaps);
        s.create(configmaps, cm('late'));
      },
      stopAfter: (e) => e.some((x) => x.object.metadata.name === 'late'),
    });
    // Still writing the initial events when the client got the first of them: not yet a live watch.
    expect(openWhileStreaming).toBe(0);
    expect(events.slice(0, n).every((e) => e.type === 'ADDED')).toBe(true);
    expect(new Set(events.slice(0, n).map((e) => e.object.metadata.name)).size).toBe(n);
    const bookmark = events[n];
    expect(bookmark?.type).toBe('BOOKMARK');
    expect(bookmark?.object.metadata.annotations?.[INITIAL_EVENTS_END_ANNOTATION]).toBe('true');
    expect(bookmark?.object.metadata.resourceVersion).toBe(snapshotRv);
    const late = events[n + 1];
    expect(late?.type).toBe('ADDED');
    expect(late?.object.metadata.name).toBe('late');
    expect(Number(late?.object.metadata.resourceVersion)).toBeGreaterThan(Number(snapshotRv));
  });

  it('ends a watch closed while streaming only after its initial events and bookmark', async () => {
    const s = await fill();
    const events = await watchList(s, { onFirstChunk: () => s.closeWatches() });
    expect(events).toHaveLength(n + 1);
    expect(events[n]?.type).toBe('BOOKMARK');
    expect(s.openWatches(configmaps)).toBe(0);
  });
});
