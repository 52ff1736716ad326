/**
 * `npm pack` and `npm install` as the packaging tests run them: the npm that runs this suite
 * (`npm_execpath`, else `npm` on PATH), output captured, every call bounded; the four packages
 * packed once per build and shared by every packaging test (`packedPackages`).
 */
import { execFile, execFileSync, type StdioOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './paths.js';

const execFileAsync = promisify(execFile);

/** The npm that runs this suite (`npm_execpath`), else `npm` on PATH, as a file and its argv. */
function npmCommand(args: readonly string[]): [string, string[]] {
  const npmCli = process.env['npm_execpath'];
  return npmCli !== undefined && npmCli.endsWith('.js')
    ? [process.execPath, [npmCli, ...args]]
    : ['npm', [...args]];
}

export interface NpmOptions {
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** A child's stdout as text; its stderr is kept for the error a failure throws. */
const PIPED: { encoding: 'utf8'; stdio: StdioOptions } = {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'pipe'],
};

/** Runs npm in `cwd` and returns its stdout; a failure carries npm's stderr. */
export function npmIn(cwd: string, args: readonly string[], options: NpmOptions = {}): string {
  const [file, argv] = npmCommand(args);
  return execFileSync(file, argv, {
    cwd,
    ...PIPED,
    timeout: options.timeoutMs ?? 240_000,
    killSignal: 'SIGKILL',
    env: options.env ?? process.env,
  });
}

/** Runs this Node on `args` in `cwd` and returns its stdout. */
export function nodeIn(cwd: string, args: readonly string[]): string {
  return execFileSync(process.execPath, [...args], { cwd, ...PIPED });
}

export interface PackedTarball {
  readonly tarball: string;
  readonly files: readonly string[];
}

/** `npm pack` of the package in `dir` into `destination` (its lifecycle scripts run, as on publish). */
export function packInto(dir: string, destination: string): PackedTarball {
  const out = JSON.parse(npmIn(dir, ['pack', '--json', '--pack-destination', destination])) as {
    filename: string;
    files: { path: string }[];
  }[];
  const entry = out[0];
  if (entry === undefined) throw new Error(`npm pack printed nothing for ${dir}`);
  return { tarball: join(destination, entry.filename), files: entry.files.map((f) => f.path) };
}

/** The four published packages: name and folder. */
export const PUBLISHED_PACKAGES = [
  { name: '@relvo-labs/agent-provider', dir: join(REPO_ROOT, 'packages', 'agent-provider') },
  { name: '@relvo-labs/agent-provider-codex', dir: REPO_ROOT },
  { name: '@relvo-labs/agent-runtime', dir: join(REPO_ROOT, 'packages', 'agent-runtime') },
  { name: '@relvo-labs/relvo-codex', dir: join(REPO_ROOT, 'packages', 'cli') },
] as const;

export interface PackedPackage extends PackedTarball {
  readonly name: string;
  readonly dir: string;
}

/**
 * Packs live in this checkout's `node_modules/.cache`, one folder per content key: every test
 * file of a run (and the next run, while nothing packed changed) installs the same tarballs.
 */
const CACHE = join(REPO_ROOT, 'node_modules', '.cache', 'relvo-packs');
/** How long a second packer waits for the first; a lock older than this is a dead run's. */
const PACK_WAIT_MS = 240_000;
const PACK_POLL_MS = 200;

/** Every file `npm pack` may read for `dir`: the manifest, its `files` entries, README, LICENSE. */
function packableFiles(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    files?: string[];
  };
  const roots = ['package.json', 'README.md', 'LICENSE', ...(manifest.files ?? [])];
  const out = new Set<string>();
  const walk = (rel: string): void => {
    const path = join(dir, rel);
    if (!existsSync(path)) return;
    if (!statSync(path).isDirectory()) {
      out.add(rel);
      return;
    }
    for (const entry of readdirSync(path)) walk(join(rel, entry));
  };
  for (const root of roots) walk(root);
  return [...out].sort();
}

