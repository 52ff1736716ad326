import { defineConfig } from 'vitest/config';

export default defineConfig({
  // workspace packages resolve to their TypeScript sources in tests (see ADR-0001)
  resolve: { conditions: ['relvo-source'] },
  ssr: { resolve: { conditions: ['relvo-source'] } },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
