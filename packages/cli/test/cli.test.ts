/** Argument handling and exit codes of the relvo-codex process (source and built bin). */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { CODEX_APP_SERVER_VERSION } from '@relvo-labs/agent-provider-codex';
import { cliEnv, REPO_ROOT, runCli, survivorsAfter, standInCodex } from './support/cli.js';
import { apiKeyLoggedInHome, homeEnv, loopbackModelHost } from './support/codex-login.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function standIn(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'relvo-standin-'));
  dirs.push(dir);
  return standInCodex(dir, `codex-cli ${version}`);
}

describe('relvo-codex usage and exit codes', () => {
  it('--help lists the commands and documents the exit codes', async () => {
    // independent starts of the CLI, at once
    const [result, runHelp, demoHelp] = await Promise.all([
      runCli(['--help']),
      runCli(['run', '--help']),
      runCli(['demo', '--help']),
    ]);
    expect(result.code).toBe(0);
    for (const word of ['demo', 'run', 'doctor', 'Exit codes:', '130']) {
      expect(result.stdout).toContain(word);
    }
    // reviewing a release needs a clone of the repository: `npm run review` there, not this CLI
    expect(result.stdout).not.toMatch(/^\s+review\b/m);
    // examples, as clig.dev asks: the common cases first, including the prompt from stdin
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('| relvo-codex run -');
    expect(runHelp.stdout).toMatch(/Examples:\n {2}\$ relvo-codex run "/);
    expect(demoHelp.stdout).toContain('--yes');
    expect(demoHelp.stdout).toContain('--keep');
    expect(demoHelp.stdout).toContain('Exit codes:');
  });

  it.each([
    [['bogus']],
    [['demo', '--yes', '--no']],
    [['demo', '--frobnicate']],
    [['run']],
    [['run', 'hi', '--sandbox', 'everything']],
    [['run', 'hi', '--approvals', 'sometimes']],
    [['review', '0.1.0']],
  ])('usage error %j → exit 2', async (args) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
  });

  it('errors are one relvo-codex: line with what to do; internals only with --verbose', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relvo-cli-err-'));
    dirs.push(dir);
    const missing = join(dir, 'missing.json');
    const cases: [readonly string[], string][] = [
      [
        ['run', 'hi', '-m', '', '--no-config'],
        'relvo-codex: --model must not be empty; give a model name (relvo-codex models lists them)\n',
      ],
      [
        ['run', 'hi', '--config', missing],
        `relvo-codex: config file ${missing} does not exist; name a readable file with --config, or leave --config out to use the built-in profiles\n`,
      ],
      [
        ['run', 'hi', '--config', missing, '--no-config'],
        'relvo-codex: --config and --no-config contradict each other; give one of them\n',
      ],
      [
        ['rnu', 'hi'],
        "relvo-codex: unknown command 'rnu'; did you mean run? (relvo-codex --help shows the usage)\n",
      ],
    ];
    const [verbose, ...results] = await Promise.all([
      runCli(['run', 'hi', '--config', missing, '--verbose']),
      ...cases.map(([args]) => runCli(args)),
    ]);
    for (const [i, [args, line]] of cases.entries()) {
      expect(results[i]?.code, args.join(' ')).toBe(2);
      expect(results[i]?.stderr).toBe(line);
    }
    expect(verbose.code).toBe(2);
    expect(verbose.stderr.split('\n')[1]).toMatch(
      /^relvo-codex: \(details\) .*\[config_unreadable\]$/,
    );
  });

  it('run with an invalid host config file → exit 2 naming the key path, before any codex starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relvo-cli-cfg-'));
    dirs.push(dir);
    const file = join(dir, 'relvo.config.json');
    writeFileSync(
      file,
      JSON.stringify({ defaultProfile: 'p', profiles: { p: { provider: 'codex', extra: true } } }),
    );
    const result = await runCli(['run', 'hi', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('profiles.p');
    const unknown = await runCli(['run', 'hi', '--profile', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('codex-readonly');
  });

  it('demo and run refuse a codex outside the window with exit 3 and the install hint; nothing is started', async () => {
    const [missing, ...refused] = await Promise.all([
      runCli(['demo', '--yes'], { env: { RELVO_CODEX_EXECUTABLE: '/nonexistent/codex' } }),
      ...[
        ['demo', '--yes'],
        ['run', 'hi'],
      ].map((args) => runCli([...args, '--codex', standIn('0.1.0')])),
    ]);
    for (const result of refused) {
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`@openai/codex@${CODEX_APP_SERVER_VERSION}`);
      expect(await survivorsAfter(result.mark)).toEqual([]);
    }
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('RELVO_CODEX_EXECUTABLE');
  });

  it('the built bin (npm run build) runs: --version and doctor --json', async () => {
    const bin = join(REPO_ROOT, 'packages/cli/dist/bin.js');
    expect(existsSync(bin), 'packages/cli/dist/bin.js is missing: run `npm run build`').toBe(true);
    // doctor checks codex's login: a throw-away logged-in home, never the person's own
    const home = await apiKeyLoggedInHome();
    onTestFinished(() => {
      home.dispose();
    });
    const host = await loopbackModelHost();
    onTestFinished(() => host.close());
    const { env } = cliEnv({ env: { ...homeEnv(home), ...host.env } });
    const version = spawnSync(process.execPath, [bin, '--version'], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(version.status).toBe(0);
    // the CLI's own version, then the codex it pins
    const [own, codex] = version.stdout.trim().split('\n');
    expect(own).toMatch(/^\d+\.\d+\.\d+$/);
    expect(codex).toMatch(
      new RegExp(`^codex ${CODEX_APP_SERVER_VERSION.replaceAll('.', '\\.')} pinned`),
    );
    const doctor = spawnSync(process.execPath, [bin, 'doctor', '--json'], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(doctor.status).toBe(0);
    expect(JSON.parse(doctor.stdout)).toMatchObject({
      codex: { version: CODEX_APP_SERVER_VERSION },
      inWindow: true,
    });
  });
});
