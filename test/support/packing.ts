/**
 * `npm pack` and `npm install` as the packaging tests run them: the npm that runs this suite
 * (`npm_execpath`, else `npm` on PATH), output captured, every call bounded.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface NpmOptions {
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** Runs npm in `cwd` and returns its stdout; a failure carries npm's stderr. */
export function npmIn(cwd: string, args: readonly string[], options: NpmOptions = {}): string {
  const npmCli = process.env['npm_execpath'];
  const [file, argv] =
    npmCli !== undefined && npmCli.endsWith('.js')
      ? [process.execPath, [npmCli, ...args]]
      : ['npm', [...args]];
  return execFileSync(file, argv, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: options.timeoutMs ?? 240_000,
    killSignal: 'SIGKILL',
    env: options.env ?? process.env,
  });
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
