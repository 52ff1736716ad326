// Whether the built packages (every dist/ the CLI runs from) are at least as new as their
// sources, and a one-time build when they are not. `npm run demo` and the CLI's tests share it.
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
const sourceRoots = ['src', ...packages.map((dir) => join(dir, 'src'))];
const sourceFiles = [
  'package.json',
  'tsup.config.ts',
  ...packages.flatMap((dir) => [join(dir, 'package.json'), join(dir, 'tsup.config.ts')]),
];

/** @param {string} path @returns {number | undefined} */
function mtime(path) {
  try {
    return statSync(join(ROOT, path)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** @param {string} dir @returns {number} */
function newestUnder(dir) {
  let newest = 0;
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
