/**
 * `relvo-codex run` as people expect from a command line: the prompt from stdin, `-m`,
 * `--effort`, and a header that says which model, effort, sandbox and approval policy the turn
 * runs with.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliEnv, runCli, survivorsAfter } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const { env, mark } = cliEnv();
  const s = await scriptedRunSetup(env);
  cleanups.push(() => s.cleanup());
  return { ...s, env, mark };
}

/** The user text codex sent the model in its first request. */
function sentText(body: unknown): string {
  return JSON.stringify(body);
}

// each test starts the CLI from its sources and a real codex, on a shared machine
describe('relvo-codex run: prompt, model and header', { timeout: 120_000 }, () => {
  it('reads the prompt from a pipe when none is given, and from stdin with `-`', async () => {
    const s = await setup();
    s.server.enqueue(textStep('one', { usage: scriptedUsage(1, 1, 0, 0) }));
    const piped = await runCli(['run', ...s.runArgs], { env: s.env, input: 'PIPED-PROMPT-1\n' });
    expect(piped.code).toBe(0);
    expect(sentText(s.server.requests[0]?.body)).toContain('PIPED-PROMPT-1');

    s.server.enqueue(textStep('two', { usage: scriptedUsage(1, 1, 0, 0) }));
    const dashed = await runCli(['run', '-', ...s.runArgs], { env: s.env, input: 'DASH-PROMPT-2' });
    expect(dashed.code).toBe(0);
    expect(sentText(s.server.requests[1]?.body)).toContain('DASH-PROMPT-2');
    expect(await survivorsAfter(piped.mark)).toEqual([]);
    expect(await survivorsAfter(dashed.mark)).toEqual([]);
  });

  it('an empty pipe is a usage error that says what to give', async () => {
    const s = await setup();
    const result = await runCli(['run', ...s.runArgs], { env: s.env, input: '  \n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the prompt on stdin is empty');
    expect(s.server.requests).toHaveLength(0);
  });

  it('-m sets the model codex asks for; the header names model, sandbox and approvals', async () => {
    const s = await setup();
    s.server.enqueue(textStep('ok', { usage: scriptedUsage(1, 1, 0, 0) }));
    const result = await runCli(['run', 'hi', '-m', 'model-from-flag', ...s.runArgs], {
      env: s.env,
    });
    expect(result.code).toBe(0);
    expect((s.server.requests[0]?.body as { model?: unknown } | undefined)?.model).toBe(
      'model-from-flag',
    );
    expect(result.stderr).toMatch(/model model-from-flag · sandbox read-only · approvals bridge/);
    expect(result.stderr).not.toContain('⚠');
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('--effort sets the reasoning effort of the turn and the header names it', async () => {
    const { env } = cliEnv();
    // a configured effort: codex answers it at thread start, so the turn's own can be undone
    const s = await scriptedRunSetup(env, {}, ['model_reasoning_effort="low"']);
    cleanups.push(() => s.cleanup());
    s.server.enqueue(textStep('ok', { usage: scriptedUsage(1, 1, 0, 0) }));
    const result = await runCli(['run', 'hi', '--effort', 'high', ...s.runArgs], { env });
    expect(result.stderr).not.toContain('unexpected');
    expect(result.code).toBe(0);
    const body = s.server.requests[0]?.body as { reasoning?: { effort?: unknown } } | undefined;
    expect(body?.reasoning?.effort).toBe('high');
    expect(result.stderr).toMatch(/ · effort high · sandbox read-only · approvals bridge/);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('an --effort that is not a level is a usage error before anything starts', async () => {
    const s = await setup();
    const result = await runCli(['run', 'hi', '--effort', 'Very High', ...s.runArgs], {
      env: s.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--effort takes a lower-case level');
    // the refusal does not repeat the value
    expect(result.stderr).not.toContain('Very High');
    expect(s.server.requests).toHaveLength(0);
  });

  it('danger-full-access and --approvals none are each warned about before the turn', async () => {
    const s = await setup();
    s.server.enqueue(textStep('ok', { usage: scriptedUsage(1, 1, 0, 0) }));
    const result = await runCli(
      ['run', 'hi', '--sandbox', 'danger-full-access', '--approvals', 'none', ...s.runArgs],
      { env: s.env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('sandbox danger-full-access · approvals none');
    expect(result.stderr).toMatch(/⚠ sandbox danger-full-access: .*anything your user can/);
    expect(result.stderr).toMatch(/⚠ approvals none: codex never asks you/);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });
});
