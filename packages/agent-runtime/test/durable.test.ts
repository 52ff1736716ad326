import { rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  createAgentRuntime,
  isRuntimeError,
  openSqliteEventStore,
  type AgentRuntime,
  type EventEnvelope,
  type RuntimeError,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createDurableProvider, type DurableControls } from './durable-provider.js';
import { manualOptions } from './manual-provider.js';
import { expectGapless, history, onCleanup, tempDir, types } from './support.js';

/** Polls (bounded) until `probe` resolves true. */
async function until(probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the log');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function runtimeOn(
  path: string,
  durable: DurableControls,
  providerId = 'manual',
): Promise<AgentRuntime> {
  const runtime = await createAgentRuntime({
    providers: { [providerId]: () => durable.provider },
    config: { defaultProfile: 'm', profiles: { m: { provider: providerId } } },
    store: openSqliteEventStore({ path }),
    closeGraceMs: 2_000,
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  return runtime;
}

/** A session with one finished turn and one in flight, waiting on a question; then the process "dies". */
async function crashMidTurn(): Promise<{ path: string; sessionId: string; workspace: string }> {
  const path = join(tempDir(), 'events.db');
  const durable = createDurableProvider();
  const store = openSqliteEventStore({ path });
  const first = await createAgentRuntime(manualOptions(durable.provider, { store }));
  const workspace = tempDir();
  const session = await first.openSession({ workspace });
  const done = await session.submitTurn({ input: 'first' });
  durable.manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
  await done.done;
  await session.submitTurn({ input: 'second' });
  const run = durable.manual.sessions[0]!.runs[1]!;
  run.sink.emit({
    payload: {
      type: 'interaction.requested',
      providerRef: 'q1',
      request: { kind: 'question', prompt: 'which?', multiSelect: false },
    },
  });
  const durableTypes = async (): Promise<string[]> => types(await history(first, session.id));
  for (let i = 0; !(await durableTypes()).includes('interaction.requested'); i += 1) {
    if (i > 200) throw new Error('interaction.requested never became durable');
    await new Promise((r) => setTimeout(r, 5));
  }
  // the process "dies": the store is released without the runtime closing anything
  await store.close();
  return { path, sessionId: session.id, workspace };
}

async function refusal(work: Promise<unknown>): Promise<RuntimeError> {
  try {
    await work;
  } catch (error) {
    if (isRuntimeError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

function recorded(events: readonly EventEnvelope[]) {
  return events.flatMap((e) => (e.payload.type === 'session.recovery_recorded' ? [e.payload] : []));
}

describe('durable sessions (a provider that exports and resumes recovery records)', () => {
  it('records the provider session’s recovery record before the first turn, and again when a run changed it', async () => {
    const durable = createDurableProvider();
    const runtime = await runtimeOn(join(tempDir(), 'events.db'), durable);
    const session = await runtime.openSession({ workspace: tempDir() });
    const turn = await session.submitTurn({ input: 'hi' });
    const at = types(await history(runtime, session.id));
    expect(at.indexOf('session.recovery_recorded')).toBeGreaterThan(-1);
    expect(at.indexOf('session.recovery_recorded')).toBeLessThan(at.indexOf('turn.started'));
    durable.manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
    const record = (runs: number) => ({
      type: 'session.recovery_recorded',
      profile: 'm',
      record: expect.objectContaining({
        providerId: 'manual',
        opaque: { thread: 'thread-1', home: 'home-a', runs },
      }),
      // authenticated with the session and its workspace under the log's key file
      mac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    await until(async () => recorded(await history(runtime, session.id)).length === 2);
    expect(recorded(await history(runtime, session.id))).toEqual([record(0), record(1)]);
    // one more per run that changed it, none for the close
    const again = await session.submitTurn({ input: 'again' });
    durable.manual.sessions[0]!.runs[1]!.complete({ outcome: 'succeeded' });
    await again.done;
    await until(async () => recorded(await history(runtime, session.id)).length === 3);
    await session.close();
    expect(recorded(await history(runtime, session.id))).toHaveLength(3);
  });

  it('a record a run did not change is not logged again', async () => {
    const durable = createDurableProvider();
    durable.exportOverride = {
      providerId: 'manual',
      providerVersion: '0.0.1',
      wireVersion: '0.8',
      opaque: { thread: 'fixed' },
    };
    const runtime = await runtimeOn(join(tempDir(), 'events.db'), durable);
    const session = await runtime.openSession({ workspace: tempDir() });
    const turn = await session.submitTurn({ input: 'hi' });
    durable.manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    await turn.done;
    await session.close();
    expect(recorded(await history(runtime, session.id))).toHaveLength(1);
  });

  it('concurrent resumeSession calls share one attempt', async () => {
    const { path, sessionId } = await crashMidTurn();
    const durable = createDurableProvider();
    const second = await runtimeOn(path, durable);
    const [a, b] = await Promise.all([
      second.resumeSession(sessionId),
      second.resumeSession(sessionId),
    ]);
    expect(a).toBe(b);
    expect(durable.resumed).toHaveLength(1);
    expect(durable.manual.sessions).toHaveLength(1);
  });

  it.each([
    [
      'record_too_large',
      { providerId: 'manual', providerVersion: '1', wireVersion: '0.8', opaque: 'x'.repeat(5000) },
    ],
    ['record_invalid', { providerId: 'manual', opaque: {} }],
    [
      'record_secret',
      {
        providerId: 'manual',
        providerVersion: '1',
        wireVersion: '0.8',
        opaque: 'sk-test-secret-value',
      },
    ],
  ])('keeps no record the log must not hold (%s): a diagnostic says why', async (reason, value) => {
    process.env.RELVO_TEST_API_KEY = 'sk-test-secret-value';
    onCleanup(() => {
      delete process.env.RELVO_TEST_API_KEY;
    });
    const durable = createDurableProvider();
    durable.exportOverride = value;
    const runtime = await runtimeOn(join(tempDir(), 'events.db'), durable);
    const session = await runtime.openSession({ workspace: tempDir() });
    await session.submitTurn({ input: 'hi' });
    const events = await history(runtime, session.id);
    expect(recorded(events)).toEqual([]);
    const diagnostic = events.find((e) => e.payload.type === 'diagnostic');
    expect(diagnostic?.payload).toMatchObject({ detail: { reason } });
    expect(JSON.stringify(events)).not.toContain('sk-test-secret-value');
  });

  it('a crash mid-turn: the session stays open and resumable, the run fails with outcome unknown, its question is cancelled', async () => {
    const { path, sessionId } = await crashMidTurn();
    const second = await runtimeOn(path, createDurableProvider());
    expect(second.resumableSessionIds).toEqual([sessionId]);
    expect(second.recoveredSessionIds).toEqual([]);
    const events = await history(second, sessionId);
    expectGapless(events);
    expect(types(events).slice(-3)).toEqual([
      'interaction.settled',
      'run.finished',
      'turn.settled',
    ]);
    const [settled, finished, turn] = events.slice(-3).map((e) => e.payload);
    expect(settled).toMatchObject({ settlement: { outcome: 'cancelled' } });
    expect(finished).toMatchObject({
      termination: {
        outcome: 'failed',
        error: { details: { reason: 'outcome_unknown_after_crash' } },
      },
    });
    expect(turn).toMatchObject({ state: 'failed' });
    expect((await second.listSessions()).find((s) => s.sessionId === sessionId)?.state).toBe(
      'ready',
    );
  });

  it('resumeSession continues the recorded provider session; the next turn runs on it', async () => {
    const { path, sessionId } = await crashMidTurn();
    const durable = createDurableProvider();
    const second = await runtimeOn(path, durable);
    const before = (await history(second, sessionId)).length;
    const session = await second.resumeSession(sessionId);
    expect(await second.resumeSession(sessionId)).toBe(session);
    expect(durable.resumed).toEqual([
      expect.objectContaining({ opaque: { thread: 'thread-1', home: 'home-a', runs: 1 } }),
    ]);
    expect(durable.manual.sessions).toHaveLength(1);
    const turn = await session.submitTurn({ input: 'third' });
    durable.manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
    expect((await turn.done).turnState).toBe('completed');
    const events = await history(second, sessionId);
    expectGapless(events);
    expect(events.length).toBeGreaterThan(before);
    expect(durable.manual.sessions[0]!.runs[0]!.request.input).toEqual({
      parts: [{ type: 'text', text: 'third' }],
    });
    await session.close();
    expect(types(await history(second, sessionId)).at(-1)).toBe('session.closed');
    expect(await refusal(second.resumeSession(sessionId))).toMatchObject({
      reason: 'session_not_resumable',
    });
  });

  it('refuses, typed, a workspace that is gone, another home, another provider, an unknown session', async () => {
    const gone = await crashMidTurn();
    rmSync(gone.workspace, { recursive: true, force: true });
    const a = await runtimeOn(gone.path, createDurableProvider());
    expect(await refusal(a.resumeSession(gone.sessionId))).toMatchObject({
      reason: 'resume_workspace_mismatch',
      code: 'workspace_unavailable',
    });
    expect(await refusal(a.resumeSession('ses_unknown'))).toMatchObject({
      reason: 'unknown_session',
    });

    const home = await crashMidTurn();
    const durable = createDurableProvider('home-b');
    const b = await runtimeOn(home.path, durable);
    const refused = await refusal(b.resumeSession(home.sessionId));
    expect(refused).toMatchObject({ reason: 'resume_refused' });
    expect(refused.error.providerCode).toBe('recovery_home_mismatch');
    expect(durable.manual.sessions).toHaveLength(0);
    // refused, not failed: the session is still resumable once the home is right
    durable.home = 'home-a';
    expect((await b.resumeSession(home.sessionId)).state).toBe('ready');

    const other = await crashMidTurn();
    const c = await runtimeOn(other.path, createDurableProvider('home-a', 'other'), 'other');
    expect(await refusal(c.resumeSession(other.sessionId))).toMatchObject({
      reason: 'resume_provider_mismatch',
    });
  });
});
