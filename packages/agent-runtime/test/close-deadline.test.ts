import { createAgentRuntime, isRuntimeError } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';
import { createManualProvider } from './manual-provider.js';
import { onCleanup, settlesWithin, tempDir, until } from './support.js';

const CLOSE_GRACE_MS = 2_000;

async function setup() {
  const clock = new FakeClock();
  const manual = createManualProvider();
  const runtime = await createAgentRuntime({
    providers: { manual: () => manual.provider },
    config: { defaultProfile: 'm', profiles: { m: { provider: 'manual' } } },
    clock,
    closeGraceMs: CLOSE_GRACE_MS,
  });
  onCleanup(async () => {
    // a hung provider: each shutdown attempt ends at a deadline this clock has to pass
    const state = { over: false };
    const shut = runtime
      .shutdown()
      .catch(() => undefined)
      .finally(() => {
        state.over = true;
      });
    for (let i = 0; !state.over && i < 1000; i += 1) {
      clock.advance(CLOSE_GRACE_MS);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await shut;
  });
  const session = await runtime.openSession({ workspace: tempDir() });
  return { clock, manual, runtime, session };
}

const outcome = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => 'resolved',
    (error: unknown) => error,
  );

describe('close and shutdown are bounded', () => {
  it('a createSession that never settles: close ends at its deadline; the waiting submitTurn is refused', async () => {
    const { clock, manual, session } = await setup();
    manual.hangCreateSession = true;
    const submitted = outcome(session.submitTurn({ input: 'x' }));
    const closed = outcome(session.close());
    await until(() => clock.pending > 0, 'the close deadline');
    clock.advance(CLOSE_GRACE_MS);
    expect(await settlesWithin(closed, 'close')).toBe('resolved');
    const refused = await settlesWithin(submitted, 'submitTurn');
    expect(isRuntimeError(refused) && refused.reason).toBe('session_closed');
    expect(session.state).toBe('closed');
  });

  it('a dispose that never settles: close and shutdown reject dispose_failed (timedOut) at their deadline', async () => {
    const { clock, manual, runtime, session } = await setup();
    const turn = await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'the run');
    manual.hangDispose = true;
    const closed = outcome(session.close());
    await until(() => manual.sessions[0]?.disposeCalls === 1, 'dispose called');
    clock.advance(CLOSE_GRACE_MS);
    const refused = await settlesWithin(closed, 'close');
    expect(isRuntimeError(refused) && refused.reason).toBe('dispose_failed');
    expect(isRuntimeError(refused) && refused.error.details?.failures).toEqual([
      { phase: 'dispose', profile: 'm', code: 'provider_unavailable', timedOut: true },
    ]);
    expect(session.state).toBe('closing');
    expect((await turn.done).turnState).toBe('cancelled');
    const shut = outcome(runtime.shutdown());
    await until(() => clock.pending > 0, 'the shutdown deadline');
    clock.advance(CLOSE_GRACE_MS);
    const shutRefused = await settlesWithin(shut, 'shutdown');
    expect(isRuntimeError(shutRefused) && shutRefused.reason).toBe('dispose_failed');
    // the hung dispose is awaited again, never called a second time
    expect(manual.sessions[0]?.disposeCalls).toBe(1);
  });
});
