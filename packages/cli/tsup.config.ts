import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  // dependencies stay dependencies: the provider (its demo-model entry included), the runtime and
  // the pinned codex package are resolved at run time from this package's own node_modules
  skipNodeModulesBundle: true,
  esbuildOptions(options) {
    options.conditions = ['relvo-source'];
  },
});
