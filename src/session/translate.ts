/**
 * Pure notification → neutral translation. Nothing here copies upstream prose: errors are
 * published as allowlisted classification tokens only, and no native id reaches an event.
 */
import {
  messageDeltaEvent,
  type AgentError,
  type ProviderEventInput,
  type ProviderRunTermination,
} from '@relvo-labs/agent-provider';
import type { InboundOf } from '../protocol/inbound.js';
import { codexError } from '../shared/codex-error.js';
import { classifyUpstreamFailure, type UpstreamFailure } from './upstream-failure.js';

export const MAX_DELTA_CHUNK = 100_000;

/**
 * One native delta → one or more `run.message_delta` events that rejoin exactly. Called only for
 * a frame the correlator attributed to the run, i.e. whose turn scope is already checked.
 */
export function translateAgentMessageDelta(
  frame: InboundOf<'item/agentMessage/delta'>,
): ProviderEventInput[] {
  const text = frame.delta;
  if (text.length <= MAX_DELTA_CHUNK) return [messageDeltaEvent(text)];
  const events: ProviderEventInput[] = [];
  for (let i = 0; i < text.length;) {
    let end = Math.min(i + MAX_DELTA_CHUNK, text.length);
    // never split a surrogate pair across two events
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    events.push(messageDeltaEvent(text.slice(i, end)));
    i = end;
  }
  return events;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A failed turn's error: the upstream failure a host can act on, with bounded details. */
function upstreamError(error: unknown): AgentError {
  const failure = classifyUpstreamFailure(error);
  return codexError(failure.code, `codex turn failed (${failure.providerCode})`, {
    providerCode: failure.providerCode,
    details: {
      classification: failure.classification,
      ...(failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {}),
    },
  });
}

/** The classified failure one mid-turn `error` reports. */
export function midTurnFailure(frame: InboundOf<'error'>): UpstreamFailure {
  return classifyUpstreamFailure(frame.error);
}

/**
 * A mid-turn `error` is progress information, not an outcome. `retry` numbers codex's retry
 * notices within the run, counted here: codex's own "n/max" is prose and is not read.
 */
export function translateMidTurnError(
  failure: UpstreamFailure,
  retrying: boolean,
  retry?: number,
): ProviderEventInput {
  return {
    payload: {
      type: 'diagnostic',
      level: 'warning',
      message: `codex reported a mid-turn error (${failure.providerCode}); ${retrying ? 'the server is retrying' : 'the server is not retrying'}`,
      detail: {
        providerCode: failure.providerCode,
        classification: failure.classification,
        willRetry: retrying,
        ...(retrying && retry !== undefined ? { retry } : {}),
        ...(failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {}),
      },
    },
  };
}

/** `turn/completed` → the run's single termination. Status is read from the frame only. */
export function terminationOfCompletedTurn(turn: {
  readonly status?: unknown;
  readonly error?: unknown;
}): ProviderRunTermination {
  switch (turn.status) {
    case 'completed':
      return { outcome: 'succeeded' };
    case 'interrupted':
      return { outcome: 'interrupted' };
    case 'failed':
      return { outcome: 'failed', error: upstreamError(turn.error) };
    case 'inProgress':
      return {
        outcome: 'failed',
        error: codexError(
          'provider_contract_violation',
          'codex completed the turn with an unusable status',
          { providerCode: 'inProgress' },
        ),
      };
    default:
      return {
        outcome: 'failed',
        error: codexError(
          'provider_contract_violation',
          'codex completed the turn with an unusable status',
          { providerCode: 'unknown_status' },
        ),
      };
  }
}
