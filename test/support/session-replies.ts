/**
 * What the adapter answered to the app-server's requests, for the session tests of the
 * interaction bridges: its replies on a request id, the recording's own reply, and a late answer
 * that must be refused. Registers nothing when imported.
 */
import type { InteractionResponse, ProviderSession } from '@relvo-labs/agent-provider';
import { expect } from 'vitest';
import type { ProviderHarness, RecordingSink } from './provider-harness.js';
import { until } from './recorded.js';
import { refusal } from './refusals.js';
import type { TranscriptLine } from './replay.js';

/** The adapter's replies (not requests) written on server request `id`. */
export function sentReplyTo(sent: readonly Record<string, unknown>[], id: number | string) {
  return sent.filter((f) => f.id === id && !Object.hasOwn(f, 'method'));
}

/** The first reply the recorded client wrote to a server request. */
export function recordedReplyLine(lines: readonly TranscriptLine[]): TranscriptLine {
  const line = lines.find(
    (l) => l.dir === 'c2s' && !Object.hasOwn(l.frame, 'method') && Object.hasOwn(l.frame, 'id'),
  );
  if (line === undefined) throw new Error('no recorded reply to a server request');
  return line;
}

/**
 * A bridge that is off: server request 0 is declined -32601 on its own id, and the run's sink
 * raises no interaction.
 */
export async function expectDeclinedUnbridged(
  h: ProviderHarness,
  sink: RecordingSink,
): Promise<void> {
  await until(() => sentReplyTo(h.transport.sent, 0).length === 1, 'the decline');
  expect(sentReplyTo(h.transport.sent, 0)[0]).toMatchObject({ id: 0, error: { code: -32601 } });
  expect(sink.ofType('interaction.requested')).toHaveLength(0);
}

/** A question-set answer to a one-question batch, for answers that must be refused. */
export const ANY_QUESTION_ANSWER: InteractionResponse = {
  kind: 'question_set',
  answers: { q1: { type: 'text', text: 'x' } },
};

/** The code `respondToInteraction` refused with; an accepted answer fails the test. */
export async function answerRefusal(
  session: ProviderSession,
  providerRef: string,
  response: InteractionResponse,
): Promise<string> {
  return (await refusal(session.respondToInteraction(providerRef, response))).code;
}
