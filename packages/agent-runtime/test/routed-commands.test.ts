/**
 * Session-addressed commands between two runtimes on one SQLite file (ADR-0052), through the
 * public API only: runtime B answers, steers, interrupts, starts a turn in and closes a session
 * runtime A owns; each is carried out by A and recorded in A's log once; refusals come back
 * typed; B reads A's pending interactions and who owns what. Several processes are the
 * chaos test's part (commands-chaos.test.ts); here both stores live in one process.
 */
import { join } from 'node:path';
import {
  createAgentRuntime,
  openSqliteEventStore,
  type AgentRuntime,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createManualProvider, type ManualProviderControls } from './manual-provider.js';
import { onCleanup, tempDir, until } from './support.js';
import { raiseApproval } from './approval.js';

const CONFIG = { defaultProfile: 'm', profiles: { m: { provider: 'manual' } } };

async function runtimeOn(path: string): Promise<[AgentRuntime, ManualProviderControls]> {
  const manual = createManualProvider();
  const runtime = await createAgentRuntime({
    providers: { manual: () => manual.provider },
    config: CONFIG,
    store: openSqliteEventStore({ path, pollMs: 10 }),
    commandTimeoutMs: 10_000,
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  return [runtime, manual];
}

async function reasonOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => 'resolved',
    (e: unknown) => (e as { reason?: unknown }).reason ?? e,
  );
}

async function typesOf(runtime: AgentRuntime, sessionId: string): Promise<string[]> {
  return (await runtime.readEvents(sessionId)).map((e) => e.payload.type);
}

describe('session-addressed commands between two runtimes on one SQLite file', () => {
  it('B answers, steers, interrupts, starts a turn in and closes a session A owns; A carries each out once', async () => {
    const path = join(tempDir(), 'log.db');
    const [a, manualA] = await runtimeOn(path);
    const [b, manualB] = await runtimeOn(path);
    const session = await a.openSession({ workspace: tempDir() });
    await session.submitTurn({ input: 'ask me' });
    await until(() => manualA.sessions[0]?.runs[0] !== undefined, 'the first run');
    const run = manualA.sessions[0]!.runs[0]!;
    raiseApproval(run.sink);
    await until(() => session.pendingInteractions().length === 1, 'the approval');
    const interactionId = session.pendingInteractions()[0]!.interactionId;

    // B sees it in the log, and who owns the session
    for (const deadline = Date.now() + 10_000; ;) {
      if ((await b.pendingInteractions(session.id)).length === 1) break;
      if (Date.now() > deadline) throw new Error('B never saw the approval');
      await new Promise((r) => setTimeout(r, 5));
    }
    expect((await b.sessionOwners()).get(session.id)).toBe('elsewhere');
    expect((await a.sessionOwners()).get(session.id)).toBe('this_runtime');

    const approve = { kind: 'approval', decision: 'approved', mode: 'once' } as const;
    await b.respond(session.id, interactionId, approve);
    expect(manualA.sessions[0]!.responses.map((r) => r.response)).toEqual([approve]);
    // the same answer again is the one already given (nothing is delivered twice); another
    // answer is refused by the owner, typed
    await b.respond(session.id, interactionId, approve);
    const deny = { kind: 'approval', decision: 'denied' } as const;
    expect(await reasonOf(b.respond(session.id, interactionId, deny))).toBe('interaction_settled');
    expect(manualA.sessions[0]!.responses).toHaveLength(1);

    await b.steer(session.id, 'and also this');
    expect(run.steers).toHaveLength(1);
    await b.interrupt(session.id, 'enough');
    expect(run.interrupts).toEqual(['enough']);
    await until(() => session.activeRunId === undefined, 'the interrupted run');

    const turn = await b.submitTurn(session.id, { input: 'next' });
    expect(turn.profile).toBe('m');
    await until(() => manualA.sessions[0]!.runs.length === 2, 'the routed turn');
    expect(manualA.sessions[0]!.runs[1]!.request.input).toMatchObject({
      parts: [{ type: 'text', text: 'next' }],
    });
    manualA.sessions[0]!.runs[1]!.complete({ outcome: 'succeeded' });

    await b.closeSession(session.id);
    expect(await reasonOf(b.respond(session.id, interactionId, approve))).toBe('session_closed');
    const types = await typesOf(b, session.id);
    expect(types.filter((t) => t === 'interaction.answered')).toHaveLength(1);
    expect(types.filter((t) => t === 'run.steered')).toHaveLength(1);
    expect(types.filter((t) => t === 'turn.started')).toHaveLength(2);
    expect(types.at(-1)).toBe('session.closed');
    // nothing ran in B
    expect(manualB.sessions).toEqual([]);
  });

  it('an unknown session is refused at once and records nothing', async () => {
    const path = join(tempDir(), 'log.db');
    const [b] = await runtimeOn(path);
    expect(await reasonOf(b.steer('ses_missing', 'x'))).toBe('unknown_session');
    expect(await reasonOf(b.pendingInteractions('ses_missing'))).toBe('unknown_session');
    expect(await b.store.commands?.unsettled('ses_missing', 5)).toEqual([]);
  });

  it('a malformed command is refused in the caller, typed, before anything is recorded', async () => {
    const path = join(tempDir(), 'log.db');
    const [b] = await runtimeOn(path);
    const bad = { kind: 'approval', decision: 'maybe' } as never;
    expect(await reasonOf(b.respond('ses_any', 'int_1', bad))).toBe('command_invalid');
  });
});
