// Shared test fixtures: resources the fake server serves and an informer manager wired to it.
import { InformerManager, type InformerManagerOptions } from '../manager.js';
import { ApiTransport, type ApiTransportOptions } from '../transport.js';
import type { GroupVersionResource } from '../types.js';
import { FakeApiServer, type FakeApiServerOptions, type FakeObjectInput } from './fake-api-server.js';

export const configmaps: GroupVersionResource = {
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
  kind: 'ConfigMap',
};

export const deployments: GroupVersionResource = {
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  namespaced: true,
  kind: 'Deployment',
};

export const namespaces: GroupVersionResource = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  namespaced: false,
  kind: 'Namespace',
};

export const widgets: GroupVersionResource = {
  group: 'example.com',
  version: 'v1',
  resource: 'widgets',
  namespaced: true,
  kind: 'Widget',
};

export function cm(
  name: string,
  data: Record<string, string> = {},
  labels: Record<string, string> = {},
  namespace = 'default',
): FakeObjectInput {
  return { metadata: { name, namespace, labels }, data };
}

export interface Fixture {
  readonly server: FakeApiServer;
  readonly transport: ApiTransport;
  readonly manager: InformerManager;
  close(): Promise<void>;
}

/** A fake server serving the fixture resources, and a manager for it with fast backoff (not started). */
export async function fixture(
  serverOptions: FakeApiServerOptions = {},
  managerOptions: Partial<InformerManagerOptions> = {},
  transportOptions: ApiTransportOptions = {},
): Promise<Fixture> {
  const server = await FakeApiServer.start(serverOptions);
  for (const gvr of [configmaps, deployments, namespaces, widgets]) server.addResource(gvr);
  const transport = new ApiTransport(server.endpoint(), transportOptions);
  const manager = new InformerManager({
    transport,
    ...managerOptions,
    informers: { backoff: { initialMs: 5, maxMs: 50 }, ...managerOptions.informers },
  });
  return {
    server,
    transport,
    manager,
    async close() {
      await manager.stop();
      await server.close();
    },
  };
}
