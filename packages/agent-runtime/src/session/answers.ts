import {
  agentError,
  captureJson,
  type AgentError,
  canonicalJson,
  checkResponseAgainstRequest,
  interactionResponseSchema,
  type InteractionRequest,
  type InteractionResponse,
  type InteractionSettlement,
} from '@relvo-labs/agent-provider';
import { RuntimeError } from '../errors.js';

/**
 * The settlement's error when an answer was handed to the provider but nobody saw the provider
 * take it: a crash in between, or a delivery that failed without a definite refusal (ADR-0046).
 */
export const ANSWER_OUTCOME_UNKNOWN: AgentError = agentError(
  'internal',
  'the answer was handed to the provider; whether it was applied is unknown',
  { details: { reason: 'answer_outcome_unknown' } },
);

function canonicalOf(value: InteractionResponse): string {
  const captured = captureJson(value);
  return captured.ok ? canonicalJson(captured.value) : '';
}

/** True when both are the same answer (canonical JSON), so a retry of it is recognised. */
export function sameAnswer(
  answer: InteractionResponse,
  other: InteractionResponse | undefined,
): boolean {
  return other !== undefined && canonicalOf(other) === canonicalOf(answer);
}

/** A host's response, captured and parsed; a typed refusal when it is not an InteractionResponse. */
export function parseAnswer(response: InteractionResponse): InteractionResponse {
  const captured = captureJson(response);
  const parsed = captured.ok ? interactionResponseSchema.safeParse(captured.value) : undefined;
  if (parsed?.success !== true) {
    throw new RuntimeError(
      'invalid_request',
      'response_invalid',
      'the response does not parse as an InteractionResponse',
    );
  }
  return parsed.data;
}

/**
 * An answer to an interaction that is already settled: undefined (a no-op) for an exact retry
 * of the applied answer, otherwise the refusal to throw.
 */
export function answerAfterSettlement(
  settlement: InteractionSettlement | undefined,
  answer: InteractionResponse,
): RuntimeError | undefined {
  const outcome = settlement?.outcome ?? 'responded';
  if (outcome === 'responded' && sameAnswer(answer, settlement?.response)) return undefined;
  return new RuntimeError(
    outcome === 'expired' ? 'interaction_expired' : 'interaction_already_settled',
    'interaction_settled',
    'the interaction is already settled',
    { details: { outcome } },
  );
}

/** The refusal of an answer that differs from the one being delivered. */
export function anotherAnswerInFlight(): RuntimeError {
  return new RuntimeError(
    'interaction_already_settled',
    'interaction_settled',
    'another answer to this interaction is being delivered',
  );
}

/** An answer that does not fit its request (kind, mode, questions): the refusal to throw. */
export function answerMisfit(
  request: InteractionRequest,
  answer: InteractionResponse,
): RuntimeError | undefined {
  const reason = checkResponseAgainstRequest(request, answer);
  return reason === undefined
    ? undefined
    : new RuntimeError('invalid_request', 'response_invalid', reason);
}

export function unknownInteraction(): RuntimeError {
  return new RuntimeError(
    'unknown_interaction',
    'unknown_interaction',
    'no pending interaction with that id in this session',
  );
}
