import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', console: 'src/console/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // a native addon: loaded from node_modules at run time, never bundled
  external: ['better-sqlite3'],
});
