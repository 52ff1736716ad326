/**
 * The event log of `run` is private (0700 folders, 0600 files whatever the umask), can be
 * switched off, and can be read back with `sessions` and `log`.
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventEnvelopeSchema } from '@relvo-labs/agent-runtime';
import { execCommandStep, scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliArgv, cliEnv, runCli, startMarked, survivorsAfter, until } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'relvo-cli-log-'));
  cleanups.push(() => {
    rmSync(d, { recursive: true, force: true });
  });
  return d;
}

async function setup() {
  const { env, mark } = cliEnv();
  const s = await scriptedRunSetup(env);
  cleanups.push(() => s.cleanup());
  // the arguments without --event-log: where the log goes is what these tests vary
  const baseArgs = ['--config', s.configFile, '--cwd', s.iso.workspace];
  return { ...s, env, mark, baseArgs };
}

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

/** Every file and folder below `root`, relative. */
function tree(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).sort();
}

// several CLI runs per test, each starting from the TypeScript sources on a shared machine
describe('the event log of relvo-codex run', { timeout: 180_000 }, () => {
  it('under umask 022 its folders are created 0700 and the database and its WAL are 0600', async () => {
    const s = await setup();
    const state = join(tempDir(), 'state');
    s.server.enqueue(
      textStep(
        Array.from({ length: 20 }, (_, i) => `t${i} `),
        { delayMs: 100, usage: scriptedUsage(5, 20, 0, 0) },
      ),
    );
    const cli = startMarked(
      '/bin/sh',
      [
        '-c',
        'umask 022 && exec "$@"',
        'sh',
        process.execPath,
        ...cliArgv(['run', 'slow', ...s.baseArgs]),
      ],
      { env: { ...s.env, XDG_STATE_HOME: state } },
    );
    const log = join(state, 'relvo-codex', 'events.sqlite');
    // mid-turn, while SQLite holds the database open with its write-ahead log
    await until(
      () => cli.stdout().includes('t2 ') && existsSync(`${log}-wal`),
      'a live WAL',
      60_000,
    );
    expect({
      state: mode(state),
      folder: mode(join(state, 'relvo-codex')),
      db: mode(log),
      wal: mode(`${log}-wal`),
    }).toEqual({ state: '700', folder: '700', db: '600', wal: '600' });
    const result = await cli.result;
    expect(result.code).toBe(0);
    for (const name of tree(join(state, 'relvo-codex'))) {
      expect([name, mode(join(state, 'relvo-codex', name))]).toEqual([name, '600']);
    }
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('--ephemeral, and "host": { "ephemeral": true } in the config, keep no log at all', async () => {
    const s = await setup();
    const state = join(tempDir(), 'state');
    const env = { ...s.env, XDG_STATE_HOME: state };
    s.server.enqueue(textStep('one', { usage: scriptedUsage(1, 1, 0, 0) }));
    const flagged = await runCli(['run', 'hi', ...s.baseArgs, '--ephemeral'], { env });
    expect(flagged.code).toBe(0);
    expect(flagged.stderr).toContain('event log none (ephemeral)');

    const config = JSON.parse(readFileSync(s.configFile, 'utf8')) as Record<string, unknown>;
    const ephemeralConfig = join(tempDir(), 'ephemeral.json');
    writeFileSync(ephemeralConfig, JSON.stringify({ ...config, host: { ephemeral: true } }));
    s.server.enqueue(textStep('two', { usage: scriptedUsage(1, 1, 0, 0) }));
    const configured = await runCli(
      ['run', 'hi', '--config', ephemeralConfig, '--cwd', s.iso.workspace],
      { env },
    );
    expect(configured.code).toBe(0);
    expect(existsSync(state)).toBe(false);
    expect(await survivorsAfter(flagged.mark)).toEqual([]);
    expect(await survivorsAfter(configured.mark)).toEqual([]);
  });

  it('an unknown key under "host" is a usage error naming it', async () => {
    const s = await setup();
    const config = JSON.parse(readFileSync(s.configFile, 'utf8')) as Record<string, unknown>;
    const bad = join(tempDir(), 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...config, host: { ephemeraal: true } }));
    const result = await runCli(['run', 'hi', '--config', bad, '--cwd', s.iso.workspace], {
      env: s.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('host.ephemeraal');
    expect(s.server.requests).toHaveLength(0);
  });

  it('sessions lists what the log holds; log prints the timeline, and --json its envelopes', async () => {
    const s = await setup();
    s.server.enqueue(
      execCommandStep('touch should-not-exist', { callId: 'call_l', escalate: true }),
      textStep('I did not run it.', { usage: scriptedUsage(7, 5, 0, 0) }),
    );
    const run = await runCli(['run', 'touch it', ...s.runArgs], { env: s.env });
    expect(run.code).toBe(0);
    const id = /session (ses_[A-Za-z0-9_-]+)/.exec(run.stderr)?.[1];
    expect(id).toBeDefined();

    // four readers of the finished log, at once
    const [listed, json, log, envelopes] = await Promise.all([
      runCli(['sessions', '--event-log', s.eventLog], { env: s.env }),
      runCli(['sessions', '--event-log', s.eventLog, '--json'], { env: s.env }),
      runCli(['log', id ?? '', '--event-log', s.eventLog], { env: s.env }),
      runCli(['log', (id ?? '').slice(0, 12), '--event-log', s.eventLog, '--json'], {
        env: s.env,
      }),
    ]);
    expect(listed.code).toBe(0);
    const short = (id ?? '?').slice(0, 12);
    const row = listed.stdout.split('\n').find((l) => l.startsWith(short)) ?? '';
    expect(row.split(/\s{2,}/).slice(0, 4)).toEqual([short, 'scripted', 'closed', '1']);
    expect(JSON.parse(json.stdout.trim())).toMatchObject({
      sessionId: id,
      turns: 1,
      state: 'closed',
      resumable: false,
    });

    expect(log.code).toBe(0);
    expect(log.stdout).toContain('you: touch it');
    expect(log.stdout).toMatch(/\? approval: .*touch should-not-exist/);
    expect(log.stdout).toMatch(/→ denied after \d+\.\d s/);
    expect(log.stdout).toContain('I did not run it.');
    expect(log.stdout).toMatch(/tokens \d+ in, \d+ out, \d+ total/);
    expect(log.stdout).toContain('session closed (requested)');

    const parsed = envelopes.stdout
      .trim()
      .split('\n')
      .map((l) => eventEnvelopeSchema.parse(JSON.parse(l)));
    expect(parsed.map((e) => e.sequence)).toEqual(parsed.map((_, i) => i + 1));
    expect(parsed.at(-1)?.payload.type).toBe('session.closed');
    expect(envelopes.stderr).toBe('');
  });

  it('sessions on a log that does not exist says so, creates nothing and exits 0', async () => {
    const missing = join(tempDir(), 'nothing', 'events.sqlite');
    const result = await runCli(['sessions', '--event-log', missing]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('no event log at');
    expect(existsSync(join(missing, '..'))).toBe(false);
  });
});
