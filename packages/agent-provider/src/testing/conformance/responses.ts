import type { JsonObject } from '../../json.js';
import type { InteractionRequest, QuestionItem } from '../../schemas/interaction.js';

/**
 * Responses the kit derives from a raised request: a valid answer, a different valid answer
 * (to test conflicts) and an invalid one (docs/spi.md §13). Answers carry caller markers so that any echo
 * in an error or diagnostic is caught. Built as plain JSON: the kit talks to the provider the
 * way the runtime would, with already-captured values.
 */
export interface DerivedResponses {
  readonly valid: JsonObject;
  /** A valid response that differs from `valid`, or undefined when the request admits none. */
  readonly conflicting: JsonObject | undefined;
  readonly invalid: JsonObject;
}

function itemAnswer(
  item: QuestionItem,
  text: string,
  alternative: boolean,
): JsonObject | undefined {
  const choices = item.choices;
  if (choices === undefined || item.allowFreeText) {
    return { type: 'text', text: alternative ? `${text} (other)` : text };
  }
  const choice = alternative ? choices[1] : choices[0];
  return choice === undefined ? undefined : { type: 'selection', values: [choice.value] };
}

export function deriveResponses(
  request: InteractionRequest,
  marker: (label: string) => string,
): DerivedResponses {
  switch (request.kind) {
    case 'approval': {
      const mode = request.allowedModes[0] ?? 'once';
      return {
        valid: { kind: 'approval', decision: 'approved', mode, reason: marker('answer') },
        conflicting: { kind: 'approval', decision: 'denied' },
        // An approval without a mode (docs/spi.md §13).
        invalid: { kind: 'approval', decision: 'approved', reason: marker('answer') },
      };
    }
    case 'question': {
      const choices = request.choices;
      if (choices === undefined) {
        const text = marker('answer');
        return {
          valid: { kind: 'question', answer: text },
          conflicting: { kind: 'question', answer: `${text} (other)` },
          // A selection where only free text is accepted.
          invalid: { kind: 'question', answer: [marker('answer')] },
        };
      }
      const second = choices[1];
      return {
        valid: { kind: 'question', answer: [choices[0]?.value ?? ''] },
        conflicting:
          second === undefined ? undefined : { kind: 'question', answer: [second.value] },
        // A value that is not among the choices; it is a marker, so an echo is caught too.
        invalid: { kind: 'question', answer: [marker('answer')] },
      };
    }
    case 'question_set': {
      const text = marker('answer');
      const answers: JsonObject = {};
      const alternative: JsonObject = {};
      let conflicts = true;
      for (const [index, item] of request.questions.entries()) {
        const answer = itemAnswer(item, text, false);
        if (answer !== undefined) answers[item.key] = answer;
        const other = index === 0 ? itemAnswer(item, text, true) : answer;
        if (other === undefined) conflicts = false;
        else alternative[item.key] = other;
      }
      // All or nothing: an extra key (named by a caller marker) must be refused without echo.
      const invalid: JsonObject = {
        ...answers,
        [marker('key')]: { type: 'text', text: marker('answer') },
      };
      return {
        valid: { kind: 'question_set', answers },
        conflicting: conflicts ? { kind: 'question_set', answers: alternative } : undefined,
        invalid: { kind: 'question_set', answers: invalid },
      };
    }
    case 'tool_call':
      return {
        valid: { kind: 'tool_call', output: { type: 'text', text: marker('answer') } },
        conflicting: { kind: 'tool_call', output: { type: 'failure', code: 'failed' } },
        // A failure code outside the closed set, named by a caller marker.
        invalid: { kind: 'tool_call', output: { type: 'failure', code: marker('code') } },
      };
  }
}
