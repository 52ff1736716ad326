/**
 * Commands through the log on PostgreSQL, runtime against runtime: three runtimes on one schema
 * in this process; a session-addressed command issued on a runtime that does not own the session
 * reaches its owner through the command table, is carried out there and settled once, and the
 * caller's promise resolves (or rejects, typed) with that settlement.
 */
import type { InteractionRequest } from '@relvo-labs/agent-provider';
import type { AgentRuntime } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createManualProvider } from './manual-provider.js';
import { usePgCluster } from './pg-suite.js';
import { fleet, routedRefusal, type CommandRow } from './pg-fleet.js';
import { history, tempDir, types } from './support.js';

const server = usePgCluster();

const approval: InteractionRequest = {
  kind: 'approval',
  subject: { category: 'command', summary: 'run ls' },
  allowedModes: ['once'],
  riskHint: 'medium',
};

const refusal = (p: Promise<unknown>) => routedRefusal(p, 15_000);

function outcomes(rows: readonly CommandRow[]): string[] {
  return rows.map((r) => {
    const s = JSON.parse(r.settlement ?? '{}') as { outcome?: string };
    return `${r.state}:${s.outcome ?? '-'}`;
  });
}

describe.skipIf(server.skip !== undefined)('PostgreSQL: commands routed to the owner', () => {
  it("respond, steer, interrupt, submitTurn and closeSession issued on B and C are carried out by A and resolve with A's settlement", async () => {
    const f = fleet(() => server.cluster(), 'route_kinds');
    const ownerProvider = createManualProvider();
    const a = await f.member({ provider: ownerProvider.provider });
    const b = await f.member({ provider: createManualProvider().provider });
    const c = await f.member({ provider: createManualProvider().provider });
    const session = await a.runtime.openSession({ workspace: tempDir() });
    const id = session.id;
    expect((await b.runtime.sessionOwners()).get(id)).toBe('elsewhere');
    expect((await a.runtime.sessionOwners()).get(id)).toBe('this_runtime');

    const turn = await b.runtime.submitTurn(id, { input: 'from B' });
    const run = ownerProvider.sessions[0]?.runs[0];
    expect(run?.request.input).toEqual({ parts: [{ type: 'text', text: 'from B' }] });
    expect(turn).toMatchObject({ profile: 'm', providerId: 'manual' });
    const started = (await history(c.runtime, id)).find((e) => e.payload.type === 'run.started');
    expect(started?.payload).toMatchObject({ turnId: turn.turnId });
    expect(started?.runId).toBe(turn.runId);

    // a NUL inside a string travels as it does locally (JSON text, never jsonb)
    await c.runtime.steer(id, 'from C\u0000with a NUL');
    expect(run?.steers).toEqual([{ parts: [{ type: 'text', text: 'from C\u0000with a NUL' }] }]);

    run?.sink.emit({
      payload: { type: 'interaction.requested', providerRef: 'p1', request: approval },
    });
    let pending: Awaited<ReturnType<AgentRuntime['pendingInteractions']>> = [];
    for (const deadline = Date.now() + 10_000; pending.length === 0;) {
      if (Date.now() > deadline) throw new Error('the interaction did not reach the log');
      pending = await b.runtime.pendingInteractions(id);
    }
    const response = { kind: 'approval', decision: 'approved', mode: 'once' } as const;
    await b.runtime.respond(id, pending[0]!.interactionId, response);
    expect(ownerProvider.sessions[0]?.responses).toEqual([{ ref: 'p1', response }]);
    expect(await b.runtime.pendingInteractions(id)).toEqual([]);

    await c.runtime.interrupt(id, 'stop from C');
    expect(run?.interrupts).toEqual(['stop from C']);

    await b.runtime.closeSession(id);
    expect(a.runtime.session(id)).toBeUndefined();
    expect(types(await history(b.runtime, id)).at(-1)).toBe('session.closed');

    // each once, by the owner, settled done
    const rows = await f.commands();
    expect(outcomes(rows)).toEqual(Array(5).fill('settled:done'));
    expect(rows.map((r) => r.accepted_by)).toEqual(Array(5).fill(a.table.owner));
    expect(rows.map((r) => r.issued_by)).toEqual([b, c, b, c, b].map((m) => m.table.owner));
    expect((await b.runtime.sessionOwners()).has(id)).toBe(false);
  });

  it('an unknown or closed session is refused typed on the caller; nothing is recorded for it', async () => {
    const f = fleet(() => server.cluster(), 'route_unknown');
    const a = await f.member({ provider: createManualProvider().provider });
    const b = await f.member({ provider: createManualProvider().provider });
    expect(await refusal(b.runtime.interrupt('ses_nope'))).toEqual([
      'unknown_session',
      'unknown_session',
      undefined,
    ]);
    const session = await a.runtime.openSession({ workspace: tempDir() });
    await session.close();
    for (const call of [
      () => b.runtime.steer(session.id, 'x'),
      () => b.runtime.closeSession(session.id),
      () => b.runtime.submitTurn(session.id, { input: 'x' }),
    ])
      expect(await refusal(call())).toEqual(['session_closed', 'session_closed', undefined]);
    expect(await f.commands()).toEqual([]);
  });

  it("the owner's refusal comes back typed, as the owner would have thrown it locally", async () => {
    const f = fleet(() => server.cluster(), 'route_refused');
    const a = await f.member({ provider: createManualProvider().provider });
    const b = await f.member({ provider: createManualProvider().provider });
    const session = await a.runtime.openSession({ workspace: tempDir() });
    const id = session.id;
    const calls: [string, (r: AgentRuntime) => Promise<unknown>][] = [
      ['steer without a run', (r) => r.steer(id, 'x')],
      [
        'an unknown interaction',
        (r) => r.respond(id, 'int_none', { kind: 'question', answer: 'x' }),
      ],
      ['an unknown profile', (r) => r.submitTurn(id, { input: 'x', profile: 'nope' })],
    ];
    for (const [label, call] of calls) {
      const local = await refusal(call(a.runtime));
      const routed = await refusal(call(b.runtime));
      expect(local, label).not.toBe('resolved');
      expect(routed, label).toEqual([...(local as unknown[]).slice(0, 2), true]);
    }
    // a body the caller's own schema refuses never reaches the table
    expect(await refusal(b.runtime.steer(id, { items: [{ type: 'bogus' }] } as never))).toEqual([
      'invalid_request',
      'command_invalid',
      undefined,
    ]);
    const rows = await f.commands();
    expect(outcomes(rows)).toEqual(Array(3).fill('settled:refused'));
  });
});

if (server.skip !== undefined) {
  describe('PostgreSQL: commands routed to the owner', () => {
    it.skip(`skipped: ${server.skip}`, () => undefined);
  });
}
