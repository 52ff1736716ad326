/**
 * docs/testing.md §4 on the real binary: after a turn failed with `context_length_exceeded`, the
 * next turn makes one extra model request, the compaction, before its own; a host test scripts a
 * step for it.
 */
import { describe, expect, it } from 'vitest';
import { requestInputItems, responseFailedStep, textStep } from '../../src/testing/index.js';
import { recordingSink, textInput, texts } from '../support/provider-harness.js';
import { openRealCodex } from '../support/real-codex.js';

/** The text of a request's last input item. */
function lastInputText(request: Parameters<typeof requestInputItems>[0]): string {
  return JSON.stringify(requestInputItems(request).at(-1)?.content ?? '');
}

describe('the scripted model after context_length_exceeded (real binary)', () => {
  it('the next turn compacts first: one extra request, answered by the next step', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(responseFailedStep('context_length_exceeded', 'too long'));
    const failed = await codex.session.startRun({
      input: textInput('hi'),
      sink: recordingSink(),
      runRef: 'too-long',
    });
    expect(await failed.completion).toMatchObject({
      outcome: 'failed',
      error: { providerCode: 'context_window_exceeded' },
    });
    expect(codex.server.requests).toHaveLength(1);

    codex.server.enqueue(textStep('the summary'), textStep('the answer'));
    const sink = recordingSink();
    const next = await codex.session.startRun({ input: textInput('again'), sink, runRef: 'next' });
    expect(await next.completion).toEqual({ outcome: 'succeeded' });
    const [, compaction, own] = codex.server.requests;
    expect(lastInputText(compaction!)).toContain('CONTEXT CHECKPOINT COMPACTION');
    expect(lastInputText(own!)).toContain('again');
    expect(JSON.stringify(own!.body)).toContain('the summary');
    expect(texts(sink)).toBe('the answer');
    expect(codex.server.pending).toBe(0);
  }, 60_000);
});
