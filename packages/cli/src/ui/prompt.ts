/**
 * Answering interactions in the terminal (@inquirer/prompts). Prompts draw on stderr so that
 * stdout keeps only model text or envelopes. Every prompt takes an AbortSignal: when the run
 * ends or the request is withdrawn first, the prompt goes away unanswered.
 */
import { expand, input, select, checkbox } from '@inquirer/prompts';
import type {
  ApprovalMode,
  InteractionRequest,
  InteractionResponse,
  QuestionAnswer,
} from '@relvo-labs/agent-provider';
import { neutraliseLine as shown } from './neutralise.js';

/** Ctrl-C inside a prompt (the terminal is in raw mode, so no SIGINT arrives). */
export class PromptInterrupted extends Error {
  constructor() {
    super('prompt interrupted');
    this.name = 'PromptInterrupted';
  }
}

/** The prompt was withdrawn because the interaction no longer waits for an answer. */
export class PromptAborted extends Error {
  constructor() {
    super('prompt aborted');
    this.name = 'PromptAborted';
  }
}

export interface PromptStreams {
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

type ApprovalChoice = 'once' | 'session' | 'deny';

async function guard<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'ExitPromptError') throw new PromptInterrupted();
    if (name === 'AbortPromptError') throw new PromptAborted();
    throw error;
  }
}

/** The choices a person gets: approve once / for the session where offered / deny. */
export function approvalChoices(
  allowedModes: readonly ApprovalMode[],
): { key: 'y' | 's' | 'n'; name: string; value: ApprovalChoice }[] {
  const choices: { key: 'y' | 's' | 'n'; name: string; value: ApprovalChoice }[] = [];
  if (allowedModes.includes('once'))
    choices.push({ key: 'y', name: 'approve once', value: 'once' });
  if (allowedModes.includes('session'))
    choices.push({ key: 's', name: 'approve for this session', value: 'session' });
  choices.push({ key: 'n', name: 'deny', value: 'deny' });
  return choices;
}

export async function promptForInteraction(
  request: InteractionRequest,
  streams: PromptStreams,
  signal: AbortSignal,
): Promise<InteractionResponse> {
  const context = {
    input: streams.input,
    output: streams.output,
    signal,
    clearPromptOnDone: false,
  };
  switch (request.kind) {
    case 'approval': {
      const choice = await guard(
        expand<ApprovalChoice>(
          {
            message: `Allow it? [y] approve once${request.allowedModes.includes('session') ? '  [s] approve for this session' : ''}  [n] deny (a key, then Enter)`,
            choices: approvalChoices(request.allowedModes),
            default: 'n',
          },
          context,
        ),
      );
      return choice === 'deny'
        ? { kind: 'approval', decision: 'denied' }
        : { kind: 'approval', decision: 'approved', mode: choice };
    }
    case 'question': {
      if (request.choices === undefined) {
        const message = shown(request.prompt);
        const answer = await guard(input({ message, required: true }, context));
        return { kind: 'question', answer };
      }
      const message = shown(request.prompt);
      const choices = request.choices.map((c) => ({
        name: shown(c.label),
        value: c.value,
        ...(c.description === undefined ? {} : { description: shown(c.description) }),
      }));
      if (request.multiSelect) {
        const values = await guard(checkbox({ message, choices, required: true }, context));
        return { kind: 'question', answer: values };
      }
      const value = await guard(select({ message, choices }, context));
      return { kind: 'question', answer: [value] };
    }
    case 'question_set': {
      const answers: Record<string, QuestionAnswer> = {};
      for (const q of request.questions) {
        const message = shown(q.header === undefined ? q.prompt : `${q.header}: ${q.prompt}`);
        if (q.choices === undefined) {
          const text = await guard(input({ message, required: true }, context));
          answers[q.key] = { type: 'text', text };
          continue;
        }
        const choices = q.choices.map((c) => ({ name: shown(c.label), value: c.value }));
        if (q.multiSelect) {
          const values = await guard(checkbox({ message, choices, required: true }, context));
          answers[q.key] = { type: 'selection', values };
        } else {
          const value = await guard(select({ message, choices }, context));
          answers[q.key] = { type: 'selection', values: [value] };
        }
      }
      return { kind: 'question_set', answers };
    }
    case 'tool_call':
      // nobody types a tool's output: the call fails
      return { kind: 'tool_call', output: { type: 'failure', code: 'unavailable' } };
  }
}
