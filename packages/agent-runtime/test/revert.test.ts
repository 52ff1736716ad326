/**
 * Revert through the runtime on the scripted provider: local and routed between two runtimes on
 * one SQLite file (ADR-0052). The request is recorded before the provider hears of it and the
 * outcome after, once, in the owner's log; a refusal comes back typed with nothing recorded as
 * reverted; a provider that does not declare revert is refused before anything is recorded.
 */
import { join } from 'node:path';
import {
  createScriptedProvider,
  type ScriptedController,
} from '@relvo-labs/agent-provider/testing';
import {
  createAgentRuntime,
  isRuntimeError,
  openSqliteEventStore,
  type AgentRuntime,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { onCleanup, tempDir } from './support.js';

const CONFIG = { defaultProfile: 's', profiles: { s: { provider: 'scripted' } } };

async function runtimeOn(
  path: string,
  supportsRevert = true,
): Promise<[AgentRuntime, ScriptedController]> {
  const { provider, controller } = createScriptedProvider({
    supportsRevert,
    supportsHistory: true,
  });
  const runtime = await createAgentRuntime({
    providers: { scripted: () => provider },
    config: CONFIG,
    store: openSqliteEventStore({ path, pollMs: 10 }),
    commandTimeoutMs: 10_000,
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  return [runtime, controller];
}

const types = async (runtime: AgentRuntime, id: string): Promise<string[]> =>
  (await runtime.readEvents(id)).map((e) => e.payload.type);

describe('revert through the runtime', () => {
  it('routed: B reverts a session A owns; A records the request and the outcome once', async () => {
    const path = join(tempDir(), 'log.db');
    const [a, scriptedA] = await runtimeOn(path);
    const [b] = await runtimeOn(path);
    const session = await a.openSession({ workspace: tempDir() });
    for (const input of ['one', 'two']) {
      const turn = await session.submitTurn({ input });
      scriptedA.drain();
      await turn.done;
    }
    await b.revert(session.id, { turns: 1 });
    const after = await types(a, session.id);
    expect(after.filter((t) => t === 'session.revert_requested')).toHaveLength(1);
    expect(after.filter((t) => t === 'session.reverted')).toHaveLength(1);
    expect(after.indexOf('session.reverted')).toBeGreaterThan(
      after.indexOf('session.revert_requested'),
    );
    // the provider's own history lost the turn
    const page = await session.history();
    expect(page.turns.map((t) => t.input?.parts[0])).toEqual([{ type: 'text', text: 'one' }]);
    // beyond the history: the provider's refusal, typed, crosses back; nothing more is reverted
    const beyond = await b.revert(session.id, { turns: 2 }).then(
      () => 'resolved',
      (e: unknown) => (isRuntimeError(e) ? [e.code, e.reason] : e),
    );
    expect(beyond).toEqual(['invalid_request', 'provider_rejected']);
    const last = await types(a, session.id);
    expect(last.filter((t) => t === 'session.reverted')).toHaveLength(1);
    // a malformed count is refused in the caller's process, before anything is routed
    const bad = await b.revert(session.id, { turns: 0 }).catch((e: unknown) => e);
    expect(isRuntimeError(bad) && bad.reason).toBe('command_invalid');
  });

  it('a provider without revert is refused capability_unsupported, with nothing recorded', async () => {
    const [runtime, scripted] = await runtimeOn(join(tempDir(), 'log.db'), false);
    const session = await runtime.openSession({ workspace: tempDir() });
    const turn = await session.submitTurn({ input: 'one' });
    scripted.drain();
    await turn.done;
    const refused = await session.revert({ turns: 1 }).catch((e: unknown) => e);
    expect(isRuntimeError(refused) && [refused.code, refused.reason]).toEqual([
      'capability_unsupported',
      'revert_unsupported',
    ]);
    expect(await types(runtime, session.id)).not.toContain('session.revert_requested');
  });
});
