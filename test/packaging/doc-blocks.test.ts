/**
 * Documentation that runs (docs/testing.md): every code block of the READMEs and the guides
 * carries a marker saying how it is checked, and this file checks it — documented commands exist,
 * TypeScript compiles against the built workspace packages, a `run` block runs against the pinned
 * codex and the scripted model, a config is one the runtime accepts.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from '@relvo-labs/agent-runtime';
import { CODEX_APP_SERVER_VERSION } from '../../src/constants.js';
import { requireCodexBinary, textStep } from '../../src/testing/index.js';
import { scriptedRunSetup } from '../../packages/cli/test/support/scripted-config.js';
import {
  BLOCK_CHECKS,
  blocksOf,
  checkedBlocks,
  commandsOf,
  type DocBlock,
} from '../support/doc-blocks.js';
import { builtCli } from '../support/built.js';
import { REPO_ROOT } from '../support/paths.js';
import { testEnv } from '../support/processes.js';

// every package's dist is current from here on: the blocks compile and run against it
const CLI_ENTRY = await builtCli();
const blocks = checkedBlocks();
const where = (b: DocBlock): string => `${b.file}:${b.line}`;
const withCheck = (check: string): DocBlock[] => blocks.filter((b) => b.check === check);

/** Scratch folders inside the repository, so that imports resolve to the workspace packages. */
const scratches: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(REPO_ROOT, '.vitest-doc-blocks-'));
  scratches.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of scratches.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('markers', () => {
  it('every code block in the checked files says how it is checked', () => {
    expect(blocks.length).toBeGreaterThan(10);
    const known: readonly string[] = BLOCK_CHECKS;
    const unmarked = blocks.filter((b) => b.check === undefined || !known.includes(b.check));
    expect(unmarked.map(where)).toEqual([]);
    // the quick start is run, not just shown
    expect(blocks.filter((b) => b.file === 'README.md').map((b) => b.check)).toContain('run');
  });

  it('an unmarked block or an unknown marker would be caught', () => {
    const sample =
      '<!-- check: run -->\n```ts\na\n```\n\n```sh\nb\n```\n<!-- check: maybe -->\n```ts\nc\n```\n';
    expect(blocksOf('x.md', sample).map((b) => [b.line, b.check, b.code])).toEqual([
      [2, 'run', 'a'],
      [6, undefined, 'b'],
      [10, 'maybe', 'c'],
    ]);
  });
});

/** Runs node without blocking this process's event loop. */
function runNode(
  args: string[],
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd, encoding: 'utf8', env: testEnv(), timeout: 60_000 },
      (error, stdout, stderr) => {
        // a timeout or a signal leaves no exit code: null
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

function cliHelp(command: string): string {
  return execFileSync(process.execPath, [CLI_ENTRY, command, '--help'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: testEnv({ NO_COLOR: '1' }),
  });
}

/** Why a documented command is not one this repository provides, or undefined when it is. */
function problemWith(words: readonly string[], help: (cmd: string) => string): string | undefined {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
    workspaces: string[];
  };
  const packages = new Set(
    ['.', ...pkg.workspaces].map(
      (dir) =>
        (JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as { name: string })
          .name,
    ),
  );
  const [head, ...rest] = words;
  if (head === 'npm') {
    const [verb, ...args] = rest;
    if (verb === 'ci' && args.length === 0) return undefined;
    if (verb === 'test') return 'test' in pkg.scripts ? undefined : 'no test script';
    if (verb === 'run') {
      const script = args.find((a) => !a.startsWith('-'));
      return script !== undefined && script in pkg.scripts ? undefined : `no script ${script}`;
    }
    if (verb === 'i' || verb === 'install') {
      const named = args.filter((a) => !a.startsWith('-'));
      const odd = named.filter(
        (n) => !packages.has(n) && n !== `@openai/codex@${CODEX_APP_SERVER_VERSION}`,
      );
      return named.length > 0 && odd.length === 0 ? undefined : `installs ${odd.join(' ')}`;
    }
    return `npm ${verb ?? ''}`;
  }
  const cli =
    head === 'npx'
      ? rest
      : head === 'node' && rest[0] === 'packages/cli/dist/bin.js'
        ? rest
        : words;
  if (cli[0] !== 'relvo-codex' && cli[0] !== 'packages/cli/dist/bin.js')
    return `unknown command ${head}`;
  const command = cli[1];
  if (command === undefined || command.startsWith('-')) return 'no relvo-codex command';
  const text = help(command);
  if (!text.startsWith(`Usage: relvo-codex ${command} `)) return `no relvo-codex ${command}`;
  const missing = cli
    .slice(2)
    .filter((w) => w.startsWith('--') && !text.includes(`  ${w.split('=')[0]!}`));
  return missing.length === 0 ? undefined : `relvo-codex ${command} has no ${missing.join(' ')}`;
}

