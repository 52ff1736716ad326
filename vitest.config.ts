import { defineConfig } from 'vitest/config';

/**
 * Tests that run modules in memory only (fake transports, hand-built frames, fake clocks, stores
 * in memory or on a temp SQLite file that they close): no process, no PostgreSQL, browser, tmux
 * or real codex, no module mocks, no process-wide state left changed (environment, globals,
 * OpenTelemetry providers, listeners, fake timers; happy-dom files share one window per worker,
 * so nothing left on document or window either) and no support module that registers hooks when
 * first imported, except agent-runtime's support.ts, whose cleanups cleanup-hook.ts runs per file.
 * They share one module graph per worker (`isolate: false`): a fresh process per file spent
 * several times its tests' own time importing the same sources again.
 */
const IN_MEMORY_FOLDERS = [
  'test/jsonl',
  'test/rpc',
  'test/interactions',
  'test/events',
  'test/shared',
  'test/session',
  'test/provider',
  'packages/agent-provider/test',
].map((folder) => `${folder}/**/*.test.ts`);

// files of mixed folders, by name; `name*` keeps the parts of a file split into name-*.test.ts
const IN_MEMORY_RUNTIME = [
  'answer-order',
  'close-deadline',
  'command-deadlines',
  'command-order',
  'command-router',
  'config-refusals',
  'console/api-doc',
  'console/earlier-turns',
  'console/live-state',
  'console/pool-render',
  'console/timeline-cards',
  'console/timeline-context',
  'console/timeline-render',
  'console/timeline-revert',
  'console/timeline-turn',
  'durable',
  'envelope-guard',
  'error-brand',
  'event-batching',
  'event-path',
  'events',
  'expiry',
  'flat-payloads',
  'fork',
  'frozen-log',
  'host-options',
  'host-settings',
  'inject-context',
  'interaction-memory',
  'interactions',
  'lifecycle',
  'output-schema',
  'postgres-driver',
  'postgres-listen',
  'prewarm',
  'profiles',
  'provider-reasons',
  'readme-reasons',
  'record-key',
  'revert',
  'routed-commands',
  'run-options',
  'sqlite-refusals',
  'sqlite-store',
  'steer',
  'store-failure',
  'store-integrity',
  'subscription',
  'telemetry',
  'turn-done',
  'turn-path',
  'warm-pool-state',
].map((name) => `packages/agent-runtime/test/${name}*.test.ts`);

const IN_MEMORY_ROOT = [
  'protocol/compat-reports',
  'protocol/inbound',
  'protocol/inbound-fast-path',
  'protocol/provider-codes',
  'protocol/release-cache',
  'protocol/review-capabilities',
  'protocol/review-diff',
  'protocol/review-latest',
  'protocol/review-published',
  'protocol/thread-past-recordings',
  'protocol/window',
  'protocol/wire-names',
  'runtime/config-refusals',
  'support/fake-transport',
  'transport/environment',
  'transport/exit-pass',
  'transport/iterable-adapter',
  'transport/owner-marker',
  'transport/process-group',
].map((name) => `test/${name}.test.ts`);

const IN_MEMORY = [...IN_MEMORY_FOLDERS, ...IN_MEMORY_RUNTIME, ...IN_MEMORY_ROOT];

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
    // three on the 2-core machine: real-process tests spend much of their time waiting on codex
    // and timers (two workers kept the CPUs 67 % busy, three 81 %; vitest 285 s → 240 s)
    maxWorkers: 3,
    projects: [
      {
        ...sources,
        test: {
          ...limits,
          name: 'in-memory',
          include: IN_MEMORY,
          isolate: false,
          setupFiles: ['packages/agent-runtime/test/cleanup-hook.ts'],
        },
      },
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
