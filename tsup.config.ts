import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  dts: true,
  sourcemap: true,
  target: 'node20',
  // import.meta.url in the CommonJS build (constants.ts reads package.json with it)
  shims: true,
  external: ['@relvo-labs/agent-provider', 'vitest'],
};

export default defineConfig([
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      testing: 'src/testing/index.ts',
      'demo-model': 'src/demo-model.ts',
    },
    format: ['esm', 'cjs'],
    clean: true,
  },
  // the scripted model's process (the bin's target): a program, ESM only, no types
  {
    ...shared,
    entry: { 'scripted-model': 'src/testing/scripted-model-main.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
  },
]);