describe('commands blocks', () => {
  it('name only npm scripts, workspace packages, the pinned codex and relvo-codex commands and options that exist', () => {
    const helps = new Map<string, string>();
    const help = (cmd: string): string => {
      if (!helps.has(cmd)) helps.set(cmd, cliHelp(cmd));
      return helps.get(cmd)!;
    };
    const found = withCheck('commands').flatMap((b) =>
      commandsOf(b.code).map((words) => ({ at: where(b), words })),
    );
    expect(found.length).toBeGreaterThan(4);
    const problems = found
      .map(({ at, words }) => [at, problemWith(words, help)] as const)
      .filter(([, p]) => p !== undefined);
    expect(problems).toEqual([]);
    // a stale name of each kind would be caught
    expect(problemWith(['npm', 'run', 'no-such-script'], help)).toBe('no script no-such-script');
    expect(problemWith(['npm', 'i', 'left-pad'], help)).toBe('installs left-pad');
    expect(problemWith(['relvo-codex', 'run', 'x', '--no-such-flag'], help)).toBe(
      'relvo-codex run has no --no-such-flag',
    );
    expect(problemWith(['relvo-codex', 'frobnicate'], help)).toBe('no relvo-codex frobnicate');
  }, 60_000);
});

describe('config blocks', () => {
  it('are host config files the runtime accepts', () => {
    const configs = withCheck('config');
    expect(configs.length).toBeGreaterThan(0);
    for (const b of configs)
      expect(() => parseRuntimeConfig(JSON.parse(b.code)), where(b)).not.toThrow();
  });
});

describe('consumer blocks', () => {
  it('are in a file the consumer test reads from the installed package, found by their title', () => {
    const consumer = readFileSync(join(REPO_ROOT, 'test', 'packaging', 'consumer.test.ts'), 'utf8');
    const found = withCheck('consumer');
    expect(found.length).toBeGreaterThan(0);
    for (const b of found) {
      expect(consumer, where(b)).toContain(`'${basename(b.file)}'`);
      const fence = readFileSync(join(REPO_ROOT, b.file), 'utf8').split('\n')[b.line - 1]!;
      const title = /title="([^"]+)"/.exec(fence)?.[1];
      if (title !== undefined) expect(consumer, where(b)).toContain(`'${title}'`);
    }
  });
});

describe('typecheck and run blocks', () => {
  it("compile against the workspace packages' built declarations with the repository compiler settings", () => {
    const dir = scratch();
    const typed = [...withCheck('typecheck'), ...withCheck('run')];
    expect(typed.length).toBeGreaterThan(1);
    const files = typed.map((b, i) => {
      const name = `block-${i}.ts`;
      writeFileSync(join(dir, name), `// ${where(b)}\n${b.code}\n`);
      return name;
    });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../tsconfig.base.json',
        // what a reader's project sees, the published declarations, not the sources through
        // `relvo-source`: checking those again cost five times the blocks' own check, and the
        // repository's typecheck does it
        compilerOptions: { noEmit: true, customConditions: [] },
        files,
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [
        join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        join(dir, 'tsconfig.json'),
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);

  it('run blocks run as written against the pinned codex and a scripted model', async () => {
    const runs = withCheck('run');
    expect(runs.length).toBeGreaterThan(0);
    const binary = requireCodexBinary({ kind: 'native' });
    for (const b of runs) {
      const dir = scratch();
      // the profile the CLI's own tests use, with the pinned codex as its executable
      const setup = await scriptedRunSetup(testEnv(), { executable: binary.path });
      const model = setup.server;
      try {
        model.enqueue(textStep(['A repository ', 'of tests.']));
        copyFileSync(setup.configFile, join(dir, 'relvo.config.json'));
        writeFileSync(join(dir, 'block.ts'), b.code);
        // asynchronously: the scripted model answers from this process
        const result = await runNode(
          // the built packages, as a reader runs them (no source transpiled on the way)
          ['--import', 'tsx', 'block.ts'],
          dir,
        );
        expect(result.stderr, where(b)).toBe('');
        expect(result.status, where(b)).toBe(0);
        expect(result.stdout, where(b)).toContain('A repository of tests.');
        expect(result.stdout.trim().split('\n').at(-1), where(b)).toBe('completed');
        expect(model.requests.length, where(b)).toBe(1);
      } finally {
        await setup.cleanup();
      }
    }
  }, 120_000);
});
