/** What `run` tells a person after a failed turn, and how a retry notice reads (turn/advice.ts). */
import { describe, expect, it } from 'vitest';
import { agentError } from '@relvo-labs/agent-provider';
import { failureAdvice, retryLine } from '../src/turn/advice.js';

const AT = '2026-12-02T12:00:00.000Z';

const failed = (providerCode: string, details?: Record<string, string | number>) => ({
  outcome: 'failed' as const,
  at: AT,
  error: agentError('provider_rejected', 'x', { providerCode, ...(details ? { details } : {}) }),
});

describe('failureAdvice', () => {
  it('usage_limit: wait, raise it, or log in with an API key', () => {
    expect(failureAdvice(failed('usage_limit'), '/c')).toMatch(
      /usage limit .* codex login --with-api-key/,
    );
  });

  it('a stall while codex retried unauthorized wants a login, not patience', () => {
    expect(
      failureAdvice(failed('turn_stalled', { retries: 4, retryCause: 'unauthorized' }), '/c'),
    ).toContain('`codex login`');
  });

  it('an effort codex could not put back: give it with --effort, or configure the thread', () => {
    expect(failureAdvice(failed('run_option_not_restorable'), '/c')).toMatch(
      /--effort .*model_reasoning_effort/,
    );
  });

  it('nothing to advise on success, an interrupt, or a code a person cannot fix', () => {
    expect(failureAdvice({ outcome: 'succeeded', at: AT }, '/c')).toBeUndefined();
    expect(failureAdvice({ outcome: 'interrupted', at: AT }, '/c')).toBeUndefined();
    expect(failureAdvice(failed('model_not_found'), '/c')).toBeUndefined();
  });
});

describe('retryLine', () => {
  it('only for a retry notice, with its count and cause', () => {
    expect(retryLine({ willRetry: true, providerCode: 'unauthorized', retry: 2 })).toBe(
      'codex: the model request failed (unauthorized); retrying — retry 2',
    );
    expect(retryLine({ willRetry: false, providerCode: 'other' })).toBeUndefined();
    expect(retryLine(undefined)).toBeUndefined();
  });
});
