/**
 * Scenarios for what a run may ask besides its input and for forks (ADR-0041): a steer while a
 * response streams, an output schema for one turn, per-run model/effort/summary and the thread's
 * defaults sent back, and a fork of a persisted thread in a second app-server.
 */
import { scriptedUsage, textStep } from '../../src/testing/index.js';
import type { Scenario } from './scenario-types.js';

const SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

export const RUN_SCENARIOS: readonly Scenario[] = [
  {
    name: 'steer',
    summary:
      'turn/steer (expectedTurnId: the turn) after the first delta of a slow response: codex cuts it and asks the model again, one turn',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(
        Array.from({ length: 40 }, (_, i) => `w${i} `),
        { itemId: 'msg_1', responseId: 'resp_1', delayMs: 100 },
      ),
      textStep(['steered', ' answer'], { itemId: 'msg_2', responseId: 'resp_2' }),
    ],
    turns: [{ text: 'count', steer: 'STEER: also say nine' }],
    evidenceOnly:
      'where a steer lands in a streaming response is timing, and releases treat it differently (0.155.0 lets the response finish, 0.171.0 cuts it); the end-to-end tier judges steering',
  },
  {
    name: 'output_schema',
    summary: 'turn/start with outputSchema, then a turn without: codex validates nothing',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    steps: [
      textStep(['{"answer":', '"42"}'], { itemId: 'msg_1', responseId: 'resp_1' }),
      textStep(['plain'], { itemId: 'msg_2', responseId: 'resp_2' }),
    ],
    turns: [
      { text: 'answer in JSON', params: { outputSchema: SCHEMA } },
      { text: 'and now plain' },
    ],
  },
  {
    name: 'run_options',
    summary:
      'model_reasoning_effort="low": thread/start answers it; a turn with model/effort/summary, then one sending the defaults back',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    extraConfig: ['model_reasoning_effort="low"'],
    steps: [
      textStep(['one'], { itemId: 'msg_1', responseId: 'resp_1' }),
      textStep(['two'], { itemId: 'msg_2', responseId: 'resp_2' }),
    ],
    turns: [
      { text: 'own', params: { model: 'other-model', effort: 'high', summary: 'detailed' } },
      { text: 'back', params: { model: 'scripted-model', effort: 'low', summary: 'auto' } },
    ],
  },
  {
    name: 'fork',
    summary:
      'persisted thread: one turn in a first app-server (left open); a second one forks it through that turn (thread/fork, excludeTurns) and runs a turn',
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: false,
    steps: [
      textStep(['Noted', ' KIWI.'], {
        itemId: 'msg_1',
        responseId: 'resp_1',
        usage: scriptedUsage(900, 5, 0, 0),
      }),
      textStep(['You said ', 'KIWI'], {
        itemId: 'msg_2',
        responseId: 'resp_2',
        usage: scriptedUsage(950, 6, 0, 0),
      }),
    ],
    turns: [{ text: 'remember KIWI' }],
    fork: { turns: [{ text: 'what did I say?' }] },
  },
];
