/**
 * Every subcommand's `--help` lists its own exit codes, and each one listed is true: the test
 * finds the subcommands in the program itself, reads each help, and for every listed code runs
 * an invocation that produces it: in-process `main()` with real streams, a stand-in codex of a
 * reviewed version that cannot start, a terminal-like stdin for a Ctrl-C at a prompt. A code
 * that needs a real codex turn, a signal to a process or a terminal is produced by the test
 * named for it, and this walk reads that test to check it asserts exactly that code.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '@relvo-labs/agent-provider/testing';
import { CODEX_APP_SERVER_VERSION } from '@relvo-labs/agent-provider-codex';
import { createAgentRuntime, openSqliteEventStore } from '@relvo-labs/agent-runtime';
import { buildProgram, main, type CliIo } from '../src/program.js';
import { REPO_ROOT, standInCodex } from './support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'relvo-help-codes-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const oldCodex = standInCodex(dir, 'codex-cli 0.1.0');
// a reviewed version that answers --version and nothing else: codex cannot start
const mute = mkdtempSync(join(dir, 'mute-'));
const muteCodex = standInCodex(mute, `codex-cli ${CODEX_APP_SERVER_VERSION}`);
const notLoggedIn = mkdtempSync(join(dir, 'codex-home-'));
const recordedLog = join(dir, 'recorded', 'events.sqlite');
let recordedId = '';
beforeAll(async () => {
  // one finished session in a log of its own, for `log` to print
  const scripted = createScriptedProvider();
  const runtime = await createAgentRuntime({
    providers: { scripted: () => scripted.provider },
    config: { defaultProfile: 's', profiles: { s: { provider: 'scripted' } } },
    store: openSqliteEventStore({ path: recordedLog }),
  });
  const session = await runtime.openSession({ workspace: dir });
  recordedId = session.id;
  await session.close();
  await runtime.shutdown();
});
const emptyLog = join(dir, 'none', 'events.sqlite');
// a file that is not a SQLite database: the log cannot be read
const badLog = join(dir, 'bad.sqlite');
writeFileSync(badLog, 'not a database, just text that is long enough to have a header\n'.repeat(8));

/** stdin as a terminal that types `typed` once something asks (a prompt's Ctrl-C). */
function terminalStdin(typed: string): NodeJS.ReadStream {
  const tty = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => tty,
  });
  // typed once the prompt listens for keys
  const typeOnce = (event: string): void => {
    if (event !== 'keypress') return;
    tty.off('newListener', typeOnce);
    setImmediate(() => tty.write(typed));
  };
  tty.on('newListener', typeOnce);
  return tty as unknown as NodeJS.ReadStream;
}

function streams(
  stdinText = '',
  stdinStream?: NodeJS.ReadStream,
): { io: CliIo; stdout: () => string; stderr: () => string } {
  const out = new PassThrough();
  // like process.stderr, never closed by a writer (a prompt ends the stream it drew on)
  const err = Object.assign(new PassThrough(), { end: () => err });
  let stdout = '';
  let stderr = '';
  out.on('data', (c: Buffer) => (stdout += c.toString()));
  err.on('data', (c: Buffer) => (stderr += c.toString()));
  // stdin as a closed pipe: run appends piped input, and must see its end
  const stdin = new PassThrough();
  stdin.end(stdinText);
  const io = {
    env: {
      ...process.env,
      RELVO_CODEX_EVENT_LOG: emptyLog,
      CODEX_HOME: notLoggedIn,
      // doctor's host check stays on loopback (a closed port)
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    },
    stdout: out as unknown as NodeJS.WriteStream,
    stderr: err as unknown as NodeJS.WriteStream,
    stdin: stdinStream ?? (stdin as unknown as NodeJS.ReadStream),
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}

interface Invocation {
  readonly args: readonly string[];
  readonly stdin?: string;
  /** Typed into a terminal-like stdin once the command reads it. */
  readonly typed?: string;
}

async function invoke(args: readonly string[], how: Omit<Invocation, 'args'> = {}) {
  const s = streams(how.stdin, how.typed === undefined ? undefined : terminalStdin(how.typed));
  const code = await main(['node', 'relvo-codex', ...args], s.io);
  return { code, stdout: s.stdout(), stderr: s.stderr() };
}

/** How each (command, code) is produced here. */
const REACH: Readonly<Record<string, readonly string[] | Invocation>> = {
  'demo 1': ['demo', '--yes', '--codex', muteCodex],
  'demo 2': ['demo', '--frobnicate'],
  'demo 3': ['demo', '--yes', '--codex', oldCodex],
  'run 1': ['run', 'hi', '--no-config', '--event-log', emptyLog, '--codex', muteCodex],
  'run 2': ['run', 'hi', '--config', join(dir, 'missing.json')],
  'run 3': ['run', 'hi', '--no-config', '--event-log', emptyLog, '--codex', oldCodex],
  'doctor 1': ['doctor', '--json'],
  'doctor 2': ['doctor', '--frobnicate'],
  'doctor 3': ['doctor', '--codex', oldCodex],
  'serve 2': ['serve', '--port', 'x'],
  'serve 3': ['serve', '--no-config', '--event-log', emptyLog, '--codex', oldCodex],
  'models 1': ['models', '--codex', muteCodex],
  'models 2': ['models', '--frobnicate'],
  'models 3': ['models', '--codex', oldCodex],
  'sessions 0': ['sessions', '--event-log', emptyLog],
  'sessions 2': ['sessions', '--event-log', emptyLog, '--event-store', 'postgres://x/y'],
  'sessions 1': ['sessions', '--event-log', badLog],
  'log 0': {
    get args() {
      return ['log', recordedId, '--event-log', recordedLog];
    },
  },
  'log 1': ['log', 'ses_x', '--event-log', badLog],
  'log 2': ['log'],
  'attach 2': ['attach', 'ses_nope', '--event-log', emptyLog],
  'login 1': { args: ['login', '--codex', muteCodex], stdin: 'sk-not-a-real-key\n' },
  'login 2': ['login', '--frobnicate'],
  'login 130': { args: ['login', '--codex', muteCodex], typed: '\u0003' },
  'logout 1': ['logout', '--codex', muteCodex],
  'logout 2': ['logout', '--frobnicate'],
};

/**
 * Codes that need a real codex turn, a signal to a running process or a terminal: the test file
 * that produces each, and the assertion in it that says so (read, not trusted).
 */
const ELSEWHERE: Readonly<Record<string, readonly [string, RegExp]>> = {
  'demo 0': ['demo.test.ts', /expect\(result\.code\)\.toBe\(0\)/],
  'demo 130': ['signals.test.ts', /SIGINT: 130/],
  'demo 143': ['signals.test.ts', /SIGTERM: 143/],
  'demo 129': ['signals.test.ts', /SIGHUP: 129/],
  'run 0': ['run.test.ts', /expect\(result\.code\)\.toBe\(0\)/],
  'run 4': ['run-exec-parity.test.ts', /expect\(bad\.code\)\.toBe\(4\)/],
  'run 124': ['terminal-waits.test.ts', /exitStatus\(\d+_000\)\)\.toBe\(124\)/],
  'run 130': ['signals.test.ts', /Enter ends with 130[\s\S]*exitStatus\(30_000\)\)\.toBe\(130\)/],
  'run 141': ['terminal-pipes.test.ts', /toContain\('exit=141'\)/],
  'run 143': ['run.test.ts', /\['SIGTERM', 143\]/],
  'run 129': ['run.test.ts', /\['SIGHUP', 129\]/],
  'doctor 0': ['doctor.test.ts', /expect\(result\.code\)\.toBe\(0\)/],
  'serve 0': ['serve.test.ts', /exitStatus\(30_000\)\)\.toBe\(0\)/],
  'models 0': ['models.test.ts', /expect\(result\.code\)\.toBe\(0\)/],
  'attach 0': ['attach.test.ts', /expect\(await term\.exitStatus\(\)\)\.toBe\(0\)/],
  'attach 1': ['attach.test.ts', /expect\(broken\.code, broken\.stderr\)\.toBe\(1\)/],
  'attach 130': ['attach.test.ts', /\['SIGINT', 130\]/],
  'attach 143': ['attach.test.ts', /\['SIGTERM', 143\]/],
  'attach 129': ['attach.test.ts', /\['SIGHUP', 129\]/],
  'login 0': ['login-command.test.ts', /expect\(login\.code\)\.toBe\(0\)/],
  'logout 0': ['login-command.test.ts', /expect\(logout\.code\)\.toBe\(0\)/],
};

