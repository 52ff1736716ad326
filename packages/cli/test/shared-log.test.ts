/**
 * Two `relvo-codex run` on one event log at once (ADR-0053): both work, and `sessions` and `log`
 * read the log while both are running. The scripted model holds both turns at their first
 * delta until the test lets them go, so "both running" is a state, not a race.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventEnvelopeSchema, type EventEnvelope } from '@relvo-labs/agent-runtime';
import { textStep } from '@relvo-labs/agent-provider-codex/testing';
import { cliEnv, runCli, startCli, survivorsAfter, until } from './support/cli.js';
import { heldModel, scriptedRunSetup } from './support/scripted-config.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function envelopes(stdout: string): EventEnvelope[] {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => eventEnvelopeSchema.parse(JSON.parse(l)));
}

describe('two runs on one event log', { timeout: 120_000 }, () => {
  it('both run at once and complete; sessions lists both live and log reads one while they run', async () => {
    const { env } = cliEnv();
    const model = heldModel();
    cleanups.push(() => {
      model.release();
    });
    const s = await scriptedRunSetup(env, {}, [], { sleep: model.sleep });
    cleanups.push(() => s.cleanup());
    s.server.enqueue(
      textStep(['one ', 'done.'], { delayMs: 1 }),
      textStep(['two ', 'done.'], { delayMs: 1 }),
    );
    const a = startCli(['run', 'first', ...s.runArgs, '--json'], { env, timeoutMs: 100_000 });
    const b = startCli(['run', 'second', ...s.runArgs, '--json'], { env, timeoutMs: 100_000 });
    // both turns reached the model and wait at their first delta
    const exits: string[] = [];
    for (const [name, cli] of [
      ['first', a],
      ['second', b],
    ] as const) {
      void cli.result.then(
        (r) => exits.push(`${name} exited ${String(r.code)}`),
        () => exits.push(`${name} failed`),
      );
    }
    await until(() => model.held() === 2, 'both turns at the model', 90_000).catch(
      async (err: unknown) => {
        // seen once in CI: say where each run was
        const asked = (await s.server.readRequests()).length;
        const tail = (text: string): string => text.slice(-600);
        throw new Error(
          `${String(model.held())} held, ${String(asked)} model requests; ${exits.join(', ') || 'both running'}; first stderr: ${tail(a.stderr())}; second stderr: ${tail(b.stderr())}`,
          { cause: err },
        );
      },
    );
    const ids = [a, b].map((cli) => envelopes(cli.stdout())[0]?.sessionId ?? '');
    expect(new Set(ids).size).toBe(2);

    const listed = await runCli(['sessions', '--json', '--event-log', s.eventLog], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { sessionId: string; state: string });
    expect(rows.map((r) => r.sessionId).sort()).toEqual([...ids].sort());
    // live, not "process ended": each run holds its session's lease
    for (const r of rows) expect(r.state).toBe('ready');
    const logged = await runCli(['log', ids[0] ?? '', '--json', '--event-log', s.eventLog], {
      env,
    });
    expect(logged.code, logged.stderr).toBe(0);
    const read = envelopes(logged.stdout);
    expect(read.map((e) => e.sequence)).toEqual(read.map((_, i) => i + 1));
    expect(read.some((e) => e.payload.type === 'turn.started')).toBe(true);

    model.release();
    const results = await Promise.all([a.result, b.result]);
    const texts = results.map((r) => {
      expect(r.code, r.stderr).toBe(0);
      return envelopes(r.stdout)
        .flatMap((e) => (e.payload.type === 'run.message_delta' ? [e.payload.text] : []))
        .join('');
    });
    expect(texts.sort()).toEqual(['one done.', 'two done.']);
    expect(await survivorsAfter(a.mark)).toEqual([]);
    expect(await survivorsAfter(b.mark)).toEqual([]);
  });
});
