/**
 * Effects after records: every host command that changes what the provider does (an answer,
 * steer, interrupt, a turn's start, close) is committed to the store before the provider sees
 * it. The store here holds the commit that carries the command's record until the test lets it
 * go, so "the provider has not seen it yet" is observed while the record is not durable; a store
 * that refuses that commit hands the provider nothing.
 */
import { agentError, ProviderRejection } from '@relvo-labs/agent-provider';
import {
  createAgentRuntime,
  createMemoryEventStore,
  isRuntimeError,
  type EventEnvelope,
  type EventStore,
} from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { createManualProvider, type ManualProviderControls } from './manual-provider.js';
import { withAppend } from './store-wrap.js';
import { history, onCleanup, tempDir, types, until } from './support.js';

interface Gate {
  /** The held commit reached the store (and waits). */
  readonly reached: Promise<void>;
  readonly release: () => void;
}

/** A memory store whose commit carrying a payload of `type` can be held or refused. */
function gatedStore(): {
  store: EventStore;
  hold: (type: string) => Gate;
  refuse: (type: string) => void;
} {
  const inner = createMemoryEventStore();
  const held = new Map<string, { reached: () => void; released: Promise<void> }>();
  const refused = new Set<string>();
  let broken = false;
  const carries = (batch: readonly EventEnvelope[], type: string): boolean =>
    batch.some((e) => e.payload.type === type);
  const store = withAppend(inner, 'gated', async (batch) => {
    if ([...refused].some((t) => carries(batch, t))) broken = true;
    if (broken) throw new Error('EIO: i/o error');
    for (const [type, gate] of held) {
      if (!carries(batch, type)) continue;
      held.delete(type);
      gate.reached();
      await gate.released;
    }
    return inner.append(batch);
  });
  return {
    store,
    hold: (type) => {
      let reached!: () => void;
      let release!: () => void;
      const gate: Gate = {
        reached: new Promise((r) => {
          reached = r;
        }),
        release: () => {
          release();
        },
      };
      held.set(type, {
        reached,
        released: new Promise((r) => {
          release = r;
        }),
      });
      return gate;
    },
    refuse: (type) => {
      refused.add(type);
    },
  };
}

async function setup() {
  const manual: ManualProviderControls = createManualProvider();
  const gated = gatedStore();
  const runtime = await createAgentRuntime({
    providers: { manual: () => manual.provider },
    config: { defaultProfile: 'm', profiles: { m: { provider: 'manual' } } },
    store: gated.store,
  });
  onCleanup(() => runtime.shutdown().catch(() => undefined));
  const session = await runtime.openSession({ workspace: tempDir() });
  return { manual, runtime, session, ...gated };
}

/** A session with a started run that waits for an approval. */
async function awaitingApproval() {
  const s = await setup();
  const turn = await s.session.submitTurn({ input: 'x' });
  await until(() => s.manual.sessions[0]?.runs.length === 1, 'the run');
  const run = s.manual.sessions[0]!.runs[0]!;
  run.sink.emit({
    payload: {
      type: 'interaction.requested',
      providerRef: 'a1',
      request: {
        kind: 'approval',
        subject: { category: 'command', summary: 'touch f' },
        allowedModes: ['once'],
        riskHint: 'medium',
      },
    },
  });
  await until(() => s.session.pendingInteractions().length === 1, 'the approval');
  const interactionId = s.session.pendingInteractions()[0]!.interactionId;
  return { ...s, turn, run, interactionId };
}

const errorOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'resolved',
    (e: unknown) => e,
  );

