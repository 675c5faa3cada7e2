// Writer: the controllers' write handle — create, update, patch (merge, JSON, strategic merge, server-side apply),
// delete, and the status subresource. It has no read methods, so a direct read cannot be written by accident:
// reads go through a CacheReader.
import { collectionPath, gvrToString, objectPath, splitKey, toKey } from './gvr.js';
import type { ApiTransport, HttpMethod, KubeVerb } from './transport.js';
import type { GroupVersionResource, KubeObject, KubeObjectInput, KubeStatus, ObjectKey } from './types.js';

/** One RFC 6902 operation. */
export interface JsonPatchOperation {
  readonly op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  readonly path: string;
  readonly value?: unknown;
  readonly from?: string;
}

/**
 * A patch and its kind. `strategic` works for built-in types only (the API server answers 415 for custom
 * resources). `apply` is server-side apply: the patch is the full intent of `fieldManager`.
 */
export type Patch =
  | { readonly type: 'merge'; readonly patch: Readonly<Record<string, unknown>> }
  | { readonly type: 'json'; readonly patch: readonly JsonPatchOperation[] }
  | { readonly type: 'strategic'; readonly patch: Readonly<Record<string, unknown>> }
  | {
      readonly type: 'apply';
      readonly patch: KubeObjectInput;
      /** Overrides the Writer's field manager. */
      readonly fieldManager?: string | undefined;
      /** Take ownership of fields other managers own (resolving conflicts in our favour). */
      readonly force?: boolean | undefined;
    };

export const PATCH_CONTENT_TYPES: Readonly<Record<Patch['type'], string>> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface WriteOptions {
  readonly signal?: AbortSignal | undefined;
  /** Validate and admit, but persist nothing (`dryRun=All`). */
  readonly dryRun?: boolean | undefined;
  /** Overrides the Writer's field manager for this request. */
  readonly fieldManager?: string | undefined;
  readonly timeoutMs?: number | undefined;
}

export interface DeleteOptions extends WriteOptions {
  readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan' | undefined;
  readonly gracePeriodSeconds?: number | undefined;
  /** The delete fails with 409 Conflict unless the object still has this uid / resourceVersion. */
  readonly preconditions?:
    | { readonly uid?: string | undefined; readonly resourceVersion?: string | undefined }
    | undefined;
}

export interface WriterOptions {
  /** Names the controller in accounting and the User-Agent (`warmstart/<v> (<source>)`). Not `informer`. */
  readonly source: string;
  /** Field manager for every write; default the source. */
  readonly fieldManager?: string | undefined;
}

export class Writer {
  readonly source: string;
  readonly fieldManager: string;
  readonly #transport: ApiTransport;

  constructor(transport: ApiTransport, options: WriterOptions) {
    if (options.source === '' || options.source === 'informer') {
      throw new Error(
        'a Writer needs a source naming its controller (not "informer") for accounting and audit logs',
      );
    }
    this.#transport = transport;
    this.source = options.source;
    this.fieldManager = options.fieldManager ?? options.source;
  }

