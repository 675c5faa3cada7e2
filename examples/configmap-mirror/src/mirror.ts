// A complete controller on @warmstart/runtime: every ConfigMap of namespace `from` is mirrored into `to`.
// Reads come from the informer cache only; a mirror that already matches its source is not written again.
import { ApiError, jsonEqual, type KubeObject, resource } from '@warmstart/informer-cache';
import { Controller, type Manager } from '@warmstart/runtime';

/** A typed descriptor: reads of it are ConfigMaps, and the reconcile below may read nothing else. */
export const ConfigMaps = resource<ConfigMap>({
  group: '',
  version: 'v1',
  resource: 'configmaps',
  namespaced: true,
  kind: 'ConfigMap',
});
/** On each mirror: the namespace of its source, so a changed or deleted mirror maps back to it. */
export const MIRROR_OF = 'example.warmstart.io/mirror-of';

interface ConfigMap extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}

export function configMapMirror(manager: Manager, from: string, to: string): Controller {
  const sourceKey = (cm: Readonly<ConfigMap>): string | undefined => {
    const { namespace, name, labels } = cm.metadata;
    if (namespace === from) return `${from}/${name}`;
    return namespace === to && labels?.[MIRROR_OF] === from ? `${from}/${name}` : undefined;
  };
  return new Controller(manager, { name: 'configmap-mirror', concurrency: 2 })
    .for(ConfigMaps, { map: sourceKey })
    .reconcile(async (key, { reader, writer, signal }) => {
      const name = key.slice(from.length + 1);
      const source = await reader.get(ConfigMaps, key, { signal });
      const mirror = await reader.get(ConfigMaps, { namespace: to, name }, { signal });
      if (!source) {
        if (mirror?.metadata.labels?.[MIRROR_OF] === from)
          await writer.delete(ConfigMaps, { namespace: to, name }, { signal }).catch(staleCache);
        return;
      }
      if (mirror && jsonEqual(mirror.data, source.data)) return;
      const metadata = { namespace: to, name, labels: { [MIRROR_OF]: from } };
      const desired = { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: source.data ?? {} };
      const resourceVersion = mirror?.metadata.resourceVersion;
      await (mirror
        ? writer.update(ConfigMaps, { ...desired, metadata: { ...metadata, resourceVersion } }, { signal })
        : writer.create(ConfigMaps, desired, { signal })
      ).catch(staleCache);
    });
}

/**
 * A cache may lag our own last write: an update on an old resourceVersion or a create of a mirror the cache has
 * not seen yet answers 409, a delete of one already gone 404. The watch brings the newer object and its event
 * reconciles the key again, so these are not failures.
 */
function staleCache(error: unknown): void {
  if (error instanceof ApiError && (error.code === 409 || error.isNotFound)) return;
  throw error;
}
