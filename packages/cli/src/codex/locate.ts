/**
 * Which codex a command uses: `--codex <path>`, else `RELVO_CODEX_EXECUTABLE`, else the
 * `@openai/codex` this package pins (its native binary, which keeps codex's own signal
 * semantics and starts faster than the Node launcher).
 */
import {
  accessSync,
  constants,
  openSync,
  readSync,
  closeSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  locateCodexBinary,
  type CodexBinaryKind,
} from '@relvo-labs/agent-provider-codex/demo-model';

export const CODEX_EXECUTABLE_ENV = 'RELVO_CODEX_EXECUTABLE';

export const CODEX_SOURCES = ['option', 'env', 'pinned'] as const;
export type CodexSource = (typeof CODEX_SOURCES)[number];

export interface LocatedCodex {
  readonly found: true;
  /** Absolute path to spawn. */
  readonly path: string;
  readonly kind: CodexBinaryKind;
  readonly source: CodexSource;
}

export interface MissingCodex {
  readonly found: false;
  readonly source: CodexSource;
  /** What was asked for (a path or a name), when the person named one. */
  readonly requested?: string;
  readonly reason: string;
}

/** The directory of this package (holding its package.json), from src/ or dist/. */
export function cliPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    try {
      statSync(join(dir, 'package.json'));
      return dir;
    } catch {
      dir = dirname(dir);
    }
  }
  return dirname(fileURLToPath(import.meta.url));
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Resolve a bare name on PATH, or a relative/absolute path against `cwd`. */
export function resolveExecutable(
  requested: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): string | undefined {
  if (requested.includes('/')) {
    const path = isAbsolute(requested) ? requested : resolve(cwd, requested);
    return isExecutableFile(path) ? path : undefined;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const path = join(dir, requested);
    if (isExecutableFile(path)) return path;
  }
  return undefined;
}

/** An ELF/Mach-O/PE binary is native; a script (`#!`, e.g. the npm launcher) is a launcher. */
export function detectKind(path: string): CodexBinaryKind {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // keep the given path
  }
  const head = Buffer.alloc(4);
  let fd: number | undefined;
  try {
    fd = openSync(real, 'r');
    readSync(fd, head, 0, 4, 0);
  } catch {
    return 'native';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return head[0] === 0x23 && head[1] === 0x21 ? 'launcher' : 'native';
}

export interface FindCodexOptions {
  /** `--codex <path>` */
  readonly option?: string | undefined;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Where the pinned package is resolved from; defaults to this package's directory. */
  readonly from?: string;
}

export function findCodex(options: FindCodexOptions = {}): LocatedCodex | MissingCodex {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const fromEnv = env[CODEX_EXECUTABLE_ENV];
  const named: { source: CodexSource; value: string } | undefined =
    options.option !== undefined && options.option !== ''
      ? { source: 'option', value: options.option }
      : fromEnv !== undefined && fromEnv !== ''
        ? { source: 'env', value: fromEnv }
        : undefined;
  if (named !== undefined) {
    const path = resolveExecutable(named.value, env, cwd);
    if (path === undefined) {
      return {
        found: false,
        source: named.source,
        requested: named.value,
        reason: 'not an executable file',
      };
    }
    return { found: true, path, kind: detectKind(path), source: named.source };
  }
  const pinned = locateCodexBinary({ kind: 'native', from: options.from ?? cliPackageRoot() });
  if (pinned.found) return { found: true, path: pinned.path, kind: 'native', source: 'pinned' };
  // No native build for this platform package: the launcher still works where it can find one.
  const launcher = locateCodexBinary({ kind: 'launcher', from: options.from ?? cliPackageRoot() });
  if (launcher.found)
    return { found: true, path: launcher.path, kind: 'launcher', source: 'pinned' };
  return { found: false, source: 'pinned', reason: pinned.reason };
}
