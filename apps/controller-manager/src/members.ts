// The member clusters this manager can reach, built from Cluster objects and their Secrets (keys `token` and
// `caBundle`, as karmadactl join writes them). Each member gets its own transport (rate-limited by
// --cluster-api-qps/burst), an InformerManager whose informers are registered lazily by the execution
// controller (a read waits for that cache, never the API server), and a leader-fenced write-only client.
import { createHash } from 'node:crypto';
import {
  ApiTransport,
  CacheReader,
  type InformerManager,
  type MultiClusterInformerManager,
  Writer,
} from '@warmstart/informer-cache';
import { fencedWriter, type WriteClient } from '@warmstart/runtime';
import type { ManagerMetrics } from './metrics.js';
import { RestMapper } from './rest-mapper.js';

export interface MemberCredentials {
  readonly server: string;
  readonly token: string;
  readonly caBundle: string | undefined;
  readonly insecureSkipTLSVerification: boolean;
}

export interface Member {
  readonly name: string;
  readonly transport: ApiTransport;
  readonly informers: InformerManager;
  /** Lazy mode: a resource seen for the first time gets an informer, and the read waits for its sync. */
  readonly reader: CacheReader;
  readonly writer: WriteClient;
  /** Kinds to resources on this member (discovery on the member, once per kind), shared by its controllers. */
  readonly mapper: RestMapper;
  /** A fingerprint of the credentials the member was built from, to notice rotation. */
  readonly fingerprint: string;
}

export class MemberRegistry {
  readonly #members = new Map<string, Member>();
  readonly #listeners = new Set<(name: string, member: Member | undefined) => void>();

  constructor(
    private readonly informers: MultiClusterInformerManager,
    private readonly metrics: ManagerMetrics,
    private readonly rate: { qps: number; burst: number },
    private readonly readStallTimeoutMs: number,
    private readonly isLeader: () => boolean,
  ) {}

  get(name: string): Member | undefined {
    return this.#members.get(name);
  }

  names(): string[] {
    return [...this.#members.keys()];
  }

  /** Called with the member (or undefined when it left) whenever a member is (re)built or removed. */
  onChange(listener: (name: string, member: Member | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Builds the member, or rebuilds it when its credentials changed. Returns it. */
  async ensure(name: string, creds: MemberCredentials): Promise<Member> {
    const fingerprint = createHash('sha256')
      .update(
        `${creds.server}\n${creds.token}\n${creds.caBundle ?? ''}\n${creds.insecureSkipTLSVerification}`,
      )
      .digest('hex')
      .slice(0, 16);
    const existing = this.#members.get(name);
    if (existing?.fingerprint === fingerprint) return existing;
    if (existing) await this.remove(name);
    const token = creds.token;
    const transport = new ApiTransport(
      {
        server: creds.server,
        name,
        tls: { ca: creds.caBundle, rejectUnauthorized: !creds.insecureSkipTLSVerification },
        headers: async () => ({ authorization: `Bearer ${token}` }),
      },
      { rateLimit: this.rate, metrics: this.metrics },
    );
    const informers = this.informers.forCluster(name, transport);
    informers.start();
    const member: Member = {
      name,
      transport,
      informers,
      reader: new CacheReader(informers, { mode: 'lazy', stallTimeoutMs: this.readStallTimeoutMs }),
      writer: fencedWriter(
        new Writer(transport, { source: 'execution', fieldManager: 'karmada-execution-controller' }),
        this.isLeader,
      ),
      mapper: new RestMapper(name, transport),
      fingerprint,
    };
    this.#members.set(name, member);
    for (const l of this.#listeners) l(name, member);
    return member;
  }

  async remove(name: string): Promise<void> {
    const member = this.#members.get(name);
    if (!member) return;
    this.#members.delete(name);
    await this.informers.stop(name);
    member.transport.close();
    for (const l of this.#listeners) l(name, undefined);
  }

  async removeAll(): Promise<void> {
    await Promise.all(this.names().map((n) => this.remove(n)));
  }
}
