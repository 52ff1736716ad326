import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'node20',
  // dependencies stay dependencies: the provider, the runtime and the pinned codex package are
  // resolved at run time from this package's own node_modules
  skipNodeModulesBundle: true,
  // except the provider's testing kit (src/kit.ts), bundled from its sources (ADR-0021)
  noExternal: ['@relvo-labs/agent-provider-codex/testing'],
  esbuildOptions(options) {
    options.conditions = ['relvo-source'];
  },
});
