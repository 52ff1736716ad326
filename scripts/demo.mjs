// `npm run demo`: runs the built CLI, so the demo is on screen as fast as Node can start. In a
// clone the build may be missing or older than the sources; then it is built once, here, and
// every later run reuses it. Plain JavaScript on purpose: a TypeScript loader costs more start-up
// time than the demo itself.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = ['agent-provider', 'agent-runtime', 'cli'].map((name) => join('packages', name));
const outputs = [
  'dist/index.js',
  ...packages.map((dir) => join(dir, dir.endsWith('cli') ? 'dist/bin.js' : 'dist/index.js')),
];
const sourceRoots = ['src', ...packages.map((dir) => join(dir, 'src'))];
const sourceFiles = [
  'package.json',
  'tsup.config.ts',
  ...packages.flatMap((dir) => [join(dir, 'package.json'), join(dir, 'tsup.config.ts')]),
];

/** @param {string} path @returns {number | undefined} */
function mtime(path) {
  try {
    return statSync(join(root, path)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** @param {string} dir @returns {number} */
function newestUnder(dir) {
  let newest = 0;
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return newest;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestUnder(path));
    else newest = Math.max(newest, mtime(path) ?? 0);
  }
  return newest;
}

function buildIsCurrent() {
  const built = outputs.map(mtime);
  if (built.some((time) => time === undefined)) return false;
  const oldestOutput = Math.min(...built);
  const newestSource = Math.max(
    ...sourceRoots.map(newestUnder),
    ...sourceFiles.map((path) => mtime(path) ?? 0),
  );
  return newestSource <= oldestOutput;
}

if (!buildIsCurrent()) {
  process.stderr.write(
    'relvo-codex is not built yet, or its sources changed: building once (npm run build)…\n',
  );
  const npm = process.env.npm_execpath;
  const build =
    npm === undefined
      ? spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
      : spawnSync(process.execPath, [npm, 'run', 'build'], {
          cwd: root,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
  if (build.status !== 0) {
    process.stderr.write('the build failed; run `npm run build` to see why\n');
    process.exit(1);
  }
}

process.argv.splice(2, 0, 'demo');
await import(new URL('../packages/cli/dist/bin.js', import.meta.url).href);
