// MultiClusterInformerManager: one InformerManager per member cluster, keyed by cluster name.
import type { KubeConfig } from '@kubernetes/client-node';
import { InformerManager, type InformerManagerOptions } from './manager.js';
import { ApiTransport } from './transport.js';

/** One InformerManager per member cluster, keyed by cluster name (Karmada's MultiClusterInformerManager). */
export class MultiClusterInformerManager {
  readonly #managers = new Map<string, InformerManager>();

  constructor(readonly defaults: Omit<InformerManagerOptions, 'transport'> = {}) {}

  /**
   * The manager of a cluster, created on first use from a KubeConfig or a ready ApiTransport. Later calls return
   * the existing manager and ignore `config`; stop(name) first to replace it.
   */
  forCluster(
    name: string,
    config: KubeConfig | ApiTransport,
    options: Partial<InformerManagerOptions> = {},
  ): InformerManager {
    let manager = this.#managers.get(name);
    if (manager === undefined) {
      const transport =
        config instanceof ApiTransport
          ? config
          : ApiTransport.fromKubeConfig(config, { name, metrics: options.metrics ?? this.defaults.metrics });
      manager = new InformerManager({ ...this.defaults, ...options, transport });
      this.#managers.set(name, manager);
    }
    return manager;
  }

  get(name: string): InformerManager | undefined {
    return this.#managers.get(name);
  }

  has(name: string): boolean {
    return this.#managers.has(name);
  }

  clusters(): string[] {
    return [...this.#managers.keys()];
  }

  /** Stops and forgets the manager of a cluster (e.g. the cluster left). */
  async stop(name: string): Promise<void> {
    const manager = this.#managers.get(name);
    if (manager === undefined) return;
    this.#managers.delete(name);
    await manager.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.clusters().map((name) => this.stop(name)));
  }
}