describe('a host command is durable before the provider sees it', () => {
  it('an answer: recorded and committed first; an exact retry joins, another answer is refused; settled after', async () => {
    const { manual, runtime, session, hold, interactionId } = await awaitingApproval();
    const gate = hold('interaction.answered');
    const answer = {
      kind: 'approval' as const,
      decision: 'approved' as const,
      mode: 'once' as const,
    };
    const answered = session.respond(interactionId, answer);
    await gate.reached;
    const retry = session.respond(interactionId, { ...answer });
    const other = await errorOf(
      session.respond(interactionId, { kind: 'approval', decision: 'denied' }),
    );
    expect(isRuntimeError(other) && other.reason).toBe('interaction_settled');
    // the record is not durable: the provider has nothing
    expect(manual.sessions[0]!.responses).toEqual([]);
    gate.release();
    await answered;
    await retry;
    expect(manual.sessions[0]!.responses).toEqual([{ ref: 'a1', response: answer }]);
    const logged = (await history(runtime, session.id)).filter((e) =>
      e.payload.type.startsWith('interaction.'),
    );
    expect(logged.map((e) => e.payload)).toEqual([
      expect.objectContaining({ type: 'interaction.requested', interactionId }),
      { type: 'interaction.answered', interactionId, response: answer },
      expect.objectContaining({
        type: 'interaction.settled',
        settlement: expect.objectContaining({ outcome: 'responded', response: answer }),
      }),
    ]);
    expect(logged[2]?.payload).not.toHaveProperty('settlement.error');
  });

  it('an answer the store cannot record never reaches the provider; the caller gets store_io', async () => {
    const { manual, session, refuse, interactionId } = await awaitingApproval();
    refuse('interaction.answered');
    const failed = await errorOf(
      session.respond(interactionId, { kind: 'approval', decision: 'approved', mode: 'once' }),
    );
    expect(isRuntimeError(failed) && failed.reason).toBe('store_io');
    expect(manual.sessions[0]!.responses).toEqual([]);
    // a retry does not reach it either
    const again = await errorOf(
      session.respond(interactionId, { kind: 'approval', decision: 'approved', mode: 'once' }),
    );
    expect(isRuntimeError(again) && again.reason).toBe('store_io');
    expect(manual.sessions[0]!.responses).toEqual([]);
  });

  it('a run that ends while its answer is being recorded: the answer is never delivered and the approval settles cancelled', async () => {
    const { manual, runtime, session, hold, run, turn, interactionId } = await awaitingApproval();
    const gate = hold('interaction.answered');
    const answered = errorOf(
      session.respond(interactionId, { kind: 'approval', decision: 'approved', mode: 'once' }),
    );
    await gate.reached;
    run.complete({ outcome: 'succeeded' });
    await until(() => session.activeRunId === undefined, 'the run end');
    gate.release();
    const refused = await answered;
    expect(isRuntimeError(refused) && refused.reason).toBe('interaction_settled');
    await turn.done;
    expect(manual.sessions[0]!.responses).toEqual([]);
    const settled = (await history(runtime, session.id)).find(
      (e) => e.payload.type === 'interaction.settled',
    );
    expect(settled?.payload).toMatchObject({ settlement: { outcome: 'cancelled' } });
  });

  it('a delivery that fails without a definite refusal: the run ends with the answer responded, outcome unknown; after a refusal, cancelled', async () => {
    for (const [failure, expected] of [
      [new Error('EPIPE: the provider went away'), 'unknown'],
      [new ProviderRejection(agentError('invalid_request', 'refused')), 'cancelled'],
    ] as const) {
      const { manual, runtime, session, run, turn, interactionId } = await awaitingApproval();
      manual.respondFailure = failure;
      const failed = await errorOf(
        session.respond(interactionId, { kind: 'approval', decision: 'approved', mode: 'once' }),
      );
      expect(isRuntimeError(failed)).toBe(true);
      run.complete({ outcome: 'succeeded' });
      await turn.done;
      const settled = (await history(runtime, session.id)).find(
        (e) => e.payload.type === 'interaction.settled',
      );
      expect(settled?.payload).toMatchObject({
        settlement:
          expected === 'cancelled'
            ? { outcome: 'cancelled' }
            : {
                outcome: 'responded',
                response: { decision: 'approved' },
                error: { details: { reason: 'answer_outcome_unknown' } },
              },
      });
    }
  });

  it('steer: run.steered is committed before the provider run gets the input; refused by a failed store', async () => {
    const { manual, runtime, session, hold, refuse } = await setup();
    await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'the run');
    const run = manual.sessions[0]!.runs[0]!;
    const gate = hold('run.steered');
    const steered = session.steer('and this');
    await gate.reached;
    expect(run.steers).toEqual([]);
    gate.release();
    await steered;
    expect(run.steers).toEqual([{ parts: [{ type: 'text', text: 'and this' }] }]);
    expect(types(await history(runtime, session.id))).toContain('run.steered');
    refuse('run.steered');
    const failed = await errorOf(session.steer('lost'));
    expect(isRuntimeError(failed) && failed.reason).toBe('store_io');
    expect(run.steers).toHaveLength(1);
  });

  it('interrupt: run.interrupt_requested is committed before the provider run is interrupted; refused by a failed store', async () => {
    const first = await setup();
    const turn = await first.session.submitTurn({ input: 'x' });
    await until(() => first.manual.sessions[0]?.runs.length === 1, 'the run');
    const run = first.manual.sessions[0]!.runs[0]!;
    const gate = first.hold('run.interrupt_requested');
    const interrupted = first.session.interrupt('stop');
    await gate.reached;
    expect(run.interrupts).toEqual([]);
    gate.release();
    await interrupted;
    expect(run.interrupts).toEqual(['stop']);
    await turn.done;
    const logged = types(await history(first.runtime, first.session.id));
    expect(logged.indexOf('run.interrupt_requested')).toBeGreaterThan(-1);
    expect(logged.indexOf('run.interrupt_requested')).toBeLessThan(logged.indexOf('run.finished'));

    const second = await setup();
    await second.session.submitTurn({ input: 'x' });
    await until(() => second.manual.sessions[0]?.runs.length === 1, 'the run');
    second.refuse('run.interrupt_requested');
    const failed = await errorOf(second.session.interrupt('stop'));
    expect(isRuntimeError(failed) && failed.reason).toBe('store_io');
    expect(second.manual.sessions[0]!.runs[0]!.interrupts).toEqual([]);
  });

  it('submitTurn: the turn is committed before the provider starts the run; a store that refuses it starts nothing', async () => {
    const first = await setup();
    const gate = first.hold('turn.started');
    const submitted = first.session.submitTurn({ input: 'x' });
    await gate.reached;
    // the provider session is open (it was opened before the turn), but no run started
    expect(first.manual.sessions[0]?.runs ?? []).toEqual([]);
    gate.release();
    const turn = await submitted;
    await until(() => first.manual.sessions[0]?.runs.length === 1, 'the run');
    expect(first.manual.sessions[0]!.runs[0]!.request.runRef).toBe(turn.runId);

    const second = await setup();
    second.refuse('turn.started');
    const failed = await errorOf(second.session.submitTurn({ input: 'x' }));
    expect(isRuntimeError(failed) && failed.reason).toBe('store_io');
    expect(second.manual.sessions[0]?.runs ?? []).toEqual([]);
  });

  it('close: closing is committed before the provider is interrupted or disposed', async () => {
    const { manual, runtime, session, hold } = await setup();
    await session.submitTurn({ input: 'x' });
    await until(() => manual.sessions[0]?.runs.length === 1, 'the run');
    const run = manual.sessions[0]!.runs[0]!;
    const gate = hold('session.state_changed');
    const closed = session.close();
    await gate.reached;
    expect(run.interrupts).toEqual([]);
    expect(manual.sessions[0]!.disposeCalls).toBe(0);
    gate.release();
    await closed;
    expect(run.interrupts).toHaveLength(1);
    expect(manual.sessions[0]!.disposeCalls).toBe(1);
    const logged = types(await history(runtime, session.id));
    expect(logged.indexOf('session.state_changed')).toBeLessThan(
      logged.indexOf('run.interrupt_requested'),
    );
  });
});
