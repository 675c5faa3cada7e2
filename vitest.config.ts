import { defineConfig } from 'vitest/config';

// Five projects: `unit` needs nothing but Node; `integration` boots real kube-apiservers (the local provider)
// and is slower; `containers` (testcontainers) and `kind` (kind clusters, the manager image under a kubelet)
// need a Docker engine and the images scripts/kind-setup.sh builds, and run as their own step of
// scripts/test.sh (scripts/test-containers.sh) after the others; `migration` needs Karmada's own binaries and is
// run by hand. Workspace packages resolve to their TypeScript sources through the `@warmstart/source`
// export condition, so tests never need a build first.
const conditions = ['@warmstart/source'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'examples/*/src/**/*.test.ts',
            'e2e/src/**/*.test.ts',
            'e2e/bench/**/*.test.ts',
          ],
          exclude: [
            '**/*.int.test.ts',
            '**/*.kind.test.ts',
            '**/*.container.test.ts',
            '**/*.migration.test.ts',
            '**/node_modules/**',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [
            'packages/*/src/**/*.int.test.ts',
            'apps/*/src/**/*.int.test.ts',
            'examples/*/src/**/*.int.test.ts',
            'e2e/src/**/*.int.test.ts',
          ],
          exclude: ['**/node_modules/**'],
          // One cluster set is shared by every integration file (see e2e/src/global-setup.ts); the files
          // run one after another so two kube-apiservers never compete for the 2 cores.
          fileParallelism: false,
          globalSetup: ['e2e/src/testing/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          // Karmada's own controller-manager and scheduler, then warmstart, on one local set (e2e/README.md,
          // "Migration from Karmada"). Not part of scripts/test.sh: it needs Karmada's binaries, built locally.
          name: 'migration',
          include: ['e2e/src/migration/**/*.migration.test.ts'],
          exclude: ['**/node_modules/**'],
          fileParallelism: false,
          globalSetup: ['e2e/src/testing/global-setup.ts'],
          testTimeout: 1_200_000,
          hookTimeout: 1_800_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'containers',
          include: ['e2e/src/containers/**/*.container.test.ts'],
          exclude: ['**/node_modules/**'],
          fileParallelism: false,
          globalSetup: ['e2e/src/containers/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 600_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'kind',
          include: ['e2e/src/kind/**/*.kind.test.ts'],
          exclude: ['**/node_modules/**'],
          // One kind set (host + two members) for every file (e2e/src/kind/global-setup.ts), files in sequence.
          fileParallelism: false,
          globalSetup: ['e2e/src/kind/global-setup.ts'],
          testTimeout: 900_000,
          hookTimeout: 1_200_000,
        },
      },
    ],
  },
});
