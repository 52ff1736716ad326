import { describe, expect, it } from 'vitest';
import { askScript, flush, open, refusalCode, sink, start, text } from './scripted-session.js';

const approveOnce = { kind: 'approval', decision: 'approved', mode: 'once' } as const;
const deny = { kind: 'approval', decision: 'denied' } as const;

describe('scripted runs', () => {
  it('blocks on ask until answered; invalid answers are refused and leave it answerable', async () => {
    const { controller, session } = await open({ scripts: askScript });
    const { runSink, state } = await start(session, 'ask');
    controller.drain();
    expect(controller.pendingInteractionRefs()).toEqual(['r1']);
    expect(runSink.events.at(-1)?.payload).toMatchObject({
      type: 'interaction.requested',
      providerRef: 'r1',
    });
    expect(
      await refusalCode(
        session.respondToInteraction('r1', { kind: 'approval', decision: 'approved' }),
      ),
    ).toBe('invalid_request');
    controller.drain();
    expect(controller.pendingInteractionRefs()).toEqual(['r1']);
    await session.respondToInteraction('r1', approveOnce);
    // an exact repeat is a no-op; a different answer is refused
    await session.respondToInteraction('r1', approveOnce);
    expect(await refusalCode(session.respondToInteraction('r1', deny))).toBe(
      'interaction_already_settled',
    );
    await session.respondToInteraction('unknown', deny);
    controller.drain();
    await flush();
    expect(runSink.events.at(-1)?.payload).toEqual({ type: 'run.message_delta', text: 'go' });
    expect(state.outcome).toEqual({ outcome: 'succeeded' });
  });

  it('a second run of the same ask script in one session is unblocked by its answer (docs/spi.md §19.1)', async () => {
    const { controller, session } = await open({ scripts: askScript });
    const first = await start(session, 'ask', 'run-1');
    controller.drain();
    await session.respondToInteraction('r1', approveOnce);
    controller.drain();
    await flush();
    expect(first.state.outcome).toEqual({ outcome: 'succeeded' });
    // The script raises ref r1 again: the ask blocks until a response for r1 arrives.
    const second = await start(session, 'ask', 'run-2');
    controller.drain();
    expect(controller.pendingInteractionRefs()).toEqual(['r1']);
    await session.respondToInteraction('r1', approveOnce);
    expect(controller.pendingInteractionRefs()).toEqual([]);
    controller.drain();
    await flush();
    expect(second.state.outcome).toEqual({ outcome: 'succeeded' });
    // Once applied, an exact repeat is still a no-op and a different answer still refused.
    await session.respondToInteraction('r1', approveOnce);
    expect(await refusalCode(session.respondToInteraction('r1', deny))).toBe(
      'interaction_already_settled',
    );
  });

  it('records a steer of an active run and refuses one after it ended or when unsupported', async () => {
    const steering = await open({ scripts: askScript });
    const a = await start(steering.session, 'ask');
    steering.controller.drain();
    await a.run.steer?.(text('more'));
    expect(steering.controller.steeredRuns).toEqual([{ runRef: 'ask', text: 'more' }]);
    await a.run.interrupt();
    expect(await refusalCode(a.run.steer?.(text('late')))).toBe('illegal_state_transition');

    const plain = await open({ scripts: askScript, supportsSteer: false });
    expect(plain.provider.describe().run.steer).toBe(false);
    const b = await start(plain.session, 'ask');
    expect(await refusalCode(b.run.steer?.(text('x')))).toBe('capability_unsupported');
    expect(plain.controller.steeredRuns).toEqual([]);
  });

  it('interrupts immediately, cooperatively on the next drain, or not at all', async () => {
    const immediate = await open({ scripts: askScript });
    const a = await start(immediate.session, 'ask');
    immediate.controller.drain();
    await a.run.interrupt('stop');
    await a.run.interrupt('again');
    expect(await a.run.completion).toEqual({ outcome: 'interrupted', reason: 'stop' });
    expect(immediate.controller.interruptedRuns).toEqual([{ runRef: 'ask', reason: 'stop' }]);
    expect(immediate.controller.pendingInteractionRefs()).toEqual([]);

    const cooperative = await open({ scripts: askScript, interruptMode: 'cooperative' });
    const b = await start(cooperative.session, 'ask');
    cooperative.controller.drain();
    await b.run.interrupt();
    await flush();
    expect(b.state.outcome).toBeUndefined();
    cooperative.controller.drain();
    await flush();
    expect(b.state.outcome).toEqual({ outcome: 'interrupted' });

    const unsupported = await open({ scripts: askScript, interruptMode: 'unsupported' });
    const c = await start(unsupported.session, 'ask');
    expect(await refusalCode(c.run.interrupt())).toBe('capability_unsupported');
  });

  it('admits one run at a time and re-attaches an exact retry', async () => {
    const { controller, session } = await open({ scripts: askScript });
    const first = await start(session, 'ask', 'ref-1');
    const retry = await session.startRun({
      input: text('ask'),
      sink: first.runSink,
      runRef: 'ref-1',
    });
    expect(retry).toBe(first.run);
    expect(
      await refusalCode(session.startRun({ input: text('x'), sink: sink(), runRef: 'ref-2' })),
    ).toBe('illegal_state_transition');
    expect(controller.startedRuns).toHaveLength(1);
  });
});
