/**
 * `relvo-codex run` without credentials: a host config profile points the real codex at the
 * scripted model, as a person would point it at their own provider.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { eventEnvelopeSchema } from '@relvo-labs/agent-runtime';
import { execCommandStep, scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliEnv, runCli, startCli, survivorsAfter, until } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(providerOptions: Record<string, unknown> = {}) {
  const { env, mark } = cliEnv();
  const s = await scriptedRunSetup(env, providerOptions);
  cleanups.push(() => s.cleanup());
  return { ...s, env, mark };
}

describe('relvo-codex run (real codex, scripted model via a host config profile)', () => {
  it('--json: one envelope per line, gapless, the text and usage of the turn; the SQLite log is written; exit 0', async () => {
    const s = await setup();
    s.server.enqueue(textStep(['Hello ', 'from run.'], { usage: scriptedUsage(40, 3, 0, 0) }));
    const result = await runCli(['run', 'say hello', ...s.runArgs, '--json'], { env: s.env });
    expect(result.code).toBe(0);
    const envelopes = result.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => eventEnvelopeSchema.parse(JSON.parse(l)));
    expect(envelopes.map((e) => e.sequence)).toEqual(envelopes.map((_, i) => i + 1));
    const text = envelopes
      .flatMap((e) => (e.payload.type === 'run.message_delta' ? [e.payload.text] : []))
      .join('');
    expect(text).toBe('Hello from run.');
    expect(envelopes.find((e) => e.payload.type === 'turn.started')?.payload).toMatchObject({
      profile: 'scripted',
      providerId: 'codex',
    });
    expect(existsSync(s.eventLog)).toBe(true);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('no terminal: an approval is denied and said so; the command does not run; exit 0', async () => {
    const s = await setup();
    s.server.enqueue(
      execCommandStep('touch should-not-exist', { callId: 'call_r', escalate: true }),
      textStep('ok', { usage: scriptedUsage(5, 1, 0, 0) }),
    );
    const result = await runCli(['run', 'touch it', ...s.runArgs], { env: s.env });
    expect(result.stderr).toContain('no terminal to ask in');
    expect(result.stderr).toContain('denied');
    // run has no --yes: the hint must not send a person to a flag it does not take
    expect(result.stderr).not.toContain('--yes');
    expect(existsSync(`${s.iso.workspace}/should-not-exist`)).toBe(false);
    expect(result.code).toBe(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('a failing turn (HTTP 500 upstream) exits 1 and says why without upstream prose', async () => {
    const s = await setup();
    s.server.enqueue({
      kind: 'httpError',
      status: 500,
      body: { error: { message: 'sk-CANARYCANARY0123456789' } },
      headers: {},
    });
    const result = await runCli(['run', 'fail', ...s.runArgs], { env: s.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/turn\s+failed: provider_unavailable/);
    expect(result.stderr + result.stdout).not.toContain('CANARY');
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it('provider options the codex provider refuses: exit 2 naming the profile, before any turn', async () => {
    const s = await setup({ bogus: true });
    // --verbose adds the reason token the plain message leaves out
    const result = await runCli(['run', 'hi', '--verbose', ...s.runArgs], { env: s.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('scripted');
    expect(result.stderr).toContain('provider_options_refused');
    expect(s.server.requests).toHaveLength(0);
    expect(await survivorsAfter(result.mark)).toEqual([]);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s during a slow turn disposes the session and exits %i; nothing is left',
    async (signal, code) => {
      const s = await setup();
      s.server.enqueue(
        textStep(
          Array.from({ length: 300 }, (_, i) => `t${i} `),
          { delayMs: 200 },
        ),
      );
      const cli = startCli(['run', 'slow', ...s.runArgs], { env: s.env });
      await until(() => cli.stdout().includes('t2 '), 'streamed text', 60_000);
      process.kill(cli.pid, signal);
      const result = await cli.result;
      expect(result.code).toBe(code);
      expect(result.stderr).toContain('quitting: disposing the session');
      expect(await survivorsAfter(result.mark)).toEqual([]);
    },
  );
});
