import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs nothing but Node; `integration` boots real kube-apiservers (the local provider)
// and is slower. Workspace packages resolve to their TypeScript sources through the `@warmstart/source`
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
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
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
    ],
  },
});
