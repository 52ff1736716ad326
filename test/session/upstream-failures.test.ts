/**
 * Upstream failures a host can act on (ADR-0011): every turn
 * failure recorded from the real binary (scripted model: HTTP 401/403/404/429/500/503, closed and
 * stalled streams, response.failed with each error code) replayed through the adapter, plus the
 * codexErrorInfo values only newer releases send.
 */
import type { AgentError, ProviderRunTermination } from '@relvo-labs/agent-provider';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_PROVIDER_CODES } from '../../src/protocol/provider-codes.js';
import { classifyUpstreamFailure } from '../../src/session/upstream-failure.js';
import { terminationOfCompletedTurn } from '../../src/session/translate.js';
import { oldestReleaseWith } from '../support/recorded.js';
import { loadTranscript, replay } from '../support/replay.js';
import {
  createProviderHarness,
  recordingSink,
  textInput,
  WORKSPACE,
  type RecordingSink,
} from '../support/provider-harness.js';

interface Expected {
  readonly providerCode: string;
  readonly code: 'provider_unavailable' | 'provider_rejected';
  readonly classification: string;
  readonly httpStatus?: number;
}

const unavailable = (
  providerCode: string,
  classification: string,
  httpStatus?: number,
): Expected => ({
  providerCode,
  code: 'provider_unavailable',
  classification,
  ...(httpStatus !== undefined ? { httpStatus } : {}),
});
const rejected = (providerCode: string, classification: string, httpStatus?: number): Expected => ({
  providerCode,
  code: 'provider_rejected',
  classification,
  ...(httpStatus !== undefined ? { httpStatus } : {}),
});

/**
 * A scenario as first recorded: what codex reports differs per release (older releases know fewer
 * codes), and the expectations below are what the oldest allowlisted recording showed.
 */
const firstRecording = (scenario: string) => loadTranscript(scenario, oldestReleaseWith(scenario));

/** Replays every turn of a recorded scenario and returns each run's termination. */
async function replayTurns(
  scenario: string,
): Promise<{ terminations: ProviderRunTermination[]; sinks: RecordingSink[]; published: string }> {
  const transcript = firstRecording(scenario);
  const turns = transcript.filter((l) => l.frame.method === 'turn/start').length;
  const h = createProviderHarness();
  const replaying = replay(h.transport, transcript, { workspace: WORKSPACE });
  const session = await h.openSession();
  const terminations: ProviderRunTermination[] = [];
  const sinks: RecordingSink[] = [];
  for (let i = 0; i < turns; i++) {
    const sink = recordingSink();
    const run = await session.startRun({ input: textInput(`turn ${i}`), sink, runRef: `r${i}` });
    terminations.push(await run.completion);
    sinks.push(sink);
  }
  await replaying;
  await session.dispose();
  return {
    terminations,
    sinks,
    published: JSON.stringify([terminations, sinks.map((s) => s.events), h.sessionSink.events]),
  };
}

function expectFailure(termination: ProviderRunTermination, expected: Expected): void {
  expect(termination.outcome).toBe('failed');
  const error = (termination as { error: AgentError }).error;
  expect(error).toMatchObject({
    code: expected.code,
    retryable: expected.code === 'provider_unavailable',
    providerCode: expected.providerCode,
    message: `codex turn failed (${expected.providerCode})`,
  });
  expect(error.details).toEqual({
    classification: expected.classification,
    ...(expected.httpStatus !== undefined ? { httpStatus: expected.httpStatus } : {}),
  });
}

function upstreamProse(scenario: string): string[] {
  return firstRecording(scenario)
    .filter((l) => l.frame.method === 'error')
    .map((l) => (l.frame.params as { error: { message: string } }).error.message);
}

describe('recorded turn failures (the first recording of each scenario)', () => {
  const single: [string, Expected][] = [
    ['http_401', rejected('unauthorized', 'other', 401)],
    ['http_429', unavailable('rate_limited', 'responseTooManyFailedAttempts', 429)],
    ['http_500', unavailable('upstream_unavailable', 'internalServerError')],
    ['stream_closed', unavailable('stream_disconnected', 'other')],
    ['stream_stall', unavailable('stream_disconnected', 'other')],
    ['response_failed', unavailable('stream_disconnected', 'other')],
  ];
  for (const [scenario, expected] of single) {
    it(`${scenario}: ${expected.providerCode} (${expected.code}), no upstream prose`, async () => {
      const { terminations, sinks, published } = await replayTurns(scenario);
      expectFailure(terminations[0]!, expected);
      for (const message of upstreamProse(scenario)) expect(published).not.toContain(message);
      // the mid-turn error became a warning diagnostic carrying the same provider code
      const warning = sinks[0]!.ofType('diagnostic').find((d) => d.level === 'warning');
      expect(warning?.detail).toMatchObject({
        providerCode: expected.providerCode,
        willRetry: false,
      });
    });
  }

  it('http_errors: 403, 404, 503, 429 usage_limit_reached', async () => {
    const { terminations, published } = await replayTurns('http_errors');
    const expected = [
      rejected('unauthorized', 'other', 403),
      rejected('model_not_found', 'other', 404),
      unavailable('upstream_unavailable', 'other', 503),
      rejected('usage_limit', 'usageLimitExceeded'),
    ];
    expect(terminations).toHaveLength(expected.length);
    terminations.forEach((t, i) => {
      expectFailure(t, expected[i]!);
    });
    for (const message of upstreamProse('http_errors')) expect(published).not.toContain(message);
  });

  it('response_failed_codes: each response.failed error code', async () => {
    const { terminations, published } = await replayTurns('response_failed_codes');
    // what the release of the first recording made of each code (in the recorded order)
    const expected = [
      rejected('context_window_exceeded', 'contextWindowExceeded'), // context_length_exceeded
      rejected('usage_limit', 'usageLimitExceeded'), // insufficient_quota
      rejected('usage_limit', 'usageLimitExceeded'), // usage_not_included
      unavailable('rate_limited', 'rateLimitExceeded'), // rate_limit_exceeded
      unavailable('rate_limited', 'rateLimitExceeded'), // slow_down
      unavailable('capacity_unavailable', 'serverOverloaded'), // server_is_overloaded
      rejected('other', 'other'), // invalid_prompt
      rejected('policy_denied', 'cyberPolicy'), // cyber_policy
      rejected('other', 'other'), // bio_policy: unknown to that release
      unavailable('stream_disconnected', 'other'), // model_not_found: likewise
      unavailable('stream_disconnected', 'other'), // flex_unavailable: likewise
      unavailable('stream_disconnected', 'other'), // policy_capacity_unavailable: likewise
      unavailable('stream_disconnected', 'other'), // server_error
      unavailable('stream_disconnected', 'other'), // an unknown code
    ];
    expect(terminations).toHaveLength(expected.length);
    terminations.forEach((t, i) => {
      expectFailure(t, expected[i]!);
    });
    for (const message of upstreamProse('response_failed_codes'))
      expect(published).not.toContain(message);
  });
});

