import type { EventEnvelope } from '@relvo-labs/agent-runtime';
import { describe, expect, it } from 'vitest';
import { FakeClock } from './fake-clock.js';
import { scriptedRuntime, until } from './support.js';

// well past the delivery deadline, whatever it is
const PAST_DEADLINE_MS = 600_000;

/** A reader that records each arrival, then yields to I/O before asking for the next one. */
async function recordArrivals(
  events: AsyncIterable<EventEnvelope>,
  order: string[],
): Promise<number> {
  for await (const e of events) {
    order.push(e.payload.type);
    if (e.payload.type === 'turn.settled') return e.sequence;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the subscription ended before turn.settled');
}

describe('turn.done and the log', () => {
  it('done resolves only after a live subscriber was handed turn.settled; lastSequence is its sequence', async () => {
    const { scripted, session } = await scriptedRuntime({
      scripted: {
        scripts: {
          hi: Array.from({ length: 40 }, (_, i) => ({ type: 'delta' as const, text: `d${i}` })),
        },
      },
    });
    const order: string[] = [];
    const reader = recordArrivals(session.subscribe(), order);
    const turn = await session.submitTurn({ input: 'hi' });
    scripted.controller.drain();
    const result = await turn.done;
    order.push('done');
    const settledAt = await reader;
    expect(order.filter((t) => t === 'turn.settled')).toHaveLength(1);
    expect(order.indexOf('turn.settled')).toBeLessThan(order.indexOf('done'));
    expect(result.lastSequence).toBe(settledAt);
  });

  it('a reader that stopped reading without closing does not hold done past its deadline', async () => {
    const clock = new FakeClock();
    const { scripted, session } = await scriptedRuntime({ clock });
    const events = session.subscribe()[Symbol.asyncIterator]();
    await events.next();
    const turn = await session.submitTurn({ input: 'hi' });
    scripted.controller.drain();
    let reported = false;
    void turn.done.then(() => {
      reported = true;
    });
    await until(() => clock.pending > 0, 'the delivery deadline');
    expect(reported).toBe(false);
    clock.advance(PAST_DEADLINE_MS);
    const result = await turn.done;
    expect(result.turnState).toBe('completed');
    await events.return?.();
  });
});
