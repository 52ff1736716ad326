// Whether the built packages (every dist/ the CLI, the demo and the packaging tests run from) are
// at least as new as everything the build reads, and a one-time build when they are not.
// `npm run demo`, `npm test` and the CLI's tests share it; run as a program
// (`node scripts/build-current.mjs`) it builds only when the build is missing or older.
// Plain JavaScript on purpose: a TypeScript loader costs more start-up time than the check.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

const packages = ['agent-provider', 'agent-runtime', 'cli'].map((name) => join('packages', name));
/** The built CLI's entry module. */
export const BUILT_CLI = join(ROOT, 'packages/cli/dist/bin.js');
const outputs = [
  'dist/index.js',
  ...packages.map((dir) => join(dir, dir.endsWith('cli') ? 'dist/bin.js' : 'dist/index.js')),
];
// the packages' scripts/ generate sources
const sourceRoots = ['src', ...packages.flatMap((dir) => [join(dir, 'src'), join(dir, 'scripts')])];
const sourceFiles = [
  // the one document a build copies (the runtime ships it); other docs never change a build
  'docs/console.md',
  'package.json',
  'package-lock.json',
  'tsup.config.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  ...packages.flatMap((dir) => [
    join(dir, 'package.json'),
    join(dir, 'tsup.config.ts'),
    join(dir, 'tsconfig.json'),
  ]),
];

/** @param {string} path @returns {number | undefined} */
function mtime(path) {
  try {
    return statSync(join(ROOT, path)).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * The newest change under `dir`, a folder's own time included (a deleted file changes only it).
 * @param {string} dir @returns {number}
 */
function newestUnder(dir) {
  let newest = mtime(dir) ?? 0;
  let entries;
  try {
    entries = readdirSync(join(ROOT, dir), { withFileTypes: true });
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

/** True when every output exists and none is older than the newest source. */
export function buildIsCurrent() {
  const built = outputs.map(mtime);
  if (built.some((time) => time === undefined)) return false;
  const oldestOutput = Math.min(...built.map((time) => time ?? 0));
  const newestSource = Math.max(
    ...sourceRoots.map(newestUnder),
    ...sourceFiles.map((path) => mtime(path) ?? 0),
  );
  return newestSource <= oldestOutput;
}

/**
 * `npm run build`, its output dropped and its errors passed on; true when it succeeded.
 * @returns {boolean}
 */
export function build() {
  const npm = process.env.npm_execpath;
  const options = /** @type {const} */ ({ cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const run =
    npm === undefined
      ? spawnSync('npm', ['run', 'build'], options)
      : spawnSync(process.execPath, [npm, 'run', 'build'], options);
  return run.status === 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (buildIsCurrent()) {
    process.stdout.write('the build is current: every dist/ is newer than what it is built from\n');
  } else {
    process.stdout.write('the build is missing or older than its sources: npm run build…\n');
    if (!build()) {
      process.stderr.write('the build failed; run `npm run build` to see why\n');
      process.exitCode = 1;
    }
  }
}