describe('codexErrorInfo values only newer releases send (measured)', () => {
  const HTTP = 'httpConnectionFailed';
  const withStatus = (kind: string, httpStatusCode: number | null) => ({
    [kind]: { httpStatusCode },
  });
  /** codexErrorInfo values on a turn error whose message says nothing ('m'). */
  const byInfo: [unknown, Expected][] = [
    [withStatus(HTTP, 401), rejected('unauthorized', HTTP, 401)],
    [withStatus(HTTP, 503), unavailable('upstream_unavailable', HTTP, 503)],
    [withStatus(HTTP, null), unavailable('upstream_unavailable', HTTP)],
    [
      withStatus('responseStreamDisconnected', null),
      unavailable('stream_disconnected', 'responseStreamDisconnected'),
    ],
    [
      withStatus('responseStreamConnectionFailed', 429),
      unavailable('rate_limited', 'responseStreamConnectionFailed', 429),
    ],
    ['modelNotFound', rejected('model_not_found', 'modelNotFound')],
    ['flexUnavailable', unavailable('capacity_unavailable', 'flexUnavailable')],
    ['policyCapacityUnavailable', unavailable('capacity_unavailable', 'policyCapacityUnavailable')],
    ['bioPolicy', rejected('policy_denied', 'bioPolicy')],
    ['tooManyDenials', rejected('policy_denied', 'tooManyDenials')],
    ['inferenceHookDenied', rejected('policy_denied', 'inferenceHookDenied')],
    ['misalignmentPolicyViolation', rejected('policy_denied', 'misalignmentPolicyViolation')],
    ['unauthorized', rejected('unauthorized', 'unauthorized')],
    ['sessionBudgetExceeded', rejected('usage_limit', 'sessionBudgetExceeded')],
    ['sandboxError', rejected('other', 'sandboxError')],
    [
      { activeTurnNotSteerable: { turnKind: 'review' } },
      rejected('other', 'activeTurnNotSteerable'),
    ],
    // values the adapter does not know (the schema's catch-all), malformed and absent values
    ['somethingNew', rejected('other', 'unclassified')],
    [{ somethingNew: {} }, rejected('other', 'unclassified')],
    [{ a: 1, b: 2 }, rejected('other', 'unclassified')],
    [withStatus(HTTP, 4010), unavailable('upstream_unavailable', HTTP)],
    [null, rejected('other', 'unclassified')],
  ];
  /** The message decides only where codexErrorInfo does not. */
  const byMessage: [unknown, string, Expected][] = [
    [
      undefined,
      'unexpected status 401 Unauthorized: x',
      rejected('unauthorized', 'unclassified', 401),
    ],
    ['other', 'unexpected status 999 Weird: x', rejected('other', 'other')],
    ['other', 'prefix unexpected status 401 Unauthorized', rejected('other', 'other')],
    [
      'other',
      'stream disconnected before completion: idle timeout waiting for SSE',
      unavailable('stream_disconnected', 'other'),
    ],
    // a classified value is never overridden by prose
    [
      'cyberPolicy',
      'stream disconnected before completion: x',
      rejected('policy_denied', 'cyberPolicy'),
    ],
  ];
  const cases: [unknown, string, Expected][] = [
    ...byInfo.map(([info, expected]): [unknown, string, Expected] => [info, 'm', expected]),
    ...byMessage,
  ];
  it.each(cases)('%j with message %j', (info, message, expected) => {
    expectFailure(
      terminationOfCompletedTurn({ status: 'failed', error: { message, codexErrorInfo: info } }),
      expected,
    );
  });

  it('every provider code is in the documented, closed set', () => {
    for (const [info, message] of cases) {
      expect(UPSTREAM_PROVIDER_CODES).toContain(
        classifyUpstreamFailure({ message, codexErrorInfo: info }).providerCode,
      );
    }
  });
});
