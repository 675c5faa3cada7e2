import { describe, expect, it } from 'vitest';
import { WaitingList } from './waiting-list.js';

const key = (name: string, namespace = 'default', kind = 'Deployment') => ({
  group: kind === 'ConfigMap' ? '' : 'apps',
  version: 'v1',
  kind,
  namespace,
  name,
});

describe('WaitingList', () => {
  it('adds once, removes, and counts', () => {
    const list = new WaitingList();
    list.add(key('a'));
    list.add(key('a'));
    list.add(key('b', 'other'));
    expect(list.size).toBe(2);
    expect(list.has(key('a'))).toBe(true);
    list.remove(key('a'));
    list.remove(key('missing'));
    expect(list.size).toBe(1);
    expect(list.has(key('a'))).toBe(false);
  });

  it('offers only templates of the kinds (and namespaces) the selectors name', () => {
    const list = new WaitingList();
    list.add(key('a'));
    list.add(key('b', 'other'));
    list.add(key('c', 'default', 'ConfigMap'));
    const names = (selectors: Parameters<WaitingList['candidates']>[0]) =>
      list
        .candidates(selectors)
        .map((k) => k.name)
        .sort();
    expect(names([{ apiVersion: 'apps/v1', kind: 'Deployment' }])).toEqual(['a', 'b']);
    expect(names([{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'other' }])).toEqual(['b']);
    expect(names([{ apiVersion: 'v1', kind: 'ConfigMap' }])).toEqual(['c']);
    expect(
      names([
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'a' },
        { apiVersion: 'apps/v1', kind: 'Deployment' },
      ]),
    ).toEqual(['a', 'b']);
    expect(names([{ apiVersion: 'apps/v1beta1', kind: 'Deployment' }])).toEqual([]);
  });
});