/** A digest of everything the four packs are made of: a changed build packs again. */
export function packContentKey(): string {
  const hash = createHash('sha256');
  for (const { name, dir } of PUBLISHED_PACKAGES) {
    if (!existsSync(join(dir, 'dist'))) {
      throw new Error(`${join(dir, 'dist')} is missing: run \`npm run build\` before this test`);
    }
    hash.update(`${name}\0`);
    for (const file of packableFiles(dir)) {
      hash.update(`${file}\0`);
      hash.update(readFileSync(join(dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 24);
}

async function npmAsync(cwd: string, args: readonly string[]): Promise<string> {
  const [file, argv] = npmCommand(args);
  const { stdout } = await execFileAsync(file, argv, {
    cwd,
    encoding: 'utf8',
    timeout: PACK_WAIT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** `npm pack --json` of one package into `destination`, asynchronously. */
async function packAsync(dir: string, destination: string): Promise<PackedTarball> {
  const out = JSON.parse(
    await npmAsync(dir, ['pack', '--json', '--pack-destination', destination]),
  ) as { filename: string; files: { path: string }[] }[];
  const entry = out[0];
  if (entry === undefined) throw new Error(`npm pack printed nothing for ${dir}`);
  return { tarball: join(destination, entry.filename), files: entry.files.map((f) => f.path) };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the process that holds `lock` is gone (a lock not yet stamped is alive). */
function packerDied(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Packs the four packages at once into `target` (made whole by one rename), under a lock. */
async function packUnderLock(target: string): Promise<void> {
  const lock = `${target}.lock`;
  const deadline = Date.now() + PACK_WAIT_MS;
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    if (existsSync(join(target, 'packed.json'))) return;
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // another test file is packing the same content: wait for it, within a bound, unless the
    // packer died (a run killed mid-pack)
    if (Date.now() > deadline || packerDied(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    await sleep(PACK_POLL_MS);
  }
  try {
    if (existsSync(join(target, 'packed.json'))) return;
    const staging = `${target}.staging-${String(process.pid)}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging);
    const packed = await Promise.all(
      PUBLISHED_PACKAGES.map(async ({ name, dir }) => {
        const { tarball, files } = await packAsync(dir, staging);
        return { name, dir, filename: basename(tarball), files };
      }),
    );
    writeFileSync(join(staging, 'packed.json'), JSON.stringify(packed));
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    // earlier builds' packs of this checkout are of no further use
    for (const entry of readdirSync(CACHE)) {
      if (entry !== basename(target) && !entry.endsWith('.lock') && !entry.includes('.staging-'))
        rmSync(join(CACHE, entry), { recursive: true, force: true });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const memo = new Map<string, Promise<ReadonlyMap<string, PackedPackage>>>();

/**
 * The four packages as `npm pack` makes them, packed once for what is built now and shared by
 * every packaging test. Needs
 * `npm run build` first.
 */
export function packedPackages(): Promise<ReadonlyMap<string, PackedPackage>> {
  const key = packContentKey();
  const known = memo.get(key);
  if (known !== undefined) return known;
  const target = join(CACHE, key);
  const loading = packUnderLock(target).then(() => {
    const list = JSON.parse(readFileSync(join(target, 'packed.json'), 'utf8')) as {
      name: string;
      dir: string;
      filename: string;
      files: string[];
    }[];
    return new Map(
      list.map((p) => [
        p.name,
        { name: p.name, dir: p.dir, tarball: join(target, p.filename), files: p.files },
      ]),
    );
  });
  memo.set(key, loading);
  return loading;
}

/** Throws unless `dir` holds the build's entry points (`npm run build` makes them). */
export function requireBuiltEntries(dir: string): void {
  for (const file of [
    'index.js',
    'index.cjs',
    'index.d.ts',
    'index.d.cts',
    'testing.js',
    'testing.cjs',
    'testing.d.ts',
  ]) {
    if (!existsSync(join(dir, 'dist', file))) {
      throw new Error(
        `${join(dir, 'dist', file)} is missing: run \`npm run build\` before this test`,
      );
    }
  }
}
