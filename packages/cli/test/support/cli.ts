/**
 * Runs `relvo-codex` the way `npm run demo` does (the built CLI), as a child process with
 * the suite's leak marker plus a marker of its own, so a test can prove that nothing the CLI
 * started (codex, the app-server group, commands) outlived it.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../../../scripts/build-current.mjs';
import { builtCli } from '../../../../test/support/built.js';
import { processesWithEnv } from '../../../../test/support/proc-scan.js';
import { testEnv } from '../../../../test/support/processes.js';

export const REPO_ROOT = ROOT;
/** The built CLI's entry module (built here first when its sources are newer). */
export const CLI_ENTRY = await builtCli();
export const CLI_MARK_VAR = 'RELVO_CLI_TEST_MARK';

/** argv that starts the built CLI (what `npm run demo` runs). */
export function cliArgv(args: readonly string[]): string[] {
  return [CLI_ENTRY, ...args];
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The marker every process of this run carries. */
  readonly mark: string;
}

export interface RunCliOptions {
  readonly env?: Record<string, string>;
  /** Variables to drop from the inherited environment. */
  readonly unset?: readonly string[];
  readonly timeoutMs?: number;
  readonly cwd?: string;
  /** Written to the CLI's stdin (a pipe), which is then closed; without it stdin is /dev/null. */
  readonly input?: string;
}

/** A fresh environment for one CLI run: the suite's leak marker and a marker of its own. */
export function cliEnv(options: RunCliOptions = {}): { env: Record<string, string>; mark: string } {
  const mark = randomUUID();
  const env = testEnv({ ...options.env, [CLI_MARK_VAR]: mark });
  for (const name of options.unset ?? []) Reflect.deleteProperty(env, name);
  return { env, mark };
}

export interface StartedCli {
  readonly pid: number;
  readonly mark: string;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  readonly result: Promise<CliResult>;
}

/** Starts the CLI; `result` settles at exit, or rejects (after killing its group) at `timeoutMs`. */
export function startCli(args: readonly string[], options: RunCliOptions = {}): StartedCli {
  return startMarked(process.execPath, cliArgv(args), options);
}

/** `npm run <args>` from the repository root, as a person types it. */
export function npmRun(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  return startMarked('npm', ['run', ...args], { timeoutMs: 90_000, ...options }).result;
}

/** Starts `file argv` in its own group with the leak marks (see `cliEnv`). */
export function startMarked(
  file: string,
  argv: readonly string[],
  options: RunCliOptions = {},
): StartedCli {
  const args = argv;
  const { env, mark } = cliEnv(options);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const child = spawn(file, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env,
    detached: true,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const result = new Promise<CliResult>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // gone
      }
      reject(new Error(`${file} ${args.join(' ')}: no exit within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr, mark });
    });
  });
  return { pid: child.pid ?? -1, mark, stdout: () => stdout, stderr: () => stderr, result };
}

/** Runs the CLI to completion; kills its whole group and fails after `timeoutMs`. */
export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  return startCli(args, options).result;
}

/** Polls `probe` until it holds; fails with `label` after `timeoutMs`. */
export async function until(
  probe: () => boolean,
  label: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A tiny executable that answers `--version` like codex does, with the given output. */
export function standInCodex(dir: string, versionLine: string): string {
  const path = join(dir, 'codex');
  writeFileSync(path, `#!/bin/sh\necho "${versionLine}"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Live processes (not zombies) whose environment carries `CLI_MARK_VAR=mark`. */
export function markedProcesses(mark: string): { pid: number; comm: string }[] {
  return processesWithEnv(`${CLI_MARK_VAR}=${mark}`).map(({ pid, comm }) => ({ pid, comm }));
}

/**
 * The CLI's own process of this run: found by its entry module in argv, since the command name
 * of a Node process differs between releases (`node` on 20, the main thread's name on 24).
 */
export function markedCli(mark: string): { pid: number } | undefined {
  const cli = processesWithEnv(`${CLI_MARK_VAR}=${mark}`).find((p) => p.argv.includes(CLI_ENTRY));
  return cli === undefined ? undefined : { pid: cli.pid };
}

/** Waits (bounded) until no process of this run is alive; returns what is still alive. */
export async function survivorsAfter(mark: string, graceMs = 5_000): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  let alive = markedProcesses(mark);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = markedProcesses(mark);
  }
  for (const p of alive) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  return alive.map((p) => `${p.pid} ${p.comm}`);
}
