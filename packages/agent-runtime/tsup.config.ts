import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', console: 'src/console/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // import.meta.url in the CommonJS build (the PostgreSQL store loads `pg` on first use with it)
  shims: true,
  // better-sqlite3 (a native addon) and pg are loaded from node_modules at run time; the console
  // imports the runtime by its public name: one copy of each class in both builds, and nothing of
  // the runtime's internals
  external: ['better-sqlite3', 'pg', '@relvo-labs/agent-runtime'],
});
