/**
 * Every subcommand's `--help` lists its own exit codes, and each one listed is true: the test
 * finds the subcommands in the program itself, reads each help, and for every listed code runs
 * an invocation that produces it (in-process `main()` with real streams, for what needs no
 * process of its own). A code this file does not reach names the test that does, and why.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram, main, type CliIo } from '../src/program.js';
import { standInCodex } from './support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'relvo-help-codes-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const oldCodex = standInCodex(dir, 'codex-cli 0.1.0');
const emptyLog = join(dir, 'none', 'events.sqlite');
// a file that is not a SQLite database: the log cannot be read
const badLog = join(dir, 'bad.sqlite');
writeFileSync(badLog, 'not a database, just text that is long enough to have a header\n'.repeat(8));

function streams(): { io: CliIo; stdout: () => string; stderr: () => string } {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c: Buffer) => (stdout += c.toString()));
  err.on('data', (c: Buffer) => (stderr += c.toString()));
  // stdin as a closed pipe: run appends piped input, and must see its end
  const stdin = new PassThrough();
  stdin.end();
  const io = {
    env: { ...process.env, RELVO_CODEX_EVENT_LOG: emptyLog },
    stdout: out as unknown as NodeJS.WriteStream,
    stderr: err as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}

async function invoke(args: readonly string[]) {
  const s = streams();
  const code = await main(['node', 'relvo-codex', ...args], s.io);
  return { code, stdout: s.stdout(), stderr: s.stderr() };
}

/** How each (command, code) is produced here. */
const REACH: Readonly<Record<string, readonly string[]>> = {
  'demo 2': ['demo', '--frobnicate'],
  'demo 3': ['demo', '--yes', '--codex', oldCodex],
  'run 2': ['run', 'hi', '--config', join(dir, 'missing.json')],
  'run 3': ['run', 'hi', '--no-config', '--event-log', emptyLog, '--codex', oldCodex],
  'doctor 2': ['doctor', '--frobnicate'],
  'doctor 3': ['doctor', '--codex', oldCodex],
  'serve 2': ['serve', '--port', 'x'],
  'serve 3': ['serve', '--no-config', '--event-log', emptyLog, '--codex', oldCodex],
  'models 2': ['models', '--frobnicate'],
  'models 3': ['models', '--codex', oldCodex],
  'sessions 0': ['sessions', '--event-log', emptyLog],
  'sessions 2': ['sessions', '--event-log', emptyLog, '--event-store', 'postgres://x/y'],
  'sessions 1': ['sessions', '--event-log', badLog],
  'log 1': ['log', 'ses_x', '--event-log', badLog],
  'log 2': ['log'],
  'attach 2': ['attach', 'ses_nope', '--event-log', emptyLog],
  'login 2': ['login', '--frobnicate'],
  'logout 2': ['logout', '--frobnicate'],
};

/** Codes that need a real codex turn, a signal or a terminal: the test that reaches each. */
const ELSEWHERE: Readonly<Record<string, string>> = {
  'demo 0': 'a real codex turn: demo.test.ts',
  'demo 1': 'codex failing to start needs a broken codex binary; not reached yet',
  'demo 130': 'Ctrl-C in a terminal: signals.test.ts',
  'demo 143': 'a signal to a running process: signals.test.ts',
  'demo 129': 'a signal to a running process: signals.test.ts',
  'run 0': 'a real codex turn against the scripted model: run.test.ts',
  'run 1': 'a failed codex turn: run-options.test.ts (--effort refused by codex)',
  'run 4': 'an answer that does not match --output-schema: run-exec-parity.test.ts',
  'run 124': '--timeout in a terminal: terminal-waits.test.ts',
  'run 130': 'Ctrl-C in a terminal: signals.test.ts',
  'run 141': 'a reader that goes away: terminal-pipes.test.ts',
  'run 143': 'SIGTERM to a running turn: sigterm.test.ts, run.test.ts',
  'run 129': 'SIGHUP to a running process: signals.test.ts',
  'doctor 0': 'a logged-in codex home: doctor.test.ts, cli.test.ts',
  'doctor 1': 'a codex that is not logged in: doctor.test.ts',
  'serve 0': 'SIGTERM to a running console: serve.test.ts',
  'models 0': 'the real codex catalog: models.test.ts',
  'models 1': 'a codex that cannot list: models.test.ts',
  'log 0': 'a recorded session: history.test.ts',
  'attach 0': 'a session that ends while attached: attach.test.ts',
  'attach 1': 'a follow that fails: attach.test.ts',
  'attach 130': 'Ctrl-C while attached: attach.test.ts',
  'attach 143': 'SIGTERM while attached: attach.test.ts',
  'attach 129': 'SIGHUP while attached: attach.test.ts',
  'login 0': 'the real codex with an isolated CODEX_HOME: login-command.test.ts',
  'login 1': 'codex refusing a login needs a codex that refuses; not reached yet',
  'login 130': 'Ctrl-C while the key is read; not reached yet',
  'logout 0': 'the real codex with an isolated CODEX_HOME: login-command.test.ts',
  'logout 1': 'codex refusing a logout needs a codex that refuses; not reached yet',
};

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
    it('finds the commands in the program', () => {
      expect(commands.length).toBeGreaterThanOrEqual(8);
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
          const args = REACH[key];
          if (args === undefined) {
            expect(ELSEWHERE[key], `${key}: listed but neither reached nor named`).toBeDefined();
            continue;
          }
          const result = await invoke(args);
          expect(result.code, `${key}: ${result.stderr}`).toBe(code);
          if (code === 2) expect(result.stderr).toMatch(/^relvo-codex: [^\n]+; [^\n]+\n$/);
        }
      },
    );
  },
);
