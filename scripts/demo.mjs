// `npm run demo`: runs the built CLI, so the demo is on screen as fast as Node can start. In a
// clone the build may be missing or older than the sources; then it is built once, here, and
// every later run reuses it. Plain JavaScript on purpose: a TypeScript loader costs more start-up
// time than the demo itself.
import process from 'node:process';
import { URL } from 'node:url';
import { build, buildIsCurrent } from './build-current.mjs';

if (!buildIsCurrent()) {
  process.stderr.write(
    'relvo-codex is not built yet, or its sources changed: building once (npm run build)…\n',
  );
  if (!build()) {
    process.stderr.write('the build failed; run `npm run build` to see why\n');
    process.exit(1);
  }
}

process.argv.splice(2, 0, 'demo');
await import(new URL('../packages/cli/dist/bin.js', import.meta.url).href);
