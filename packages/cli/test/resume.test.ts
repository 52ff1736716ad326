/**
 * Durable sessions on the real binary: a `run` killed with SIGKILL mid-turn (the scripted model
 * holds its answer open) leaves a resumable session; `run --resume` continues it on the same
 * codex thread, so the model's next request carries the earlier turn. No codex is left behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventEnvelopeSchema, type EventEnvelope } from '@relvo-labs/agent-runtime';
import { scriptedUsage, textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliEnv, runCli, startCli, survivorsAfter, until } from './support/cli.js';
import { scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function envelopes(stdout: string): EventEnvelope[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => eventEnvelopeSchema.parse(JSON.parse(l)));
}

describe('relvo-codex run --resume (real codex, scripted model)', () => {
  it('kill -9 mid-turn, then --resume: the next model request carries the earlier turn; nothing left running', async () => {
    const { env, mark } = cliEnv();
    const s = await scriptedRunSetup(env);
    cleanups.push(() => s.cleanup());
    const word = `PINEAPPLE-${Date.now()}`;
    // the first answer stalls after one delta: the turn is in flight when the CLI dies
    s.server.enqueue(textStep(['Noted ', 'it.'], { stallAfterDeltas: 1 }));
    const first = startCli(['run', `remember ${word}`, ...s.runArgs, '--json'], {
      env,
      timeoutMs: 90_000,
    });
    await until(
      () => envelopes(first.stdout()).some((e) => e.payload.type === 'run.message_delta'),
      'the first turn to stream',
      60_000,
    );
    const sessionId = envelopes(first.stdout())[0]?.sessionId ?? '';
    process.kill(first.pid, 'SIGKILL');
    const killed = await first.result;
    expect(killed.signal).toBe('SIGKILL');
    expect(await survivorsAfter(mark)).toEqual([]);

    const listed = await runCli(['sessions', '--event-log', s.eventLog, '--json'], { env });
    expect(listed.code).toBe(0);
    const listing = listed.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { sessionId: string; resumable: boolean });
    expect(listing).toEqual([expect.objectContaining({ sessionId, resumable: true })]);
    const table = await runCli(['sessions', '--event-log', s.eventLog], { env });
    // the table shows the short id (ses_ and eight hex digits)
    const row = table.stdout.split('\n').find((l) => l.startsWith(sessionId.slice(0, 12))) ?? '';
    expect(row.split(/\s{2,}/).at(-1)).toBe('yes');
    expect(table.stderr).toContain('run --resume <session>');

    s.server.enqueue(textStep(['You said ', word], { usage: scriptedUsage(60, 4, 0, 0) }));
    const resumed = await runCli(
      [
        'run',
        '--resume',
        sessionId.slice(0, 12),
        'what did I say?',
        '--config',
        s.configFile,
        '--event-log',
        s.eventLog,
        '--json',
      ],
      { env, timeoutMs: 90_000 },
    );
    expect(resumed.stderr).not.toContain('cannot be resumed');
    expect(resumed.code).toBe(0);
    const after = envelopes(resumed.stdout);
    expect(after.every((e) => e.sessionId === sessionId)).toBe(true);
    // the resumed run prints only what is new, continuing the session's sequence
    expect(after[0]?.sequence).toBeGreaterThan(1);
    expect(after.map((e) => e.sequence)).toEqual(
      after.map((_, i) => (after[0]?.sequence ?? 0) + i),
    );
    const text = after
      .flatMap((e) => (e.payload.type === 'run.message_delta' ? [e.payload.text] : []))
      .join('');
    expect(text).toBe(`You said ${word}`);
    // the model's request of the resumed turn holds the earlier user text, then the new one
    const body = JSON.stringify(s.server.requests.at(-1)?.body);
    const earlier = body.indexOf(`remember ${word}`);
    expect(earlier).toBeGreaterThan(-1);
    expect(body.indexOf('what did I say?')).toBeGreaterThan(earlier);
    expect(await survivorsAfter(resumed.mark)).toEqual([]);
    expect(await survivorsAfter(mark)).toEqual([]);

    // the log says how the killed run ended: failed, its outcome unknown
    const log = await runCli(['log', sessionId, '--event-log', s.eventLog, '--json'], { env });
    const finished = envelopes(log.stdout).filter((e) => e.payload.type === 'run.finished');
    expect(finished.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        termination: expect.objectContaining({
          outcome: 'failed',
          error: expect.objectContaining({
            details: expect.objectContaining({ reason: 'outcome_unknown_after_crash' }),
          }),
        }),
      }),
      expect.objectContaining({ termination: expect.objectContaining({ outcome: 'succeeded' }) }),
    ]);
  }, 240_000);
});
