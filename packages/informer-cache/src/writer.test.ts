import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { cm, configmaps, type Fixture, fixture, namespaces, widgets } from './testing/fixtures.js';
import { version } from './transport.js';
import { Writer } from './writer.js';

const open: Fixture[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
});

async function setup(): Promise<{ f: Fixture; writer: Writer }> {
  const f = await fixture();
  open.push(f);
  return { f, writer: new Writer(f.transport, { source: 'binding-controller' }) };
}

describe('Writer', () => {
  it('has no read methods, as a fact the compiler checks', async () => {
    const { writer } = await setup();
    // @ts-expect-error Writer has no get: reads go through a CacheReader.
    expect(writer.get).toBeUndefined();
    // @ts-expect-error Writer has no list.
    expect(writer.list).toBeUndefined();
    expect('get' in writer || 'list' in writer || 'watch' in writer).toBe(false);
  });

  it('creates and updates with JSON bodies, the field manager and the User-Agent of its source', async () => {
    const { f, writer } = await setup();
    const created = await writer.create(configmaps, cm('a', { k: 'v' }));
    expect(created.metadata.uid).toBeDefined();
    const updated = await writer.update(configmaps, { ...created, data: { k: 'w' } });
    expect(updated.data).toEqual({ k: 'w' });
    const [post, put] = f.server.requests;
    expect([post?.method, post?.path, put?.method, put?.path]).toEqual([
      'POST',
      '/api/v1/namespaces/default/configmaps',
      'PUT',
      '/api/v1/namespaces/default/configmaps/a',
    ]);
    for (const r of [post, put]) {
      expect(r?.headers['content-type']).toBe('application/json');
      expect(r?.headers['user-agent']).toBe(`warmstart/${version()} (binding-controller)`);
      expect(r?.query.get('fieldManager')).toBe('binding-controller');
    }
  });

  it('fails an update of a stale resourceVersion with a conflict', async () => {
    const { f, writer } = await setup();
    const stale = f.server.create(configmaps, cm('a'));
    f.server.update(configmaps, cm('a', { changed: 'elsewhere' }));
    const error = await writer.update(configmaps, stale).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isConflict).toBe(true);
  });

  it('sends each patch kind with its content type', async () => {
    const { f, writer } = await setup();
    f.server.create(configmaps, cm('a', { k: 'v' }));
    await writer.patch(configmaps, 'default/a', { type: 'merge', patch: { data: { m: '1' } } });
    await writer.patch(
      configmaps,
      { namespace: 'default', name: 'a' },
      {
        type: 'json',
        patch: [{ op: 'add', path: '/data/j', value: '2' }],
      },
    );
    await writer.patch(configmaps, 'default/a', { type: 'strategic', patch: { data: { s: '3' } } });
    const applied = await writer.patch(configmaps, 'default/a', {
      type: 'apply',
      patch: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'a', namespace: 'default' },
        data: { a: '4' },
      },
      fieldManager: 'propagator',
      force: true,
    });
    expect(applied.data).toEqual({ k: 'v', m: '1', j: '2', s: '3', a: '4' });
    const patches = f.server.requestsWhere((r) => r.verb === 'patch');
    expect(patches.map((r) => r.headers['content-type'])).toEqual([
      'application/merge-patch+json',
      'application/json-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(patches[3]?.query.get('fieldManager')).toBe('propagator');
    expect(patches[3]?.query.get('force')).toBe('true');
    expect(patches[0]?.query.get('force')).toBeNull();
  });

  it('applies with server-side apply, creating the object when missing', async () => {
    const { f, writer } = await setup();
    const ns = await writer.apply(namespaces, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a' },
    });
    expect(ns.metadata.name).toBe('team-a');
    const request = f.server.requests[0];
    expect(request?.path).toBe('/api/v1/namespaces/team-a');
    expect(request?.headers['content-type']).toBe('application/apply-patch+yaml');
    expect(request?.query.get('fieldManager')).toBe('binding-controller');
  });

  it('surfaces 415 when strategic merge is used on a custom resource', async () => {
    const { f, writer } = await setup();
    f.server.create(widgets, { metadata: { name: 'w', namespace: 'default' } });
    const error = await writer
      .patch(widgets, 'default/w', { type: 'strategic', patch: { spec: {} } })
      .catch((e: unknown) => e);
    expect((error as ApiError).code).toBe(415);
  });

  it('deletes with propagation policy and preconditions', async () => {
    const { f, writer } = await setup();
    const a = f.server.create(configmaps, cm('a'));
    const wrong = await writer
      .delete(configmaps, 'default/a', { preconditions: { uid: 'not-the-uid' } })
      .catch((e: unknown) => e);
    expect((wrong as ApiError).isConflict).toBe(true);
    await writer.delete(configmaps, 'default/a', {
      propagationPolicy: 'Foreground',
      preconditions: { uid: a.metadata.uid, resourceVersion: a.metadata.resourceVersion },
    });
    expect(f.server.get(configmaps, 'default/a')).toBeUndefined();
    const body = JSON.parse(f.server.requestsWhere((r) => r.verb === 'delete')[1]?.body ?? '{}');
    expect(body).toMatchObject({
      kind: 'DeleteOptions',
      propagationPolicy: 'Foreground',
      preconditions: { uid: a.metadata.uid, resourceVersion: a.metadata.resourceVersion },
    });
  });

  it('writes the status subresource with update and patch', async () => {
    const { f, writer } = await setup();
    const w = f.server.create(widgets, { metadata: { name: 'w', namespace: 'default' }, spec: { size: 1 } });
    await writer.updateStatus(widgets, { ...w, status: { phase: 'Ready' } });
    await writer.patchStatus(widgets, 'default/w', { type: 'merge', patch: { status: { observed: 1 } } });
    expect(f.server.get(widgets, 'default/w')?.status).toEqual({ phase: 'Ready', observed: 1 });
    expect(f.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'PUT /apis/example.com/v1/namespaces/default/widgets/w/status',
      'PATCH /apis/example.com/v1/namespaces/default/widgets/w/status',
    ]);
  });

  it('accounts every write by verb, resource and source', async () => {
    const { f, writer } = await setup();
    await writer.create(configmaps, cm('a'));
    await writer.create(configmaps, cm('a')).catch(() => {});
    await writer.patch(configmaps, 'default/a', { type: 'merge', patch: { data: {} } });
    expect(f.transport.accounting.snapshot({ source: 'binding-controller' })).toEqual([
      {
        cluster: 'fake',
        verb: 'create',
        resource: 'core/v1/configmaps',
        source: 'binding-controller',
        code: 201,
        count: 1,
      },
      {
        cluster: 'fake',
        verb: 'create',
        resource: 'core/v1/configmaps',
        source: 'binding-controller',
        code: 409,
        count: 1,
      },
      {
        cluster: 'fake',
        verb: 'patch',
        resource: 'core/v1/configmaps',
        source: 'binding-controller',
        code: 200,
        count: 1,
      },
    ]);
  });

  it('refuses to write without a namespace for a namespaced resource, before any request', async () => {
    const { f, writer } = await setup();
    await expect(writer.create(configmaps, { metadata: { name: 'x' } })).rejects.toThrow(/namespaced/);
    expect(() => new Writer(f.transport, { source: 'informer' })).toThrow(/source/);
    expect(f.server.requests).toHaveLength(0);
  });
});
