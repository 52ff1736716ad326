/**
 * Routed commands when the owner is gone, on PostgreSQL: the owner dies with commands queued
 * (one caller takes the session over once its lease lapsed and carries each out, once); the
 * owner dies after accepting a command (the taker-over settles it `command_outcome_unknown`,
 * never carries it out again); the owner lives but never settles (the command is withdrawn at
 * `commandTimeoutMs` on the caller's clock and the call is refused `session_unowned`).
 */
import type { AgentProvider, ProviderSession } from '@relvo-labs/agent-provider';
import { openPostgresEventStore } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createDurableProvider, type DurableControls } from './durable-provider.js';
import { FakeClock } from './fake-clock.js';
import { untilLeaseLapsed } from './pg-cluster.js';
import { usePgCluster } from './pg-suite.js';
import { fleet, routedRefusal, type CommandRow, type Fleet } from './pg-fleet.js';
import {
  expectGapless,
  history,
  onCleanup,
  settlesWithin,
  tempDir,
  types,
  until,
} from './support.js';

const server = usePgCluster();

const refusal = (p: Promise<unknown>) => routedRefusal(p, 20_000);

/** Bounded: until the command table holds rows matching `predicate`. */
async function untilRows(f: Fleet, predicate: (rows: CommandRow[]) => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; !predicate(await f.commands());) {
    if (Date.now() > deadline) throw new Error('the command table did not reach the state');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function settlementOf(row: CommandRow | undefined): unknown {
  return JSON.parse(row?.settlement ?? 'null');
}

/**
 * The durable provider, whose answers to interactions hang once `hold` is set, until the
 * provider session is disposed (then they fail, as a real provider's would).
 */
function holding(durable: DurableControls): { provider: AgentProvider; hold(): void } {
  let held = false;
  const wrap = async (opening: Promise<ProviderSession>): Promise<ProviderSession> => {
    const session = await opening;
    const respond = session.respondToInteraction.bind(session);
    const dispose = session.dispose.bind(session);
    let disposed: (error: Error) => void = () => undefined;
    const hung = new Promise<never>((_resolve, reject) => {
      disposed = reject;
    });
    hung.catch(() => undefined);
    return {
      ...session,
      respondToInteraction: (ref, response) => (held ? hung : respond(ref, response)),
      dispose: () => {
        disposed(new Error('disposed'));
        return dispose();
      },
    };
  };
  const inner = durable.provider;
  return {
    provider: {
      ...inner,
      createSession: (init) => wrap(inner.createSession(init)),
    },
    hold() {
      held = true;
    },
  };
}

/** An owner with an idle session whose provider recorded how to resume it. */
async function ownedSession(f: Fleet, provider: AgentProvider, leaseMs: number) {
  const owner = await f.member({ provider, leaseMs });
  const session = await owner.runtime.openSession({ workspace: tempDir() });
  return { owner, session };
}

/**
 * An owner whose session waits for an answer to a question, on a provider whose answers hang
 * once `hold` is called; returns the question's interaction id too.
 */
async function askingOwner(f: Fleet, leaseMs: number) {
  const first = createDurableProvider();
  const held = holding(first);
  const { owner, session } = await ownedSession(f, held.provider, leaseMs);
  await session.submitTurn({ input: 'ask' });
  first.manual.sessions[0]!.runs[0]!.sink.emit({
    payload: {
      type: 'interaction.requested',
      providerRef: 'p1',
      request: { kind: 'question', prompt: 'which?', multiSelect: false },
    },
  });
  await until(() => session.pendingInteractions().length === 1, 'the interaction');
  const interactionId = session.pendingInteractions()[0]!.interactionId;
  return {
    owner,
    session,
    interactionId,
    hold: () => {
      held.hold();
    },
  };
}

describe.skipIf(server.skip !== undefined)(
  'PostgreSQL: routed commands when the owner is gone',
  () => {
    it('the owner dies with commands queued from two runtimes: one takes the session over, each command is carried out and settled once', async () => {
      const f = fleet(() => server.cluster(), 'owner_queued');
      const first = createDurableProvider();
      const { owner, session } = await ownedSession(f, first.provider, 1_500);
      const warmup = await session.submitTurn({ input: 'warm up' });
      first.manual.sessions[0]!.runs[0]!.complete({ outcome: 'succeeded' });
      await warmup.done;
      const bProvider = createDurableProvider();
      const cProvider = createDurableProvider();
      const b = await f.member({ provider: bProvider.provider, leaseMs: 1_500 });
      const c = await f.member({ provider: cProvider.provider, leaseMs: 1_500 });

      owner.kill();
      const turn = b.runtime.submitTurn(session.id, { input: 'after the owner died' });
      await untilRows(f, (rows) => rows.length === 1);
      const close = c.runtime.closeSession(session.id);
      await untilRows(f, (rows) => rows.length === 2);

      expect(await settlesWithin(turn, 'the routed turn', 20_000)).toMatchObject({
        providerId: 'manual',
      });
      await settlesWithin(close, 'the routed close', 20_000);
      const rows = await f.commands();
      const taker = bProvider.resumed.length === 1 ? b : c;
      expect(bProvider.resumed.length + cProvider.resumed.length).toBe(1);
      // both were queued while the dead owner's lease was live, and carried out by the taker
      expect(rows.map((r) => [r.issued_by, r.state, r.accepted_by])).toEqual([
        [b.table.owner, 'settled', taker.table.owner],
        [c.table.owner, 'settled', taker.table.owner],
      ]);
      expect(rows.map(settlementOf)).toEqual([
        expect.objectContaining({ outcome: 'done' }),
        { outcome: 'done' },
      ]);
      const events = await history(b.runtime, session.id);
      expectGapless(events);
      expect(types(events).filter((t) => t === 'turn.started')).toHaveLength(2);
      expect(types(events).filter((t) => t === 'session.closed')).toHaveLength(1);
      expect(types(events).at(-1)).toBe('session.closed');
    });

    it('the owner dies after accepting a command: the taker-over settles it command_outcome_unknown, never carries it out again', async () => {
      const f = fleet(() => server.cluster(), 'owner_orphan');
      const { owner, session, interactionId, hold } = await askingOwner(f, 1_000);
      const taker = createDurableProvider();
      const b = await f.member({ provider: taker.provider, leaseMs: 1_000 });

      hold();
      const answer = b.runtime.respond(session.id, interactionId, {
        kind: 'question',
        answer: 'this one',
      });
      await untilRows(f, (rows) => rows[0]?.state === 'accepted');
      owner.kill();

      expect(await refusal(answer)).toEqual(['internal', 'command_outcome_unknown', true]);
      const rows = await f.commands();
      expect(rows.map((r) => [r.state, r.accepted_by])).toEqual([['settled', owner.table.owner]]);
      expect(settlementOf(rows[0])).toMatchObject({
        outcome: 'refused',
        error: { details: { reason: 'command_outcome_unknown' } },
      });
      // the caller took the session over to settle it: it owns the session now
      expect(taker.resumed).toHaveLength(1);
      expect((await b.runtime.sessionOwners()).get(session.id)).toBe('this_runtime');
      // the answer never reached the new provider session
      expect(taker.manual.sessions.flatMap((s) => s.responses)).toEqual([]);
    });

    it('a command the dead owner accepted is settled command_outcome_unknown also when its session was taken at a runtime start and resumed later', async () => {
      const f = fleet(() => server.cluster(), 'owner_start_orphan');
      const { owner, session, interactionId, hold } = await askingOwner(f, 800);
      hold();
      // recorded by a caller that is gone by now: nobody waits on it
      const caller = openPostgresEventStore({
        connectionString: server.cluster().connectionString,
        schema: f.schema,
      });
      onCleanup(() => caller.close());
      await caller.commands?.enqueue({
        commandId: 'cmd_gone',
        sessionId: session.id,
        body: {
          kind: 'respond',
          interactionId,
          response: { kind: 'question', answer: 'x' },
        },
        issuedAt: new Date().toISOString(),
      });
      await untilRows(f, (rows) => rows[0]?.state === 'accepted');
      owner.kill();
      await untilLeaseLapsed(server.cluster().connectionString, f.schema, session.id);

      const b = await f.member({ provider: createDurableProvider().provider });
      expect(b.runtime.resumableSessionIds).toContain(session.id);
      expect((await f.commands())[0]?.state).toBe('accepted');
      await b.runtime.resumeSession(session.id);
      const [row] = await f.commands();
      expect(row?.state).toBe('settled');
      expect(settlementOf(row)).toMatchObject({
        outcome: 'refused',
        error: { details: { reason: 'command_outcome_unknown' } },
      });
    });

    it('an owner alive but never settling: the command is withdrawn at commandTimeoutMs on the caller clock and refused session_unowned', async () => {
      const f = fleet(() => server.cluster(), 'owner_silent');
      const { owner, session } = await ownedSession(f, createDurableProvider().provider, 60_000);
      const clock = new FakeClock();
      const b = await f.member({
        provider: createDurableProvider().provider,
        clock,
        commandTimeoutMs: 5_000,
      });
      // its lease stays live for the whole test, but it does nothing any more
      owner.kill();
      const interrupt = b.runtime.interrupt(session.id, 'stop');
      await untilRows(f, (rows) => rows[0]?.state === 'pending');
      clock.advance(4_999);
      expect((await f.commands())[0]?.state).toBe('pending');
      clock.advance(1);
      expect(await refusal(interrupt)).toEqual([
        'provider_unavailable',
        'session_unowned',
        undefined,
      ]);
      const rows = await f.commands();
      expect(rows.map((r) => [r.state, r.accepted_by])).toEqual([['settled', null]]);
      expect(settlementOf(rows[0])).toEqual({ outcome: 'withdrawn' });
    });
  },
);

if (server.skip !== undefined) {
  describe('PostgreSQL: routed commands when the owner is gone', () => {
    it.skip(`skipped: ${server.skip}`, () => undefined);
  });
}
