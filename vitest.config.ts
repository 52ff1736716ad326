import { defineConfig } from 'vitest/config';

/**
 * Folders whose tests run modules in memory only (fake transports, hand-built frames): no
 * process, server, database or browser, no module mocks, and no support module that registers
 * hooks when first imported. They share one module graph per worker (`isolate: false`): a fresh
 * process per file spent several times its tests' own time importing the same sources again.
 */
const IN_MEMORY = [
  'test/jsonl',
  'test/rpc',
  'test/interactions',
  'test/events',
  'test/shared',
  'test/session',
  'test/provider',
  'packages/agent-provider/test',
].map((folder) => `${folder}/**/*.test.ts`);

// workspace packages resolve to their TypeScript sources in tests (see ADR-0001)
const sources = {
  resolve: { conditions: ['relvo-source'] },
  ssr: { resolve: { conditions: ['relvo-source'] } },
};
const limits = { testTimeout: 30_000, hookTimeout: 30_000, pool: 'forks' } as const;

// the projects do not extend this config: its global setup (the leak check) runs once, here
export default defineConfig({
  ...sources,
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    maxWorkers: 2,
    projects: [
      { ...sources, test: { ...limits, name: 'in-memory', include: IN_MEMORY, isolate: false } },
      {
        ...sources,
        test: {
          ...limits,
          name: 'processes',
          include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...IN_MEMORY],
        },
      },
    ],
  },
});
