/**
 * Structured output on the real binary (ADR-0041): `outputSchema` reaches the model request of
 * that turn only; codex validates nothing, so the adapter checks the final message and delivers
 * the value as the `codex` / `structured_output` extension, or fails the run with a bounded
 * reason that never echoes the answer.
 */
import { describe, expect, it } from 'vitest';
import { isProviderRejection } from '@relvo-labs/agent-provider';
import { textStep } from '../../src/testing/index.js';
import { textInput } from '../support/provider-harness.js';
import { openRealCodex, recordingSink } from '../support/real-codex.js';

const SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string' }, confidence: { type: 'number' } },
  required: ['answer', 'confidence'],
  additionalProperties: false,
};

function textFormat(body: unknown): unknown {
  return (body as { text?: { format?: unknown } }).text?.format;
}

describe('structured output on the real binary', () => {
  it('a valid answer is delivered as the extension; the schema is sent for that turn only', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(textStep(['{"answer":"42",', '"confidence":0.9}']), textStep('plain'));
    const sink = recordingSink();
    const run = await codex.session.startRun({
      input: textInput('answer in JSON'),
      sink,
      runRef: 'json',
      outputSchema: SCHEMA,
    });
    expect(await run.completion).toEqual({ outcome: 'succeeded' });
    const extensions = sink.events.filter((e) => e.payload.type === 'run.extension');
    expect(extensions.map((e) => e.payload)).toEqual([
      {
        type: 'run.extension',
        namespace: 'codex',
        kind: 'structured_output',
        data: { value: { answer: '42', confidence: 0.9 } },
      },
    ]);
    expect(textFormat(codex.server.requests[0]?.body)).toMatchObject({
      type: 'json_schema',
      schema: SCHEMA,
    });
    const plain = await codex.session.startRun({
      input: textInput('and now plain'),
      sink: recordingSink(),
      runRef: 'plain',
    });
    expect((await plain.completion).outcome).toBe('succeeded');
    expect(textFormat(codex.server.requests[1]?.body)).toBeUndefined();
  });

  it('an answer that is not JSON, or does not validate, fails the run without echoing it', async () => {
    const codex = await openRealCodex();
    codex.server.enqueue(
      textStep('SECRET-not-json'),
      textStep('{"answer":"SECRET-no-confidence"}'),
    );
    for (const [runRef, reason] of [
      ['a', 'not_json'],
      ['b', 'schema_mismatch'],
    ] as const) {
      const sink = recordingSink();
      const run = await codex.session.startRun({
        input: textInput('answer'),
        sink,
        runRef,
        outputSchema: SCHEMA,
      });
      const end = await run.completion;
      expect(end).toMatchObject({
        outcome: 'failed',
        error: {
          code: 'provider_rejected',
          providerCode: 'output_schema_mismatch',
          details: { reason },
        },
      });
      expect(JSON.stringify(end)).not.toContain('SECRET');
      expect(sink.events.some((e) => e.payload.type === 'run.extension')).toBe(false);
    }
  });

  it('a schema that does not compile is refused before anything is sent', async () => {
    const codex = await openRealCodex();
    const refused = await codex.session
      .startRun({
        input: textInput('x'),
        sink: recordingSink(),
        runRef: 'bad',
        outputSchema: { type: 'no-such-type' },
      })
      .catch((e: unknown) => e);
    expect(isProviderRejection(refused) && refused.agentError.providerCode).toBe(
      'invalid_output_schema',
    );
    expect(codex.server.requests).toHaveLength(0);
  });
});
