import { isRuntimeError, type AgentRuntime, type EventEnvelope } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createDurableProvider, type DurableControls } from './durable-provider.js';
import { history, manualRuntime, runtimeOnManual, tempDir, until } from './support.js';

const runtimeWith = (durable: DurableControls): Promise<AgentRuntime> =>
  runtimeOnManual(durable.provider, { closeGraceMs: 2_000 });

function opaqueRecords(events: readonly EventEnvelope[]): unknown[] {
  return events.flatMap((e) =>
    e.payload.type === 'session.recovery_recorded' ? [e.payload.record.opaque] : [],
  );
}

const reasonOf = (e: unknown): unknown => (isRuntimeError(e) ? e.reason : e);

/** One finished turn: the provider session exists and its record is logged. */
async function oneTurn(
  durable: DurableControls,
  session: Awaited<ReturnType<AgentRuntime['openSession']>>,
): Promise<void> {
  const turn = await session.submitTurn({ input: 'first' });
  durable.manual.sessions.at(-1)!.runs.at(-1)!.complete({ outcome: 'succeeded' });
  await turn.done;
}

/** A runtime on `durable` with a source session that had one finished turn. */
async function sourceWithOneTurn(durable = createDurableProvider()) {
  const runtime = await runtimeWith(durable);
  const source = await runtime.openSession({ workspace: tempDir() });
  await oneTurn(durable, source);
  return { durable, runtime, source };
}

describe('runtime.forkSession (ADR-0041)', () => {
  it('a new session with its own log forks the source’s latest record; the source is unchanged', async () => {
    const { durable, runtime, source } = await sourceWithOneTurn();
    const fork = await runtime.forkSession(source.id);
    expect(fork.id).not.toBe(source.id);
    expect(runtime.session(fork.id)).toBe(fork);
    // the record after the source's turn, even though its refresh had not been logged yet
    expect(durable.forked.map((r) => r.opaque)).toEqual([
      { thread: 'thread-1', home: 'home-a', runs: 1 },
    ]);
    const forkEvents = await history(runtime, fork.id);
    expect(forkEvents[0]?.payload).toMatchObject({
      type: 'session.opened',
      defaultProfile: 'm',
      forkedFrom: source.id,
    });
    expect(opaqueRecords(forkEvents)).toEqual([{ thread: 'thread-2', home: 'home-a', runs: 0 }]);
    // the fork's turn runs on the forked provider session, the source keeps its own
    const inFork = await fork.submitTurn({ input: 'in the fork' });
    expect(durable.manual.sessions).toHaveLength(2);
    durable.manual.sessions[1]!.runs[0]!.complete({ outcome: 'succeeded' });
    await inFork.done;
    expect(durable.manual.sessions[0]!.runs).toHaveLength(1);
    const sourceEvents = await history(runtime, source.id);
    expect(
      sourceEvents.some((e) => e.payload.type === 'turn.started' && e.sessionId === fork.id),
    ).toBe(false);
    expect(opaqueRecords(sourceEvents).at(-1)).toEqual({
      thread: 'thread-1',
      home: 'home-a',
      runs: 1,
    });
  });

  it('a closed source forks from its stored record', async () => {
    const { durable, runtime, source } = await sourceWithOneTurn();
    await source.close();
    const fork = await runtime.forkSession(source.id);
    expect(fork.state).toBe('ready');
    expect(durable.forked.map((r) => (r.opaque as { runs: number }).runs)).toEqual([1]);
  });

  it('refused, typed: a turn in flight, an unknown session, no record, a provider that does not fork', async () => {
    const durable = createDurableProvider();
    const runtime = await runtimeWith(durable);
    const source = await runtime.openSession({ workspace: tempDir() });
    await source.submitTurn({ input: 'running' });
    await until(() => durable.manual.sessions[0]?.runs.length === 1, 'run');
    expect(reasonOf(await runtime.forkSession(source.id).catch((e: unknown) => e))).toBe(
      'session_busy',
    );
    expect(reasonOf(await runtime.forkSession('ses_nope').catch((e: unknown) => e))).toBe(
      'unknown_session',
    );
    const { runtime: plain, session } = await manualRuntime();
    expect(reasonOf(await plain.forkSession(session.id).catch((e: unknown) => e))).toBe(
      'session_not_forkable',
    );
    const noFork = createDurableProvider('home-a', 'manual', false);
    const { runtime: other, source: kept } = await sourceWithOneTurn(noFork);
    expect(reasonOf(await other.forkSession(kept.id).catch((e: unknown) => e))).toBe(
      'fork_unsupported',
    );
    expect(durable.forked).toEqual([]);
  });

  it('a provider’s refusal is fork_refused with its code; the fork is closed', async () => {
    const { durable, runtime, source } = await sourceWithOneTurn();
    // closed: the stored record (home-a) is what is forked
    await source.close();
    durable.home = 'home-b';
    const refused = await runtime.forkSession(source.id).catch((e: unknown) => e);
    expect(isRuntimeError(refused) && [refused.reason, refused.error.providerCode]).toEqual([
      'fork_refused',
      'recovery_home_mismatch',
    ]);
    const sessions = await runtime.listSessions();
    expect(sessions.filter((s) => s.sessionId !== source.id).map((s) => s.state)).toEqual([
      'closed',
    ]);
  });
});
