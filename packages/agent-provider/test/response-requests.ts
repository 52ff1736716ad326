/** Requests and answers the response-check tests share: one of each interaction kind. */
import {
  approvalRequestSchema,
  checkResponseAgainstRequest,
  questionSetRequestSchema,
  type InteractionRequest,
  type InteractionResponse,
} from '../src/index.js';
import { questionRequestSchema } from '../src/schemas/interaction.js';

// Responses arrive unparsed in practice; the check must cope with any shape.
export const check = (request: InteractionRequest, response: unknown) =>
  checkResponseAgainstRequest(request, response as InteractionResponse);

const choices = [
  { value: 'red', label: 'Red' },
  { value: 'blue', label: 'Blue' },
  { value: 'green', label: 'Green' },
];

const freeText = questionRequestSchema.parse({ kind: 'question', prompt: 'Name?' });
const single = questionRequestSchema.parse({ kind: 'question', prompt: 'Colour?', choices });
const multi = questionRequestSchema.parse({
  kind: 'question',
  prompt: 'Colours?',
  choices,
  multiSelect: true,
});
const approval = approvalRequestSchema.parse({
  kind: 'approval',
  subject: { category: 'command', summary: 'run tests' },
  allowedModes: ['once', 'session'],
});
const set = questionSetRequestSchema.parse({
  kind: 'question_set',
  questions: [
    { key: 'name', prompt: 'Name?' },
    { key: 'colour', prompt: 'Colour?', choices },
    { key: 'colours', prompt: 'Colours?', choices, multiSelect: true },
    { key: 'other', prompt: 'Other?', choices, allowFreeText: true },
  ],
});
export const validSetAnswers = {
  name: { type: 'text', text: 'Ada' },
  colour: { type: 'selection', values: ['red'] },
  colours: { type: 'selection', values: ['red', 'blue'] },
  other: { type: 'text', text: 'purple' },
};
export const setResponse = (answers: Record<string, unknown>) => ({
  kind: 'question_set',
  answers,
});

/** One request of each kind, by name. */
export const requests = { freeText, single, multi, approval, set };

/** The same requests, for properties that range over them all. */
export const everyRequest: InteractionRequest[] = Object.values(requests);