function isArgs(how: readonly string[] | Invocation): how is readonly string[] {
  return Array.isArray(how);
}

function listedCodes(help: string): number[] {
  const block = help.slice(help.indexOf('Exit codes:'));
  return [...block.matchAll(/^ {2}(\d{1,3}) /gm)].map((m) => Number(m[1]));
}

const s = streams();
const commands = buildProgram(s.io, () => undefined).commands.map((c) => c.name());

describe(
  'each command’s help lists its own exit codes, and they are true',
  { timeout: 60_000 },
  () => {
    it('finds the commands in the program; the README and docs/cli.md name each one', () => {
      expect(commands.length).toBeGreaterThanOrEqual(8);
      const layout = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('| `packages/cli` |'));
      const intro = readFileSync(join(REPO_ROOT, 'docs/cli.md'), 'utf8').split('\n\n')[1] ?? '';
      const words = [
        'zero',
        'one',
        'two',
        'three',
        'four',
        'five',
        'six',
        'seven',
        'eight',
        'nine',
      ];
      expect(intro).toMatch(
        new RegExp(`\\b${[...words, 'ten', 'eleven', 'twelve'][commands.length] ?? '?'} commands`),
      );
      for (const name of commands) {
        expect(layout, `README layout: ${name}`).toContain(`\`${name}\``);
        expect(intro, `docs/cli.md: ${name}`).toContain(`\`${name}\``);
      }
    });

    it.each(commands)(
      '%s --help: every listed code is produced or named elsewhere',
      async (name) => {
        const help = await invoke([name, '--help']);
        expect(help.code).toBe(0);
        const codes = listedCodes(help.stdout);
        expect(codes.length, `${name} --help lists no exit codes`).toBeGreaterThan(0);
        // no command repeats another's table: the turn's wording is run's and demo's alone
        if (!['run', 'demo'].includes(name))
          expect(help.stdout).not.toContain('the turn succeeded');
        for (const code of codes) {
          const key = `${name} ${code}`;
          const how = REACH[key];
          if (how === undefined) {
            const named = ELSEWHERE[key];
            expect(named, `${key}: listed but neither reached nor named`).toBeDefined();
            const file = join(REPO_ROOT, 'packages/cli/test', named?.[0] ?? '');
            expect(existsSync(file), `${key}: ${named?.[0] ?? ''} is missing`).toBe(true);
            expect(readFileSync(file, 'utf8'), `${key}: not asserted there`).toMatch(
              named?.[1] ?? /$^/,
            );
            continue;
          }
          const result = isArgs(how) ? await invoke(how) : await invoke(how.args, how);
          expect(result.code, `${key}: ${result.stderr}`).toBe(code);
          if (code === 2) expect(result.stderr).toMatch(/^relvo-codex: [^\n]+; [^\n]+\n$/);
        }
      },
    );
  },
);
