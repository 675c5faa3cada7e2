// HTTPS for /metrics and the dashboard (--tls-cert-file, --tls-private-key-file): a bearer token sent to them
// across a network must not travel in clear text. The files are watched and a renewed certificate (cert-manager
// rotates them on disk) is taken up by the running servers without a restart; a renewal that does not load
// keeps the old certificate and says why in the log.
import { type StatsListener, unwatchFile, watchFile } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { Logger } from './logger.js';

export class ServingCertificateError extends Error {
  constructor(certFile: string, keyFile: string, cause: unknown) {
    super(
      `cannot serve HTTPS with --tls-cert-file=${certFile} and --tls-private-key-file=${keyFile}: ${
        cause instanceof Error ? cause.message : String(cause)
      }. Give a PEM certificate (chain) and the PEM private key that belongs to it.`,
      { cause },
    );
    this.name = 'ServingCertificateError';
  }
}

export interface ServingCertificateOptions {
  readonly certFile: string;
  readonly keyFile: string;
  readonly log: Logger;
  /** How often the files are checked for a renewal. Default 10 s. */
  readonly pollIntervalMs?: number | undefined;
}

interface Material {
  readonly cert: Buffer;
  readonly key: Buffer;
}

async function read(certFile: string, keyFile: string): Promise<Material> {
  try {
    const [cert, key] = await Promise.all([readFile(certFile), readFile(keyFile)]);
    // Fails here, with OpenSSL's reason, for a key that is not the certificate's or a file that is not PEM.
    createSecureContext({ cert, key });
    return { cert, key };
  } catch (error) {
    throw new ServingCertificateError(certFile, keyFile, error);
  }
}

export class ServingCertificate {
  readonly #o: ServingCertificateOptions;
  readonly #servers = new Set<Server>();
  #material: Material;
  #reloads = 0;
  #reloading: Promise<void> = Promise.resolve();
  readonly #onChange: StatsListener;

  private constructor(options: ServingCertificateOptions, material: Material) {
    this.#o = options;
    this.#material = material;
    this.#onChange = (current, previous) => {
      if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
      this.#reloading = this.#reloading.then(() => this.#reload());
    };
    const interval = options.pollIntervalMs ?? 10_000;
    // Polling, not inotify: a Secret mounted by the kubelet is swapped by a symlink rename that inotify on the
    // file itself does not report.
    watchFile(options.certFile, { interval, persistent: false }, this.#onChange);
    watchFile(options.keyFile, { interval, persistent: false }, this.#onChange);
  }

  /** Loads and checks the pair; rejects with ServingCertificateError naming both flags. */
  static async load(options: ServingCertificateOptions): Promise<ServingCertificate> {
    return new ServingCertificate(options, await read(options.certFile, options.keyFile));
  }

  /** Renewals taken up so far. */
  get reloads(): number {
    return this.#reloads;
  }

  /** An HTTPS server with the current certificate that follows renewals until close(). */
  createServer(listener: RequestListener): Server {
    const server = createServer({ ...this.#material, minVersion: 'TLSv1.2' }, listener);
    this.#servers.add(server);
    server.once('close', () => this.#servers.delete(server));
    return server;
  }

  /** Stops watching the files. */
  close(): void {
    unwatchFile(this.#o.certFile, this.#onChange);
    unwatchFile(this.#o.keyFile, this.#onChange);
  }

  async #reload(): Promise<void> {
    const { certFile, keyFile, log } = this.#o;
    let next: Material;
    try {
      next = await read(certFile, keyFile);
    } catch (error) {
      // A renewal writes two files; between the two writes the pair does not match. The next change retries.
      log.warn(
        { err: error },
        'serving certificate changed but does not load; still serving the previous one',
      );
      return;
    }
    if (next.cert.equals(this.#material.cert) && next.key.equals(this.#material.key)) return;
    this.#material = next;
    for (const server of this.#servers) server.setSecureContext({ ...next, minVersion: 'TLSv1.2' });
    this.#reloads++;
    log.info({ certFile }, 'serving certificate reloaded');
  }
}
