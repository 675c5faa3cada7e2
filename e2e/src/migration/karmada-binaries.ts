// Where the migration test finds Karmada's own binaries (controller-manager, scheduler, webhook) and CRDs. They are built on the developer's machine
// from Karmada's source (not by this repository: see e2e/README.md, "Migration from Karmada"); when they are
// absent the test says so and is skipped, it never builds them itself.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The Karmada commit the migration proof was written against. */
export const KARMADA_COMMIT = 'f8fdd02df3760fd9521624f284877fa84e7be6ef';

export interface KarmadaBinaries {
  readonly controllerManager: string;
  readonly scheduler: string;
  readonly webhook: string;
  /** Karmada's CRD bases (charts/karmada/_crds/bases in its source tree). */
  readonly crdDir: string;
}

/**
 * The binaries in WARMSTART_KARMADA_BIN (default `<cache>/bin/karmada-<short commit>`) and the CRDs in
 * WARMSTART_KARMADA_CRDS (default `<cache>/src/karmada-<short commit>/charts/karmada/_crds/bases`), or the
 * reason they cannot be used.
 */
export function findKarmadaBinaries(): KarmadaBinaries | { readonly missing: string } {
  const cache =
    process.env.WARMSTART_CACHE_DIR ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'warmstart');
  const short = KARMADA_COMMIT.slice(0, 7);
  const bin = process.env.WARMSTART_KARMADA_BIN ?? join(cache, 'bin', `karmada-${short}`);
  const crdDir =
    process.env.WARMSTART_KARMADA_CRDS ??
    join(cache, 'src', `karmada-${short}`, 'charts', 'karmada', '_crds', 'bases');
  const controllerManager = join(bin, 'karmada-controller-manager');
  const scheduler = join(bin, 'karmada-scheduler');
  const webhook = join(bin, 'karmada-webhook');
  for (const p of [controllerManager, scheduler, webhook, crdDir])
    if (!existsSync(p))
      return {
        missing: `${p} does not exist: build Karmada ${short} as e2e/README.md ("Migration from Karmada") describes, or point WARMSTART_KARMADA_BIN / WARMSTART_KARMADA_CRDS at a build`,
      };
  return { controllerManager, scheduler, webhook, crdDir };
}