  /** POST a new object; returns what the server stored. */
  async create<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    object: KubeObjectInput,
    options: WriteOptions = {},
  ): Promise<T> {
    const namespace = namespaceOf(gvr, object.metadata.namespace);
    return this.#send<T>(gvr, 'POST', 'create', collectionPath(gvr, namespace), options, object);
  }

  /** PUT the whole object. With metadata.resourceVersion set, the write fails with 409 if the object changed. */
  async update<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    object: KubeObjectInput,
    options: WriteOptions = {},
  ): Promise<T> {
    return this.#send<T>(gvr, 'PUT', 'update', this.#path(gvr, object), options, object);
  }

  /** PUT the status subresource. */
  async updateStatus<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    object: KubeObjectInput,
    options: WriteOptions = {},
  ): Promise<T> {
    return this.#send<T>(gvr, 'PUT', 'update', this.#path(gvr, object, 'status'), options, object);
  }

  /** PATCH an object with the patch's content type. */
  async patch<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    key: ObjectKey,
    patch: Patch,
    options: WriteOptions = {},
  ): Promise<T> {
    return this.#patch<T>(gvr, key, patch, options, undefined);
  }

  /** PATCH the status subresource. */
  async patchStatus<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    key: ObjectKey,
    patch: Patch,
    options: WriteOptions = {},
  ): Promise<T> {
    return this.#patch<T>(gvr, key, patch, options, 'status');
  }

  /** Server-side apply of an object's full intent; creates it if missing. */
  async apply<T extends KubeObject = KubeObject>(
    gvr: GroupVersionResource,
    object: KubeObjectInput,
    options: WriteOptions & { readonly force?: boolean | undefined } = {},
  ): Promise<T> {
    const name = object.metadata.name;
    if (name === undefined) throw new TypeError(`apply of ${gvrToString(gvr)} needs metadata.name`);
    return this.#patch<T>(
      gvr,
      { namespace: object.metadata.namespace, name },
      { type: 'apply', patch: object, force: options.force },
      options,
      undefined,
    );
  }

  /**
   * DELETE an object. Resolves when the server accepted the delete (finalizers may keep it a while), with the
   * server's answer: the object (still there with a deletionTimestamp, or as deleted) or a Status.
   */
  async delete(
    gvr: GroupVersionResource,
    key: ObjectKey,
    options: DeleteOptions = {},
  ): Promise<KubeObject | KubeStatus | undefined> {
    const { namespace, name } = splitKey(toKey(key));
    const body: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions' };
    if (options.propagationPolicy !== undefined) body.propagationPolicy = options.propagationPolicy;
    if (options.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
    if (options.preconditions !== undefined) body.preconditions = options.preconditions;
    if (options.dryRun) body.dryRun = ['All'];
    const response = await this.#transport.request<KubeObject | KubeStatus | undefined>({
      method: 'DELETE',
      verb: 'delete',
      path: objectPath(gvr, namespaceOf(gvr, namespace), name),
      body,
      source: this.source,
      resource: gvrToString(gvr),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return response.body;
  }

  async #patch<T>(
    gvr: GroupVersionResource,
    key: ObjectKey,
    patch: Patch,
    options: WriteOptions,
    subresource: string | undefined,
  ): Promise<T> {
    const { namespace, name } = splitKey(toKey(key));
    const path = objectPath(gvr, namespaceOf(gvr, namespace), name, subresource);
    const query: Record<string, string | boolean | undefined> = {};
    if (patch.type === 'apply') {
      query.fieldManager = patch.fieldManager ?? options.fieldManager ?? this.fieldManager;
      if (patch.force) query.force = true;
    }
    return this.#send<T>(
      gvr,
      'PATCH',
      'patch',
      path,
      options,
      patch.patch,
      PATCH_CONTENT_TYPES[patch.type],
      query,
    );
  }

  #path(gvr: GroupVersionResource, object: KubeObjectInput, subresource?: string): string {
    const name = object.metadata.name;
    if (name === undefined || name === '')
      throw new TypeError(`writing ${gvrToString(gvr)} needs metadata.name`);
    return objectPath(gvr, namespaceOf(gvr, object.metadata.namespace), name, subresource);
  }

  async #send<T>(
    gvr: GroupVersionResource,
    method: HttpMethod,
    verb: KubeVerb,
    path: string,
    options: WriteOptions,
    body: unknown,
    contentType?: string,
    query: Record<string, string | boolean | undefined> = {},
  ): Promise<T> {
    if (query.fieldManager === undefined) query.fieldManager = options.fieldManager ?? this.fieldManager;
    if (options.dryRun) query.dryRun = 'All';
    const response = await this.#transport.request<T>({
      method,
      verb,
      path,
      query,
      body,
      contentType,
      source: this.source,
      resource: gvrToString(gvr),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return response.body;
  }
}

function namespaceOf(gvr: GroupVersionResource, namespace: string | undefined): string | undefined {
  if (!gvr.namespaced) return undefined;
  if (namespace === undefined || namespace === '') {
    throw new TypeError(`${gvrToString(gvr)} is namespaced: set metadata.namespace (or the key's namespace)`);
  }
  return namespace;
}
