/**
 * Who answers an interaction: `--yes` approves, `--no` denies, otherwise a person at the
 * terminal. With no terminal and no flag an approval is denied — never approved on our own —
 * and a question cannot be answered (the driver then interrupts the turn).
 */
import type {
  ApprovalMode,
  InteractionRequest,
  InteractionResponse,
} from '@relvo-labs/agent-provider';
import { promptForInteraction, type PromptStreams } from '../ui/prompt.js';

export const ANSWER_POLICIES = ['approve', 'deny', 'ask'] as const;
export type AnswerPolicy = (typeof ANSWER_POLICIES)[number];

export interface Answer {
  /** undefined: nobody can answer this request here. */
  readonly response: InteractionResponse | undefined;
  /** Why it was answered this way, for a person reading stderr. */
  readonly how: 'flag' | 'prompt' | 'no_terminal' | 'unbound';
}

export type Answerer = (request: InteractionRequest, signal: AbortSignal) => Promise<Answer>;

/** The narrowest approval the request allows: `once` when offered. */
export function narrowestMode(allowed: readonly ApprovalMode[]): ApprovalMode | undefined {
  return allowed.includes('once') ? 'once' : allowed[0];
}

export function createAnswerer(
  policy: AnswerPolicy,
  terminal: PromptStreams | undefined,
): Answerer {
  return async (request, signal) => {
    // the CLI binds no host functions: a host tool's call fails, and the model is told so
    if (request.kind === 'tool_call') {
      return {
        response: { kind: 'tool_call', output: { type: 'failure', code: 'unavailable' } },
        how: 'unbound',
      };
    }
    if (request.kind === 'approval') {
      if (policy === 'approve') {
        const mode = narrowestMode(request.allowedModes);
        return {
          response:
            mode === undefined
              ? { kind: 'approval', decision: 'denied' }
              : { kind: 'approval', decision: 'approved', mode },
          how: 'flag',
        };
      }
      if (policy === 'deny')
        return { response: { kind: 'approval', decision: 'denied' }, how: 'flag' };
      if (terminal === undefined)
        return { response: { kind: 'approval', decision: 'denied' }, how: 'no_terminal' };
      return { response: await promptForInteraction(request, terminal, signal), how: 'prompt' };
    }
    if (terminal === undefined) return { response: undefined, how: 'no_terminal' };
    return { response: await promptForInteraction(request, terminal, signal), how: 'prompt' };
  };
}

/** A short human description of an answer (never the answer's content for questions). */
export function describeResponse(response: InteractionResponse): string {
  switch (response.kind) {
    case 'approval':
      return response.decision === 'approved' ? `approved (${response.mode ?? 'once'})` : 'denied';
    case 'question':
    case 'question_set':
      return 'answered';
    case 'tool_call':
      return response.output.type === 'failure' ? `failed (${response.output.code})` : 'answered';
  }
}
