// `node scripts/bundle-script.mjs <entry.ts> <out.mjs>`: one TypeScript program of the test suite
// (a runtime, host or model in a child process) as one JavaScript file. The workspace packages are
// bundled from their sources (the `relvo-source` condition, as tsx resolves them); every other
// package stays an import of the installed one; each module keeps its own `import.meta.url`, so a
// source that finds a file next to itself still finds it. Run as a process of its own because
// esbuild's plugins need its asynchronous API and the tests' callers are synchronous.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const [entry, outfile] = process.argv.slice(2);
if (entry === undefined || outfile === undefined) {
  process.stderr.write('usage: node scripts/bundle-script.mjs <entry.ts> <out.mjs>\n');
  process.exit(2);
}

/** @type {import('esbuild').Plugin} */
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@relvo-labs/') ? undefined : { path: args.path, external: true },
    );
    b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)));
      return { contents, loader: 'ts', resolveDir: dirname(args.path) };
    });
  },
};

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['relvo-source'],
  plugins: [keepModuleUrls],
  logLevel: 'error',
});
