/**
 * A parent-death signal for the app-server (ADR-0010): when the host dies without running any
 * handler (SIGKILL, OOM kill), the kernel sends the app-server SIGKILL — which also ends a
 * stopped (SIGSTOP) one, where stdin EOF would never be read. Node cannot call
 * prctl(PR_SET_PDEATHSIG) itself, so the app-server is started through util-linux
 * `setpriv --pdeathsig KILL -- <executable> …`, which sets it and execs (same PID, same start
 * time). Linux only; used only when setpriv is present and supports the option.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

const SETPRIV_CANDIDATES = ['/usr/bin/setpriv', '/bin/setpriv'] as const;

let setprivCache: string | null | undefined;

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The setpriv binary when it supports `--pdeathsig` (checked once per process), else null. */
export function findSetpriv(): string | null {
  if (setprivCache !== undefined) return setprivCache;
  setprivCache = null;
  if (process.platform !== 'linux') return null;
  for (const candidate of SETPRIV_CANDIDATES) {
    if (!isExecutableFile(candidate)) continue;
    try {
      const help = spawnSync(candidate, ['--help'], {
        encoding: 'utf8',
        timeout: 2000,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      if (help.status === 0 && help.stdout.includes('--pdeathsig')) {
        setprivCache = candidate;
        break;
      }
    } catch {
      // not usable
    }
  }
  return setprivCache;
}

/**
 * Resolve `executable` as spawn would (a path, or a PATH search in the child's environment).
 * Undefined when it cannot be found or run: the caller then spawns it directly, so the
 * ENOENT/EACCES failure surfaces exactly as without the wrapper.
 */
export function resolveExecutable(
  executable: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string | undefined {
  if (executable.includes('/')) {
    const full = isAbsolute(executable) ? executable : resolve(cwd, executable);
    return isExecutableFile(full) ? full : undefined;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const full = resolve(cwd, join(dir, executable));
    if (isExecutableFile(full)) return full;
  }
  return undefined;
}

export interface LaunchCommand {
  readonly file: string;
  readonly args: readonly string[];
  /** Whether the kernel will SIGKILL the app-server when the spawning thread dies. */
  readonly parentDeathSignal: boolean;
}

/** The argv to spawn: wrapped in setpriv when asked for and possible, else unchanged. */
export function launchCommand(
  executable: string,
  args: readonly string[],
  options: {
    readonly parentDeathSignal: boolean;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly cwd: string;
  },
): LaunchCommand {
  const direct = { file: executable, args, parentDeathSignal: false };
  if (!options.parentDeathSignal) return direct;
  const setpriv = findSetpriv();
  if (setpriv === null) return direct;
  const resolved = resolveExecutable(executable, options.env, options.cwd);
  if (resolved === undefined) return direct;
  return {
    file: setpriv,
    args: ['--pdeathsig', 'KILL', '--', resolved, ...args],
    parentDeathSignal: true,
  };
}
