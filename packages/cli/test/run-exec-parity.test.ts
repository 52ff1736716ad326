/**
 * `relvo-codex run` next to `codex exec`: `-o`, `--output-schema`, `-C`, `--color`, `--summary`
 * and `--fork`, each against the real codex and the scripted model — the effect is read where
 * it lands (the file, stdout, codex's request to the model, the event log).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { openingStep } from '../src/demo/script.js';
import { cliEnv, runCli, survivorsAfter } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(providerOptions: Record<string, unknown> = {}) {
  const { env } = cliEnv();
  const s = await scriptedRunSetup(env, providerOptions);
  cleanups.push(() => s.cleanup());
  const dir = mkdtempSync(join(tmpdir(), 'relvo-cli-parity-'));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return { ...s, env, dir };
}

const usage = { usage: scriptedUsage(1, 1, 0, 0) };
const ESC = '\u001b[';

interface Body {
  readonly model?: unknown;
  readonly reasoning?: { readonly effort?: unknown; readonly summary?: unknown };
  readonly text?: { readonly format?: { readonly type?: unknown } };
}
const bodyOf = (s: { server: { requests: readonly { body: unknown }[] } }, i: number): Body =>
  s.server.requests[i]?.body ?? {};

// each test starts the CLI from its sources and a real codex, on a shared machine
describe('relvo-codex run, as codex exec has it', { timeout: 120_000 }, () => {
  it('-o writes the final agent message to the file; -C is the workspace codex works in', async () => {
    const s = await setup({ toolActivity: 'redacted' });
    // a message, a command (denied: no terminal to ask in), then the final message
    s.server.enqueue(openingStep(0), textStep('THE LAST MESSAGE', usage));
    const file = join(s.dir, 'last.txt');
    const args = ['--config', s.configFile, '--event-log', s.eventLog];
    const result = await runCli(['run', 'hi', '-C', s.iso.workspace, '-o', file, ...args], {
      env: s.env,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('denied');
    expect(readFileSync(file, 'utf8')).toBe('THE LAST MESSAGE');
    expect(result.stderr).toContain(`workspace ${s.iso.workspace}`);
    // codex tells the model where it works: the folder -C named
    expect(JSON.stringify(s.server.requests[0]?.body)).toContain(s.iso.workspace);
    expect(await survivorsAfter(result.mark)).toEqual([]);

    const both = await runCli(['run', 'hi', '-C', s.iso.workspace, '--cwd', s.dir, ...args], {
      env: s.env,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("'-C, --cd <dir>' cannot be used with option '--cwd <dir>'");
    // the two requests of the first run only
    expect(s.server.requests).toHaveLength(2);
  });

  it('--output-schema: the validated JSON alone on stdout; an answer that does not match exits 4', async () => {
    const s = await setup();
    const schema = join(s.dir, 'schema.json');
    writeFileSync(
      schema,
      JSON.stringify({
        type: 'object',
        properties: { verdict: { type: 'string' } },
        required: ['verdict'],
        additionalProperties: false,
      }),
    );
    s.server.enqueue(textStep('{"verdict": "ok"}', usage), textStep('{"nope": 1}', usage));
    const ok = await runCli(['run', 'judge', '--output-schema', schema, ...s.runArgs], {
      env: s.env,
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('{"verdict":"ok"}\n');
    // codex asked the model for that schema's JSON
    expect(bodyOf(s, 0).text?.format?.type).toBe('json_schema');

    const bad = await runCli(['run', 'judge', '--output-schema', schema, ...s.runArgs], {
      env: s.env,
    });
    expect(bad.code).toBe(4);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).not.toContain('nope');

    const notJson = join(s.dir, 'not.json');
    writeFileSync(notJson, 'type: object');
    const refused = await runCli(['run', 'judge', '--output-schema', notJson, ...s.runArgs], {
      env: s.env,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--output-schema: the file is not a JSON object');
    expect(s.server.requests).toHaveLength(2);
    expect(await survivorsAfter(ok.mark)).toEqual([]);
  });

  it('--color always colours a pipe; never, --no-color and NO_COLOR do not; --summary reaches codex', async () => {
    const s = await setup();
    const run = (args: string[], env: Record<string, string> = {}) => {
      s.server.enqueue(textStep('ok', usage));
      return runCli(['run', 'hi', ...args, ...s.runArgs], { env: { ...s.env, ...env } });
    };
    const always = await run(['--color', 'always', '--summary', 'detailed']);
    expect(always.code).toBe(0);
    expect(always.stderr).toContain(ESC);
    expect(bodyOf(s, 0).reasoning?.summary).toBe('detailed');
    // an explicit flag wins over NO_COLOR (no-color.org)
    expect((await run(['--color', 'always'], { NO_COLOR: '1' })).stderr).toContain(ESC);
    expect(bodyOf(s, 1).reasoning?.summary).toBe('auto');
    for (const quiet of [
      await run(['--color', 'never']),
      await run(['--no-color']),
      await run(['--color', 'auto'], { NO_COLOR: '1' }),
    ]) {
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).not.toContain(ESC);
    }
    const wrong = await runCli(['run', 'hi', '--summary', 'verbose', ...s.runArgs], { env: s.env });
    expect(wrong.code).toBe(2);
    expect(s.server.requests).toHaveLength(5);
  });

  it('--fork: a new session on a fork of the thread, recorded with its parent; a session without a thread is refused', async () => {
    const s = await setup();
    const forkArgs = ['--config', s.configFile, '--event-log', s.eventLog];
    s.server.enqueue(textStep('first answer', usage), textStep('forked answer', usage));
    const first = await runCli(['run', 'FIRST-PROMPT', '--json', ...s.runArgs], { env: s.env });
    expect(first.code).toBe(0);
    const parent = (JSON.parse(first.stdout.split('\n')[0] ?? '{}') as { sessionId?: string })
      .sessionId;
    expect(parent).toMatch(/^ses_/);

    const fork = await runCli(
      ['run', 'SECOND-PROMPT', '--fork', parent!.slice(0, 12), ...forkArgs],
      {
        env: s.env,
      },
    );
    expect(fork.code).toBe(0);
    expect(fork.stderr).toContain(`(forked from ${parent!})`);
    // the fork's request carries the parent's turn, then its own prompt
    const sent = JSON.stringify(s.server.requests[1]?.body);
    expect(sent).toContain('FIRST-PROMPT');
    expect(sent).toContain('SECOND-PROMPT');
    const child = /session (ses_\S+) \(forked from/.exec(fork.stderr)?.[1];
    const log = await runCli(['log', child!, '--json', '--event-log', s.eventLog], { env: s.env });
    const opened = JSON.parse(log.stdout.split('\n')[0] ?? '{}') as {
      payload?: { type?: string; forkedFrom?: string };
    };
    expect(opened.payload).toMatchObject({ type: 'session.opened', forkedFrom: parent });
    expect(await survivorsAfter(fork.mark)).toEqual([]);

    const conflicting = await runCli(
      ['run', 'x', '--fork', parent!, '--resume', parent!, ...forkArgs],
      {
        env: s.env,
      },
    );
    expect(conflicting.code).toBe(2);
  });

  it('--fork of a session that kept no codex thread says why and what to do', async () => {
    const s = await setup({ persistence: 'ephemeral' });
    s.server.enqueue(textStep('no thread kept', usage));
    const first = await runCli(['run', 'hi', '--json', ...s.runArgs], { env: s.env });
    expect(first.code).toBe(0);
    const parent = (JSON.parse(first.stdout.split('\n')[0] ?? '{}') as { sessionId?: string })
      .sessionId;
    const fork = await runCli(
      ['run', 'again', '--fork', parent!, '--config', s.configFile, '--event-log', s.eventLog],
      { env: s.env },
    );
    expect(fork.code).toBe(2);
    expect(fork.stderr).toMatch(
      /cannot be forked: it ran without a saved codex thread .*; fork a session that ran a turn with an event log/,
    );
    expect(s.server.requests).toHaveLength(1);
    expect(await survivorsAfter(fork.mark)).toEqual([]);
  });
});
